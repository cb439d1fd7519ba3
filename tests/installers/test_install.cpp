// The whole install over a real loopback HTTP server: a good install and its
// receipt, verify finding damage, hostile archives and bad downloads refused with
// nothing written outside the prefix, leftovers of a crash recovered, and a real
// Debian package (rocminfo) installed and run from its prefix.

#include "core/ownership.h"
#include "install_fixture.h"
#include "installers/install_lock.h"
#include "installers/receipt.h"
#include "installers/sha256.h"
#include "tree_snapshot.h"

#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <sys/resource.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace sp;
using namespace sp::test;

class TestInstall : public QObject
{
    Q_OBJECT

    HttpTestServer m_server;

    Expected<InstallResult> installIn(const fs::path& base, const Runtime& rt, bool force = false)
    {
        auto o = quickOptions(base / "prefix", base / "cache");
        o.force = force;
        Installer installer(o);
        return installer.install(rt);
    }

    // Nothing of `id` is installed or left behind, and the folder around the
    // prefix is as it was.
    void verifyNothingInstalled(const fs::path& base, const std::string& id,
                                const std::set<std::string>& before)
    {
        PrefixStore store(base / "prefix");
        QVERIFY(!store.isInstalled(id));
        QVERIFY(!fs::exists(store.runtimeDir(id)));
        QVERIFY(!fs::exists(store.receiptFile(id)));
        for (const auto& e : fs::directory_iterator(base / "prefix"))
            QVERIFY2(e.path().filename().string().rfind(".staging", 0) != 0,
                     e.path().string().c_str());
        QVERIFY(treeSnapshot(base, "cache") == before);
    }

private slots:
    void initTestCase() { QVERIFY2(m_server.start(), m_server.error().c_str()); }

    void installsVerifiesAndDetectsDamage()
    {
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path()) / "dossier avec espace é";
        const std::string tgz =
            buildArchive({TestEntry::file("top/bin/tool", "#!/bin/sh\n", 0755),
                          TestEntry::file("top/lib/a.so", mixedBytes(500000, 1)),
                          TestEntry::symlink("top/lib/b.so", "a.so")},
                         "tar.gz");
        const std::string single = "plain file bytes\n";
        m_server.addBlob("/good/pkg.tar.gz", tgz);
        m_server.addBlob("/good/helper.sh", single);
        auto a1 = artifactFor(m_server.url("/good/pkg.tar.gz"), tgz, "tar.gz");
        a1.stripComponents = 1;
        auto a2 = artifactFor(m_server.url("/good/helper.sh"), single, "file");
        const Runtime rt = runtimeWith("good-rt", {a1, a2});

        auto r = installIn(base, rt);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(!r->alreadyInstalled);
        PrefixStore store(base / "prefix");
        QVERIFY(store.isInstalled("good-rt"));
        QVERIFY(fs::is_regular_file(store.runtimeDir("good-rt") / "bin/tool"));
        QVERIFY(fs::is_regular_file(store.runtimeDir("good-rt") / "helper.sh"));
        auto receipt = store.receipt("good-rt");
        QVERIFY(receipt.ok());
        QCOMPARE(receipt->artifacts.size(), std::size_t(2));
        QCOMPARE(receipt->artifacts[0].sha256, *a1.sha256);
        QVERIFY(verifyTree(store.runtimeDir("good-rt"), *receipt).empty());

        // A second install is a no-op.
        auto again = installIn(base, rt);
        QVERIFY(again.ok() && again->alreadyInstalled);

        // Damage: one file modified, one removed.
        {
            std::ofstream(store.runtimeDir("good-rt") / "lib/a.so", std::ios::app) << "x";
        }
        fs::remove(store.runtimeDir("good-rt") / "helper.sh");
        auto problems = verifyTree(store.runtimeDir("good-rt"), *receipt);
        QCOMPARE(problems.size(), std::size_t(2));
        std::set<std::string> seen;
        for (const auto& p : problems)
            seen.insert(p.issue + ":" + p.path);
        QVERIFY(seen.count("modified:lib/a.so"));
        QVERIFY(seen.count("missing:helper.sh"));

