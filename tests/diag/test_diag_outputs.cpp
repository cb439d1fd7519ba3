// Outputs and escaping, through the CLI runner: `diag export -o` and `snapshot import -o` write
// only over a regular file or at a new path (a device, a FIFO, a socket or a folder is
// refused before any work, exit 2, nothing written or replaced); an export cleans the
// .part files of exports killed before their rename; what a bundle names reaches the
// terminal escaped.

#include "archive_builder.h"
#include "diag_cli_support.h"
#include "diag_fixture.h"
#include "support/cli_runner.h"

#include <QTest>
#include <chrono>
#include <cstdio>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using sp::test::makeZip;
using sp::test::q;
using sp::test::runCliInProcess;
namespace fs = std::filesystem;

class TestDiagOutputs : public QObject
{
    Q_OBJECT

private slots:
    // -o over a device, a FIFO, a socket or a folder is refused before any
    // work (exit 2, nothing written, nothing replaced), for diag export and snapshot
    // import alike.
    void outputsOnlyOverRegularFiles()
    {
        const sp::test::TestUser user("writer");
        const fs::path fifo = user.home() / "pipe.zip";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const fs::path folder = user.home() / "folder.zip";
        fs::create_directories(folder);
        const fs::path sock = user.home() / "s.zip";
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
        QCOMPARE(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
        std::vector<std::pair<fs::path, fs::file_type>> targets = {
            {fifo, fs::file_type::fifo},
            {folder, fs::file_type::directory},
            {sock, fs::file_type::socket}};
        if (fs::status("/dev/full").type() == fs::file_type::character)
            targets.push_back({"/dev/full", fs::file_type::character});
        const QString paste = QStringLiteral(
            STACKPILOT_SOURCE_DIR "/tests/import/corpus/hipinfo-rocm511-linux-device-687f.txt");
        for (const auto& [target, type] : targets) {
            const auto exported =
                runCliInProcess({QStringLiteral("diag"), QStringLiteral("export"),
                                 QStringLiteral("--no-probes"), QStringLiteral("-o"), q(target)});
            QCOMPARE(exported.rc, 2);
            QVERIFY2(exported.err.find("regular file") != std::string::npos, exported.err.c_str());
            QVERIFY2(exported.out.empty(), exported.out.c_str()); // refused before any work
            const auto imported =
                runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"), paste,
                                 QStringLiteral("-o"), q(target)});
            QCOMPARE(imported.rc, 2);
            QVERIFY2(imported.err.find("regular file") != std::string::npos, imported.err.c_str());
            QCOMPARE(fs::symlink_status(target).type(), type); // not replaced
        }
        QVERIFY(fs::is_empty(folder));
        ::close(fd);
        for (const auto& e : fs::directory_iterator(user.home()))
            QVERIFY2(e.path().extension() != ".part", e.path().c_str());
    }

    // A .part left by an export killed before its rename is removed by the next one;
    // a fresh one (an export writing now) and the user's files are not.
    void staleTemporaryFilesAreCleaned()
    {
        const sp::test::TestUser user("cleaner");
        const fs::path dir = user.home() / "out";
        fs::create_directories(dir);
        const fs::path stale = dir / ".stackpilot-diagnostics-Ab12Cd.part";
        const fs::path fresh = dir / ".stackpilot-diagnostics-Ef34Gh.part";
        const fs::path users = dir / "mine.part";
        for (const auto& f : {stale, fresh, users})
            sp::test::writeText(f, "partial");
        const auto hourAgo = fs::file_time_type::clock::now() - std::chrono::hours(1);
        fs::last_write_time(stale, hourAgo);
        fs::last_write_time(users, hourAgo);
        QCOMPARE(
            runCliInProcess({QStringLiteral("diag"), QStringLiteral("export"),
                             QStringLiteral("--no-probes"), QStringLiteral("-o"), q(dir / "b.zip")})
                .rc,
            0);
        QVERIFY(!fs::exists(stale));
        QVERIFY(fs::exists(fresh));
        QVERIFY(fs::exists(users));
        QVERIFY(fs::exists(dir / "b.zip"));
    }

    // What a bundle names reaches the terminal with its escapes shown, not
    // obeyed (a title change, a screen clear, an 8-bit CSI).
    void namesFromABundleAreShownEscaped()
    {
        const sp::test::TestUser user("escaper");
        const std::string hostile = "catalog.d/\x1b]0;pwned\x07\x1b[2J\xc2\x9b"
                                    "1m.json";
        sp::test::writeText(
            user.home() / "hostile.zip",
            makeZip({{"report.json", sp::test::readAll(STACKPILOT_SOURCE_DIR
                                                       "/tests/fuzz/seeds/bundle/report.json")},
                     {hostile, "{}"}}));
        const auto r = runCliInProcess({QStringLiteral("plan"), QStringLiteral("--workload"),
                                        QStringLiteral("sdnext"), QStringLiteral("--hardware"),
                                        q(user.home() / "hostile.zip")});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.err.find("\\x1b]0;pwned\\x07\\x1b[2J\\u009b1m.json") != std::string::npos,
                 r.err.c_str());
        QVERIFY(r.err.find('\x1b') == std::string::npos);
        QVERIFY(r.err.find("\xc2\x9b") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestDiagOutputs)
#include "test_diag_outputs.moc"
