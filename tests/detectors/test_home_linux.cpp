// The Linux home-filesystem detection on fake mountinfo files.
#include "detectors/home.h"
#include "detectors/linux/home_linux.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>

using namespace sp;
using namespace sp::linuxhome;

namespace {

const char* kMountinfo =
    "22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw\n"
    "23 22 0:21 / /proc rw,nosuid - proc proc rw\n"
    "40 22 0:45 / /home rw,relatime shared:20 - ext4 /dev/sda3 rw\n"
    "41 22 0:46 / /homework rw - xfs /dev/sdb1 rw\n"
    "42 40 0:50 / /home/alice rw,relatime shared:30 - nfs4 srv:/export/alice rw,vers=4.2\n"
    "43 40 0:51 / /home/bob\\040smith rw - fuse.sshfs bob@host:/ rw\n"
    "this line is broken\n"
    "44 22 0:52 / /mnt/x rw master:7 unbindable - cifs //nas/x rw\n";

} // namespace

class TestHomeLinux : public QObject
{
    Q_OBJECT
private slots:
    void longestWholeComponentPrefix()
    {
        QCOMPARE(mountFor(kMountinfo, "/home/alice/work")->fsType, std::string("nfs4"));
        QCOMPARE(mountFor(kMountinfo, "/home/alice")->mountPoint, std::string("/home/alice"));
        QCOMPARE(mountFor(kMountinfo, "/home/alicex")->fsType, std::string("ext4"));
        QCOMPARE(mountFor(kMountinfo, "/homework/a")->fsType, std::string("xfs"));
        QCOMPARE(mountFor(kMountinfo, "/home/bob smith")->fsType, std::string("fuse.sshfs"));
        QCOMPARE(mountFor(kMountinfo, "/mnt/x/y")->fsType,
                 std::string("cifs")); // several optional fields
        QCOMPARE(mountFor(kMountinfo, "/var")->mountPoint, std::string("/"));
        QVERIFY(!mountFor("", "/home"));
        QVERIFY(!mountFor("garbage\n\n- - -\n", "/home"));
    }

    void laterMountOnTopWins()
    {
        const std::string info =
            std::string(kMountinfo) + "50 40 0:60 / /home/alice rw - tmpfs tmpfs rw\n";
        QCOMPARE(mountFor(info, "/home/alice")->fsType, std::string("tmpfs"));
    }

    void homeOnNfsIsNetwork()
    {
        QTemporaryDir tmp;
        const auto base = std::filesystem::canonical(tmp.path().toStdString());
        const auto home = base / "home" / "carol";
        std::filesystem::create_directories(home);
        const auto mountinfo = base / "mountinfo";
        std::ofstream(mountinfo) << "22 1 8:2 / / rw - ext4 /dev/sda2 rw\n"
                                 << "60 22 0:70 / " << (base / "home").string()
                                 << " rw,relatime - nfs4 fileserver:/home rw,vers=4.2\n";
        const auto info = detectHomeAt(home.string(), mountinfo.string());
        QCOMPARE(info.filesystem, std::string("nfs4"));
        QVERIFY(info.network);
        QCOMPARE(info.path, home.string());
        QVERIFY(info.extra["mount_point"] == nlohmann::json((base / "home").string()));

        // Through a symlink, the home is where the link points.
        const auto link = base / "link-home";
        std::filesystem::create_directory_symlink(home, link);
        QVERIFY(detectHomeAt(link.string(), mountinfo.string()).network);
    }

    void localHomeAndUnreadableMountinfo()
    {
        QTemporaryDir tmp;
        const auto base = std::filesystem::canonical(tmp.path().toStdString());
        const auto mountinfo = base / "mountinfo";
        std::ofstream(mountinfo) << "22 1 8:2 / / rw - ext4 /dev/sda2 rw\n";
        const auto local = detectHomeAt(base.string(), mountinfo.string());
        QCOMPARE(local.filesystem, std::string("ext4"));
        QVERIFY(!local.network);
        // Without mountinfo, statfs still names the filesystem (whatever this machine has).
        const auto fallback = detectHomeAt(base.string(), (base / "missing").string());
        QVERIFY(!fallback.filesystem.empty());
    }

    void realHome()
    {
        const auto h = detectHome();
        QVERIFY(!h.path.empty());
        QVERIFY(!h.filesystem.empty());
        QCOMPARE(h.network, isNetworkFilesystem(h.filesystem));
    }
};

QTEST_GUILESS_MAIN(TestHomeLinux)
#include "test_home_linux.moc"