        // Repair = forced reinstall through staging, served from the cache.
        m_server.resetStats();
        auto fixed = installIn(base, rt, true);
        QVERIFY2(fixed.ok(), fixed.ok() ? "" : fixed.error().message.c_str());
        QCOMPARE(m_server.stats("/good/pkg.tar.gz").bodyBytes, std::uint64_t(0));
        QVERIFY(verifyTree(store.runtimeDir("good-rt"), *store.receipt("good-rt")).empty());

        // Uninstall leaves nothing.
        QVERIFY(store.remove("good-rt").ok());
        QVERIFY(!fs::exists(store.runtimeDir("good-rt")));
        QVERIFY(!fs::exists(store.receiptFile("good-rt")));
    }

    void hostileOverHttp_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("format");
        QTest::newRow("zip-slip") << 0 << QStringLiteral("zip");
        QTest::newRow("absolute path") << 1 << QStringLiteral("tar.gz");
        QTest::newRow("symlink escape") << 2 << QStringLiteral("tar.gz");
        QTest::newRow("hardlink escape") << 3 << QStringLiteral("tar.gz");
        QTest::newRow("bomb") << 4 << QStringLiteral("tar.gz");
        QTest::newRow("device node") << 5 << QStringLiteral("tar.gz");
        QTest::newRow("deb zip-slip") << 0 << QStringLiteral("deb");
    }

    void hostileOverHttp()
    {
        QFETCH(int, kind);
        QFETCH(QString, format);
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        const std::string abs = "/tmp/stackpilot-evil-install-" + std::to_string(::getpid());
        std::vector<TestEntry> e{TestEntry::file("fine.txt", "ok")};
        switch (kind) {
        case 0:
            e.push_back(TestEntry::file("../../evil", "pwned"));
            break;
        case 1:
            e.push_back(TestEntry::file(abs, "pwned"));
            break;
        case 2:
            e.push_back(TestEntry::symlink("link", "../../outside"));
            e.push_back(TestEntry::file("link/evil", "pwned"));
            break;
        case 3:
            e.push_back(TestEntry::hardlink("hl", "../../../etc/hostname"));
            break;
        case 4:
            e.push_back({"bomb", TestEntry::Type::File, {}, {}, 0644, 100u << 20});
            break;
        case 5:
            e.push_back({"dev/sda", TestEntry::Type::CharDevice, {}, {}, 0600, 0});
            break;
        }
        const std::string fmt = format.toStdString();
        const std::string bytes = fmt == "deb" ? buildDeb(e) : buildArchive(e, fmt);
        const std::string path = "/hostile/" + std::to_string(kind) + "." + fmt;
        m_server.addBlob(path, bytes);
        const Runtime rt = runtimeWith("hostile-rt", {artifactFor(m_server.url(path), bytes, fmt)});
        PrefixStore store(base / "prefix");
        QVERIFY(store.ensureRoot().ok());
        const auto before = treeSnapshot(base, "cache");
        auto r = installIn(base, rt);
        QVERIFY2(!r.ok(), "a hostile archive was installed");
        QVERIFY2(r.error().message.find(std::to_string(kind) + "." + fmt) != std::string::npos,
                 r.error().message.c_str());
        verifyNothingInstalled(base, "hostile-rt", before);
        QVERIFY(!fs::exists(abs));
        QVERIFY(!fs::exists(base.parent_path() / "evil"));
        QVERIFY(!fs::exists(base.parent_path() / "outside"));
    }

    void badDownloads_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("wrong hash") << 0;
        QTest::newRow("wrong size") << 1;
        QTest::newRow("truncated archive") << 2;
        QTest::newRow("corrupt bytes in transit") << 3;
        QTest::newRow("server closes early") << 4;
    }

    void badDownloads()
    {
        QFETCH(int, kind);
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        const std::string good = buildArchive(
            {TestEntry::file("a.bin", mixedBytes(600000, 5)), TestEntry::file("b.txt", "b")},
            "tar.gz");
        const std::string path = "/bad/" + std::to_string(kind) + ".tar.gz";
        Artifact a = artifactFor(m_server.url(path), good, "tar.gz");
        m_server.clearFaults();
        switch (kind) {
        case 0:
            m_server.addBlob(path, good);
            a.sha256 = std::string(64, 'a');
            break;
        case 1:
            m_server.addBlob(path, good);
            a.size = good.size() - 100;
            break;
        case 2: {
            const std::string cut = good.substr(0, good.size() / 2);
            m_server.addBlob(path, cut);
            a = artifactFor(m_server.url(path), cut,
                            "tar.gz"); // the hash matches: only unpacking can tell
            break;
        }
        case 3:
            m_server.addBlob(path, good);
            m_server.setFault(path, Fault::corrupt(good.size() / 2));
            break;
        case 4:
            m_server.addBlob(path, good);
            m_server.setFault(path, Fault::dropAfter(1000, -1));
            break;
        }
        PrefixStore store(base / "prefix");
        QVERIFY(store.ensureRoot().ok());
        const auto before = treeSnapshot(base, "cache");
        auto r = installIn(base, runtimeWith("bad-rt", {a}));
        m_server.clearFaults();
        QVERIFY2(!r.ok(), "a bad download was installed");
        qInfo("refused: %s", r.error().message.c_str());
        verifyNothingInstalled(base, "bad-rt", before);
    }

    void refusesWithoutFreeSpace()
    {
        QTemporaryDir tmp;
        const std::string bytes = buildArchive({TestEntry::file("a", "a")}, "tar.gz");
        m_server.addBlob("/space.tar.gz", bytes);
        Artifact a = artifactFor(m_server.url("/space.tar.gz"), bytes, "tar.gz");
        auto o = quickOptions(toPath(tmp.path()) / "prefix", toPath(tmp.path()) / "cache");
        o.spaceFactor = 1e15; // asks for more than any disk has
        Installer installer(o);
        m_server.resetStats();
        auto r = installer.install(runtimeWith("space-rt", {a}));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("not enough free space") != std::string::npos,
                 r.error().message.c_str());
        QCOMPARE(m_server.stats("/space.tar.gz").requests, 0); // checked before downloading
        QVERIFY(!installer.store().isInstalled("space-rt"));
    }

    void writeErrorCleansUp()
    {
        // A file-size limit makes write() fail the way a full disk does (EFBIG
        // instead of ENOSPC): the install must stop with the reason and leave
        // no staging folder behind.
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        std::vector<TestEntry> e{TestEntry::file("small", "s")};
        e.push_back({"big.bin", TestEntry::Type::File, {}, {}, 0644, 3u << 20});
        const std::string bytes = buildArchive(e, "tar.gz");
        QVERIFY(bytes.size() < (1u << 20));
        m_server.addBlob("/big-zeros.tar.gz", bytes);
        Artifact a = artifactFor(m_server.url("/big-zeros.tar.gz"), bytes, "tar.gz");
        a.maxExtractedSize = std::uint64_t(100) << 20;
        PrefixStore store(base / "prefix");
        QVERIFY(store.ensureRoot().ok());
        const auto before = treeSnapshot(base, "cache");
        struct rlimit old
        {};
        getrlimit(RLIMIT_FSIZE, &old);
        auto previous = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit small = old;
        small.rlim_cur = 1u << 20;
        QVERIFY(setrlimit(RLIMIT_FSIZE, &small) == 0);
        auto r = installIn(base, runtimeWith("full-disk-rt", {a}));
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previous);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("big.bin") != std::string::npos &&
                     r.error().message.find("write failed") != std::string::npos,
                 r.error().message.c_str());
        verifyNothingInstalled(base, "full-disk-rt", before);
    }

    // A vendor installer (format exe-installer) is downloaded, hash-checked, run
    // silently with the catalog's arguments, and its install folder is recorded.
    // The test's "installer" is a shell script; on Windows it is AMD's setup.exe.
    void exeInstallerRunsSilently()
    {
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        const fs::path target = base / "Program Files" / "AMD" / "ROCm" / "5.7";
        const std::string script = "#!/bin/sh\n"
                                   "[ \"$1\" = -install ] || exit 9\n"
                                   "[ \"$2\" = -log ] || exit 9\n"
                                   "echo installing > \"$3\"\n"
                                   "mkdir -p \"$4/bin\" && echo hip > \"$4/bin/amdhip64.dll\"\n";
        m_server.addBlob("/hip/setup.exe", script);
        Artifact a = artifactFor(m_server.url("/hip/setup.exe"), script, "exe-installer");
        a.installerArgs = {"-install", "-log", "{log}", "{install_dir}"};
        Runtime rt = runtimeWith("hip-sdk-test", {a});
        rt.installDir = paths::toUtf8(target);
        auto r = installIn(base, rt);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(fs::exists(target / "bin" / "amdhip64.dll"));
        PrefixStore store(base / "prefix");
        QVERIFY(store.isInstalled("hip-sdk-test"));
        auto receipt = store.receipt("hip-sdk-test");
        QVERIFY(receipt.ok());
        QCOMPARE(receipt->installDir, paths::toUtf8(target));
        QCOMPARE(receipt->artifacts.at(0).format, std::string("exe-installer"));
        QVERIFY(fs::exists(paths::logDir() / "hip-sdk-test-installer.log"));
    }

    void exeInstallerFailuresInstallNothing_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("message");
        QTest::newRow("exit code")
            << QStringLiteral("#!/bin/sh\nexit 215\n") << QStringLiteral("exit code 215");
        QTest::newRow("no install folder")
            << QStringLiteral("#!/bin/sh\nexit 0\n") << QStringLiteral("does not exist");
    }

    void exeInstallerFailuresInstallNothing()
    {
        QFETCH(QString, script);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        const std::string path = "/hip/fail-" + std::to_string(script.size()) + ".exe";
        m_server.addBlob(path, script.toStdString());
        Artifact a = artifactFor(m_server.url(path), script.toStdString(), "exe-installer");
        a.installerArgs = {"-install"};
        Runtime rt = runtimeWith("hip-sdk-fail", {a});
        rt.installDir = paths::toUtf8(base / "never-made");
        PrefixStore store(base / "prefix");
        QVERIFY(store.ensureRoot().ok());
        const auto before = treeSnapshot(base, "cache");
        auto r = installIn(base, rt);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find(message.toStdString()) != std::string::npos,
                 r.error().message.c_str());
        verifyNothingInstalled(base, "hip-sdk-fail", before);
    }

    void verifyNeverReadsOutsideThePrefix()
    {
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        const fs::path dir = base / "prefix" / "rt";
        fs::create_directories(dir);
        fs::create_directories(base / "outside");
        std::ofstream(base / "outside" / "secret.txt") << "secret";
        fs::create_symlink(base / "outside", dir / "link");
        const auto sha = Sha256::ofFile(base / "outside" / "secret.txt");
        QVERIFY(sha.ok());
        // Each record matches the outside file exactly: reading it would pass.
        Receipt receipt;
        receipt.id = "rt";
        const std::vector<std::string> escapes = {"../outside/secret.txt",
                                                  (base / "outside/secret.txt").string(),
                                                  "link/secret.txt", "./x/../../y"};
        for (const auto& path : escapes) {
            FileRecord f;
            f.path = path;
            f.type = FileRecord::Type::File;
            f.size = 6;
            f.sha256 = *sha;
            receipt.files.push_back(f);
        }
        const auto problems = verifyTree(dir, receipt);
        QCOMPARE(problems.size(), receipt.files.size());
        for (const auto& p : problems)
            QVERIFY2(p.issue == "outside-prefix", (p.path + ": " + p.issue).c_str());
    }

    void recoversLeftoversOfACrash()
    {
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        PrefixStore store(base / "prefix");
        QVERIFY(store.ensureRoot().ok());
        // A crash during extraction, one during uninstall, and one between the
        // receipt and the folder rename.
        // They carry the owner marker, as every folder the installer makes does.
        QVERIFY(ownership::createOwned(store.root() / ".staging-crash-rt-0badf00d", "t").ok());
        fs::create_directories(store.root() / ".staging-crash-rt-0badf00d" / "half");
        QVERIFY(ownership::createOwned(store.root() / ".trash-crash-rt-12345678", "t").ok());
        fs::create_directories(store.root() / ".trash-crash-rt-12345678" / "old");
        Receipt receipt;
        receipt.id = "crash-rt";
        QVERIFY(receipt.save(store.receiptFile("crash-rt")).ok());
        // Look-alikes of the user's, without the marker, are never touched.
        fs::create_directories(store.root() / ".staging-crash-rt-0000abcd" / "mine");
        QVERIFY(!store.isInstalled("crash-rt"));
        const auto dry = store.recoverAll(true);
        QVERIFY(fs::exists(store.root() / ".staging-crash-rt-0badf00d"));
        const auto lines = store.recoverAll();
        QCOMPARE(dry.size(), lines.size());     // a dry run lists what a real run does
        QCOMPARE(lines.size(), std::size_t(4)); // three removed, one left alone
        QVERIFY(!fs::exists(store.root() / ".staging-crash-rt-0badf00d"));
        QVERIFY(!fs::exists(store.root() / ".trash-crash-rt-12345678"));
        QVERIFY(!fs::exists(store.receiptFile("crash-rt")));
        QVERIFY(fs::exists(store.root() / ".staging-crash-rt-0000abcd" / "mine"));
        fs::remove_all(store.root() / ".staging-crash-rt-0000abcd");

        // Killed between the folder and its marker: empty, or only the marker's temporary
        // file (QSaveFile's); such a folder goes (a fresh clone's kill -9 test left one).
        fs::create_directories(store.root() / ".staging-crash-rt-1111aaaa");
        fs::create_directories(store.root() / ".staging-crash-rt-2222bbbb");
        std::ofstream(store.root() / ".staging-crash-rt-2222bbbb" /
                      (std::string(ownership::markerName()) + ".Ab12Cd"))
            << "half";
        QCOMPARE(store.recoverAll().size(), std::size_t(2));
        QVERIFY(!fs::exists(store.root() / ".staging-crash-rt-1111aaaa"));
        QVERIFY(!fs::exists(store.root() / ".staging-crash-rt-2222bbbb"));

        // A leftover whose install is running (lock held) is left alone.
        QVERIFY(ownership::createOwned(store.root() / ".staging-busy-rt-0badf00d", "t").ok());
        auto lock = InstallLock::tryAcquire(store.root(), "busy-rt");
        QVERIFY(lock);
        QVERIFY(store.recoverAll().empty());
        QVERIFY(fs::exists(store.root() / ".staging-busy-rt-0badf00d"));
        // Same process, second lock object: the lock is exclusive.
        QVERIFY(!InstallLock::tryAcquire(store.root(), "busy-rt"));
    }

    void realDebPackage()
    {
        // .ci/install-deps fetches it (`apt-get download rocminfo`); a machine that
        // installed rocminfo with apt also keeps it in apt's archive cache.
        std::vector<fs::path> dirs;
        if (const QString d = qEnvironmentVariable("STACKPILOT_TEST_DEBS"); !d.isEmpty())
            dirs.push_back(toPath(d));
        dirs.push_back("/var/cache/stackpilot-test-debs");
        dirs.push_back("/var/cache/apt/archives");
        fs::path deb;
        for (const auto& d : dirs) {
            std::error_code ec;
            for (const auto& e : fs::directory_iterator(d, ec))
                if (e.path().filename().string().rfind("rocminfo_", 0) == 0 &&
                    e.path().extension() == ".deb")
                    deb = e.path();
            if (!deb.empty())
                break;
        }
        if (deb.empty())
            QSKIP("no rocminfo_*.deb found (run .ci/install-deps, which runs `apt-get download "
                  "rocminfo` into /var/cache/stackpilot-test-debs)");
        std::ifstream f(deb, std::ios::binary);
        const std::string bytes{std::istreambuf_iterator<char>(f), {}};
        m_server.addBlob("/debian/" + deb.filename().string(), bytes);
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        auto r = installIn(
            base, runtimeWith("rocminfo-deb",
                              {artifactFor(m_server.url("/debian/" + deb.filename().string()),
                                           bytes, "deb")}));
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        const fs::path exe = base / "prefix" / "rocminfo-deb" / "usr" / "bin" / "rocminfo";
        QVERIFY(fs::is_regular_file(exe));
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LD_LIBRARY_PATH"),
                   qpath(base / "prefix" / "rocminfo-deb" / "usr/lib/x86_64-linux-gnu"));
        p.setProcessEnvironment(env);
        p.start(qpath(exe), {});
        QVERIFY2(p.waitForStarted(5000), "the installed rocminfo did not start");
        QVERIFY(p.waitForFinished(30000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        qInfo("installed rocminfo exited %d: %s", p.exitCode(), qPrintable(out.left(200)));
        QVERIFY(p.exitStatus() == QProcess::NormalExit);
        // It ran its own code: no GPU here, so it says why (ROCk/HSA) instead of
        // the loader failing with 127.
        QVERIFY(p.exitCode() != 127 && p.exitCode() != 126);
        QVERIFY2(out.contains(QStringLiteral("ROCk")) || out.contains(QStringLiteral("HSA")) ||
                     out.contains(QStringLiteral("Agent")),
                 qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestInstall)
#include "test_install.moc"
