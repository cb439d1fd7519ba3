// stackpilot-cli install / verify / repair / uninstall / gc as a user runs them,
// two processes racing for one runtime, and kill -9 at random points of an install:
// afterwards the runtime is absent or complete and verified, never half there, and
// the next run finishes (resuming the download where the kill cut it).

#include "install_fixture.h"
#include "installers/prefix_store.h"
#include "tree_snapshot.h"

#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <random>
#include <sys/types.h>

namespace fs = std::filesystem;
using namespace sp;
using namespace sp::test;

class TestInstallCli : public QObject
{
    Q_OBJECT

    HttpTestServer m_server;
    QTemporaryDir m_tmp;
    fs::path m_home, m_catalog, m_prefix;
    std::string m_bytes;
    Runtime m_rt;

    QProcessEnvironment env() const
    {
        auto e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("STACKPILOT_HOME"), qpath(m_home));
        if (!e.contains(QStringLiteral("STACKPILOT_DATA_DIR")))
            e.insert(QStringLiteral("STACKPILOT_DATA_DIR"),
                     QStringLiteral(STACKPILOT_BINARY_DIR "/share/stackpilot"));
        return e;
    }

    QStringList args(const QString& verb, const QStringList& extra = {}) const
    {
        QStringList a{verb};
        a << extra << QStringLiteral("--prefix-root") << qpath(m_prefix);
        if (verb == QStringLiteral("install") || verb == QStringLiteral("repair") ||
            verb == QStringLiteral("gc"))
            a << QStringLiteral("--catalog-dir") << qpath(m_catalog);
        return a;
    }

    struct Run
    {
        int code = -1;
        QString out, err;
    };
    Run cli(const QStringList& a, int timeoutMs = 60000) const
    {
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(cliPath(), a);
        if (!p.waitForFinished(timeoutMs))
            p.kill();
        p.waitForFinished();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

    fs::path cachedFile() const
    {
        return m_home / "cache" / "downloads" / *m_rt.artifacts[0].sha256;
    }

    // The invariant: a runtime folder exists only with its receipt, and verifies.
    void checkAbsentOrComplete(const std::string& when)
    {
        PrefixStore store(m_prefix);
        if (!fs::exists(store.runtimeDir(m_rt.id)))
            return;
        QVERIFY2(fs::exists(store.receiptFile(m_rt.id)),
                 ("folder without receipt " + when).c_str());
        auto receipt = store.receipt(m_rt.id);
        QVERIFY2(receipt.ok(), when.c_str());
        const auto problems = verifyTree(store.runtimeDir(m_rt.id), *receipt);
        QVERIFY2(problems.empty(), ("half-installed runtime " + when + ": " +
                                    (problems.empty() ? "" : problems[0].path))
                                       .c_str());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const fs::path base = toPath(m_tmp.path());
        m_home = base / "home";
        m_catalog = base / "catalog";
        m_prefix = base / "préfixe root";
        std::vector<TestEntry> entries;
        for (int i = 0; i < 48; ++i)
            entries.push_back(TestEntry::file("pkg/lib/part" + std::to_string(i) + ".bin",
                                              mixedBytes(128 * 1024 + i * 997, 100 + i)));
        entries.push_back(TestEntry::file("pkg/bin/tool", "#!/bin/sh\necho ok\n", 0755));
        m_bytes = buildArchive(entries, "tar.gz");
        m_server.addBlob("/rt/pkg.tar.gz", m_bytes);
        QVERIFY2(m_server.start(), m_server.error().c_str());
        m_rt = runtimeWith("crash-test-rt",
                           {artifactFor(m_server.url("/rt/pkg.tar.gz"), m_bytes, "tar.gz")});
        m_rt.artifacts[0].stripComponents = 1;
        writeCatalog(m_catalog, {m_rt});
    }

    void verbsEndToEnd()
    {
        auto r = cli(args(QStringLiteral("install"),
                          {QString::fromStdString(m_rt.id), QStringLiteral("--json")}));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(j["runtimes"][0]["ok"] == true);
        QVERIFY(j["runtimes"][0]["artifacts"][0]["source"] == "network");

        r = cli(args(QStringLiteral("verify"), {QString::fromStdString(m_rt.id)}));
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        // damage, verify names the file, repair fixes it without downloading
        const fs::path tool = m_prefix / m_rt.id / "bin" / "tool";
        {
            std::ofstream(tool, std::ios::app) << "tampered";
        }
        r = cli(args(QStringLiteral("verify"), {QStringLiteral("--json")}));
        QCOMPARE(r.code, 1);
        j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(j["runtimes"][0]["problems"][0]["path"] == "bin/tool");
        QVERIFY(j["runtimes"][0]["problems"][0]["issue"] == "modified");
        m_server.resetStats();
        r = cli(args(QStringLiteral("repair"), {QString::fromStdString(m_rt.id)}));
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QCOMPARE(m_server.stats("/rt/pkg.tar.gz").bodyBytes, std::uint64_t(0));
        r = cli(args(QStringLiteral("verify"), {QString::fromStdString(m_rt.id)}));
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));

        // gc: no profile uses the test runtime, so it goes (dry run first).
        r = cli(args(QStringLiteral("gc"), {QStringLiteral("--dry-run")}));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QStringLiteral("would remove crash-test-rt")));
        QVERIFY(fs::exists(m_prefix / m_rt.id));
        // Partial downloads: an old one goes, a recent one stays (it may resume).
        const fs::path partials = m_home / "cache" / "downloads" / "partial";
        fs::create_directories(partials);
        // Named as the fetcher names them (SHA-256 + .part); other names are not ours.
        const std::string oldPart = std::string(64, 'a') + ".part";
        const std::string freshPart = std::string(64, 'b') + ".part";
        std::ofstream(partials / oldPart) << "x";
        std::ofstream(partials / freshPart) << "x";
        fs::last_write_time(partials / oldPart,
                            fs::file_time_type::clock::now() - std::chrono::hours(24 * 30));
        r = cli(args(QStringLiteral("gc")));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!fs::exists(m_prefix / m_rt.id));
        QVERIFY2(r.out.contains(QString::fromStdString("removed partial download " + oldPart)),
                 qPrintable(r.out));
        QVERIFY(!fs::exists(partials / oldPart));
        QVERIFY(fs::exists(partials / freshPart));
        fs::remove(partials / freshPart);

        r = cli(args(QStringLiteral("install"), {QString::fromStdString(m_rt.id)}));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = cli(args(QStringLiteral("uninstall"), {QString::fromStdString(m_rt.id)}));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!fs::exists(m_prefix / m_rt.id));
        QVERIFY(!fs::exists(m_prefix / (m_rt.id + ".receipt.json")));
        r = cli(args(QStringLiteral("verify"), {QString::fromStdString(m_rt.id)}));
        QCOMPARE(r.code, 1);
        r = cli(args(QStringLiteral("install"), {QStringLiteral("no-such-thing")}));
        QCOMPARE(r.code, 2);
    }

    // A prefix root, a venvs folder and a logs folder full of the user's things with
    // runtime-like names: no verb changes one byte of them (issue: `uninstall photos`
    // deleted photos/2020/a.jpg).
    void userFilesAreSacred()
    {
        const fs::path root = toPath(m_tmp.path()) / "user-root";
        const fs::path venvs = m_home / "data" / "venvs";
        const fs::path logs = m_home / "logs";
        auto put = [](const fs::path& f, const std::string& text) {
            fs::create_directories(f.parent_path());
            std::ofstream(f, std::ios::binary) << text;
        };
        for (const auto& base : {root, venvs, logs}) {
            put(base / "photos" / "2020" / "a.jpg", "\xff\xd8 my holiday");
            put(base / m_rt.id / "notes.txt", "my own folder that has the runtime's name");
            put(base / ("." + std::string("staging-") + m_rt.id + "-12345678") / "keep.txt", "k");
            put(base / ".trash-photos-abcdef01" / "keep.txt", "k");
            put(base / (m_rt.id + ".receipt.json"), "{\"mine\": true}");
            put(base / "photos.receipt.json", "not a receipt");
            put(base / "sdnext-cpu-linux" / "bin" / "python", "#!/bin/sh");
        }
        fs::create_directories(m_home / "cache" / "downloads" / "partial");
        put(m_home / "cache" / "downloads" / "partial" / "holiday.part", "mine");
        fs::last_write_time(m_home / "cache" / "downloads" / "partial" / "holiday.part",
                            fs::file_time_type::clock::now() - std::chrono::hours(24 * 400));
        std::map<fs::path, std::map<std::string, std::string>> before;
        for (const auto& base : {root, venvs, logs, m_home / "cache"})
            before[base] = sp::test::treeContents(base);
        // StackPilot's own log (a line per verb run) is its file, not the user's.
        before[logs].erase("stackpilot.log");
        before[logs].erase("stackpilot.log.1");

        m_server.resetStats();
        const QString id = QString::fromStdString(m_rt.id);
        auto in = [&](const QString& verb, QStringList extra) {
            QStringList a{verb};
            a << extra << QStringLiteral("--prefix-root") << qpath(root);
            if (verb != QStringLiteral("uninstall") && verb != QStringLiteral("verify"))
                a << QStringLiteral("--catalog-dir") << qpath(m_catalog);
            return cli(a);
        };
        // Refused with exit 1, naming the path and what to do; nothing downloaded.
        for (const auto& verb :
             {QStringLiteral("install"), QStringLiteral("uninstall"), QStringLiteral("repair")}) {
            const auto r = in(verb, {id});
            QVERIFY2(r.code == 1, qPrintable(verb + QStringLiteral(": ") + r.err));
            QVERIFY2(r.err.contains(qpath(root / m_rt.id)) &&
                         r.err.contains(QStringLiteral("not created by StackPilot")),
                     qPrintable(r.err));
        }
        QCOMPARE(m_server.stats("/rt/pkg.tar.gz").bodyBytes, std::uint64_t(0));
        for (const auto& other : {QStringLiteral("photos"), QStringLiteral("sdnext-cpu-linux")})
            QCOMPARE(in(QStringLiteral("uninstall"), {other}).code, 1);
        QVERIFY(in(QStringLiteral("verify"), {}).code <= 1);
        QVERIFY(in(QStringLiteral("verify"), {id}).code == 1);
        QCOMPARE(in(QStringLiteral("gc"), {QStringLiteral("--dry-run")}).code, 0);
        QCOMPARE(in(QStringLiteral("gc"), {}).code, 0);
        // Bad numbers are refused before anything is touched, and never overflow.
        for (const char* days : {"-1", "inf", "nan", "1e308", "100000", "14.5", "", "x"})
            QCOMPARE(in(QStringLiteral("gc"),
                        {QStringLiteral("--partial-days"), QString::fromLatin1(days)})
                         .code,
                     2);
        for (const auto& [base, canaries] : before) {
            const auto changed = sp::test::changedCanaries(canaries, sp::test::treeContents(base));
            QVERIFY2(changed.empty(),
                     (base.string() + ": " + (changed.empty() ? "" : changed.front())).c_str());
            QVERIFY(canaries.size() >= 1);
        }
    }

    void twoProcessesOneRuntime()
    {
        fs::remove(cachedFile());
        m_server.resetStats();
        // A stalls mid-transfer, holding the lock for a while.
        m_server.setFault("/rt/pkg.tar.gz",
                          Fault::stallAfter(m_bytes.size() / 3, std::chrono::milliseconds(6000)));
        QProcess a;
        a.setProcessEnvironment(env());
        a.start(cliPath(), args(QStringLiteral("install"), {QString::fromStdString(m_rt.id)}));
        QVERIFY(a.waitForStarted());
        const fs::path lock = m_prefix / ".locks" / (m_rt.id + ".lock");
        for (int i = 0; i < 500 && !fs::exists(lock); ++i)
            QTest::qWait(20);
        QVERIFY(fs::exists(lock));
        // C refuses at once with --lock-timeout 0; B waits and finds it installed.
        auto c = cli(args(QStringLiteral("install"),
                          {QString::fromStdString(m_rt.id), QStringLiteral("--lock-timeout"),
                           QStringLiteral("0")}));
        QCOMPARE(c.code, 1);
        QVERIFY2(c.err.contains(QStringLiteral("another StackPilot process")), qPrintable(c.err));
        auto b = cli(args(QStringLiteral("install"), {QString::fromStdString(m_rt.id)}));
        QVERIFY(a.waitForFinished(60000));
        QVERIFY2(a.exitCode() == 0, a.readAllStandardError().constData());
        QVERIFY2(b.code == 0, qPrintable(b.err));
        QVERIFY2(b.err.contains(QStringLiteral("waiting for another StackPilot process")),
                 qPrintable(b.err));
        QVERIFY2(b.out.contains(QStringLiteral("already installed")), qPrintable(b.out));
        m_server.clearFaults();
        QVERIFY(cli(args(QStringLiteral("uninstall"), {QString::fromStdString(m_rt.id)})).code ==
                0);
    }

    void ctrlCCancelsCleanly()
    {
        fs::remove(cachedFile());
        PrefixStore store(m_prefix);
        if (store.isInstalled(m_rt.id))
            QVERIFY(store.remove(m_rt.id).ok());
        m_server.setFault("/rt/pkg.tar.gz",
                          Fault::stallAfter(m_bytes.size() / 2, std::chrono::milliseconds(4000)));
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(cliPath(), args(QStringLiteral("install"), {QString::fromStdString(m_rt.id)}));
        QVERIFY(p.waitForStarted());
        // The handler is in place before the lock is taken; then give the
        // download time to start.
        const fs::path lock = m_prefix / ".locks" / (m_rt.id + ".lock");
        for (int i = 0; i < 500 && !fs::exists(lock); ++i)
            QTest::qWait(20);
        QVERIFY(fs::exists(lock));
        QTest::qWait(300);
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(10000));
        m_server.clearFaults();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("cancel")), qPrintable(err));
        QVERIFY(!store.isInstalled(m_rt.id));
        for (const auto& e : fs::directory_iterator(m_prefix))
            QVERIFY2(e.path().filename().string().rfind(".staging", 0) != 0, "staging left over");
    }

    void killNineAtRandomPoints()
    {
        std::mt19937 rng(20261122);
        const std::uint64_t full = m_bytes.size();
        int resumed = 0, killedInstalled = 0, killedAbsent = 0;
        const int trials = 20;
        for (int t = 0; t < trials; ++t) {
            PrefixStore store(m_prefix);
            if (store.isInstalled(m_rt.id))
                QVERIFY(store.remove(m_rt.id).ok());
            fs::remove(cachedFile()); // force the network; a partial file may stay
            m_server.clearFaults();
            m_server.resetStats();
            const bool stall = t % 2 == 0;
            if (stall)
                m_server.setFault("/rt/pkg.tar.gz",
                                  Fault::stallAfter(full / 10 + rng() % (full * 8 / 10),
                                                    std::chrono::milliseconds(5000)));
            QProcess p;
            p.setProcessEnvironment(env());
            p.start(cliPath(), args(QStringLiteral("install"), {QString::fromStdString(m_rt.id)}));
            QVERIFY(p.waitForStarted());
            const int delay = stall ? 250 + int(rng() % 900) : int(rng() % 700);
            QTest::qWait(delay);
            p.kill(); // SIGKILL
            p.waitForFinished();
            checkAbsentOrComplete("after kill in trial " + std::to_string(t));
            (store.isInstalled(m_rt.id) ? killedInstalled : killedAbsent)++;

            m_server.clearFaults();
            m_server.resetStats();
            auto r = cli(args(QStringLiteral("install"), {QString::fromStdString(m_rt.id)}));
            QVERIFY2(r.code == 0, qPrintable(QStringLiteral("trial %1: ").arg(t) + r.err));
            checkAbsentOrComplete("after rerun in trial " + std::to_string(t));
            QVERIFY(store.isInstalled(m_rt.id));
            const auto sent = m_server.stats("/rt/pkg.tar.gz").bodyBytes;
            if (sent > 0 && sent < full)
                ++resumed;
            for (const auto& e : fs::directory_iterator(m_prefix))
                QVERIFY2(e.path().filename().string().rfind(".staging", 0) != 0,
                         "staging left over");
            qInfo("trial %2d: %s, killed after %4d ms -> %s; rerun transferred %llu of %llu bytes",
                  t, stall ? "stalled" : "plain  ", delay,
                  killedInstalled + killedAbsent > 0 && store.isInstalled(m_rt.id) ? "ok" : "?",
                  static_cast<unsigned long long>(sent), static_cast<unsigned long long>(full));
        }
        qInfo("kill -9 trials: %d, runtime absent after kill: %d, complete after kill: %d, "
              "reruns that resumed a partial download: %d",
              trials, killedAbsent, killedInstalled, resumed);
        QVERIFY2(resumed >= 1, "no rerun resumed a partial download");
    }
};

QTEST_GUILESS_MAIN(TestInstallCli)
#include "test_install_cli.moc"
