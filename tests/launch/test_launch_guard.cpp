// The launcher's guards, with the real stackpilot-cli, the real helper and the
// stand-in workload: one launch per profile at a time (the second is refused before
// any setup step and told who holds the profile; so is a repair of it), signals honoured within 1 s
// while nobody reads stdout, a record left without an end by a killed launcher closed at the next
// launch, no secret in the launch log, the "steps skipped" line, and a caller's environment value
// that is not UTF-8 reaching the workload unchanged.

#include "core/launch/launch_log.h"
#include "launch_fixture.h"
#include "support/poll_until.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTest>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace sp;
using namespace sp::test;

namespace {

QString cliPath()
{
    return QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli");
}

std::vector<std::string> cliArgs(const StandinWorld& w, const std::string& profile, bool json)
{
    std::vector<std::string> a = {"launch",        profile,
                                  "--hardware",    w.snapshot.string(),
                                  "--catalog-dir", w.catalogDir.string()};
    if (json)
        a.push_back("--json");
    return a;
}

QStringList toQt(const std::vector<std::string>& v)
{
    QStringList out;
    for (const auto& s : v)
        out << QString::fromStdString(s);
    return out;
}

void useHome(const StandinWorld& w)
{
    qputenv("STACKPILOT_HOME", QByteArray::fromStdString((w.root / "home").string()));
}

int lineCount(const fs::path& p)
{
    std::ifstream in(p);
    int n = 0;
    for (std::string line; std::getline(in, line);)
        ++n;
    return n;
}

// The launch records under `root` of `profile`.
std::vector<fs::path> recordsOf(const fs::path& root, const std::string& profile)
{
    std::vector<fs::path> out;
    for (const auto& e : fs::recursive_directory_iterator(root))
        if (e.path().extension() == ".json" && e.path().parent_path().filename() == profile)
            out.push_back(e.path());
    return out;
}

// A spawned launcher, killed and reaped when a check fails before it ended.
struct Reaped
{
    pid_t pid = 0;
    ~Reaped()
    {
        if (pid > 0 && ::kill(pid, SIGKILL) == 0)
            ::waitpid(pid, nullptr, 0);
    }
};

} // namespace

class TestLaunchGuard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qputenv("STACKPILOT_RUN", STACKPILOT_BINARY_DIR "/bin/stackpilot-run"); }

    void aSecondLaunchOfAProfileIsRefusedBeforeItsSteps()
    {
        StandinWorld w;
        useHome(w);
        const std::string steps = w.stepsFile().string();
        w.write(50, {{"sh", "-c", "echo ran >> '" + steps + "'; sleep 3"}});
        QProcess first;
        first.start(cliPath(), toQt(cliArgs(w, "standin-exit-early", true)));
        QVERIFY(first.waitForStarted());
        QVERIFY2(pollUntil([&] { return lineCount(steps) == 1; }, 10000), "the step never ran");
        QProcess second;
        QElapsedTimer t;
        t.start();
        second.start(cliPath(), toQt(cliArgs(w, "standin-exit-early", true)));
        QVERIFY(second.waitForFinished(10000));
        const qint64 refusedMs = t.elapsed();
        const QByteArray err = second.readAllStandardError();
        const QByteArray out = second.readAllStandardOutput();
        QCOMPARE(second.exitCode(), 1);
        const QByteArray expected = "profile standin-exit-early is already running (process " +
                                    QByteArray::number(first.processId()) + ")";
        QVERIFY2(err.contains(expected), err.constData());
        QVERIFY2(!out.contains("\"event\":\"step\""), out.constData());
        QVERIFY(first.waitForFinished(30000));
        QCOMPARE(lineCount(steps), 1); // the steps ran once
        qInfo("second launch refused in %lld ms while the first ran its step", refusedMs);

        // Once the first has ended, the profile is free; its steps are done before.
        QProcess third;
        third.start(cliPath(), toQt(cliArgs(w, "standin-exit-early", false)));
        QVERIFY(third.waitForFinished(30000));
        const QByteArray plain = third.readAllStandardOutput();
        QVERIFY2(plain.contains("==> Setup steps skipped: done before"), plain.constData());
        QVERIFY2(!plain.contains("Step 0/"), plain.constData());
        QCOMPARE(lineCount(steps), 1);
    }

    // repair PROFILE removes the venv and the step receipt: not under a running launch.
    void aRepairOfALaunchedProfileIsRefused()
    {
        StandinWorld w;
        useHome(w);
        const std::string steps = w.stepsFile().string();
        w.write(50, {{"sh", "-c", "echo ran >> '" + steps + "'; sleep 3"}});
        QProcess first;
        first.start(cliPath(), toQt(cliArgs(w, "standin-exit-early", true)));
        QVERIFY(first.waitForStarted());
        QVERIFY2(pollUntil([&] { return lineCount(steps) == 1; }, 10000), "the step never ran");
        const QStringList repairArgs{QStringLiteral("repair"), QStringLiteral("standin-exit-early"),
                                     QStringLiteral("--catalog-dir"),
                                     QString::fromStdString(w.catalogDir.string())};
        QProcess repair;
        repair.start(cliPath(), repairArgs);
        QVERIFY(repair.waitForFinished(10000));
        const QByteArray err = repair.readAllStandardError();
        QCOMPARE(repair.exitCode(), 1);
        const QByteArray expected = "profile standin-exit-early is already running (process " +
                                    QByteArray::number(first.processId()) + ")";
        QVERIFY2(err.contains(expected), err.constData());
        QVERIFY(first.waitForFinished(30000));
        // Nothing was reset: the next launch finds its steps done.
        QProcess again;
        again.start(cliPath(), toQt(cliArgs(w, "standin-exit-early", false)));
        QVERIFY(again.waitForFinished(30000));
        const QByteArray plain = again.readAllStandardOutput();
        QVERIFY2(plain.contains("==> Setup steps skipped: done before"), plain.constData());
        // Once the profile is free the repair runs, and the steps run again after it.
        repair.start(cliPath(), repairArgs);
        QVERIFY(repair.waitForFinished(10000));
        QVERIFY2(repair.exitCode() == 0, repair.readAllStandardError().constData());
        again.start(cliPath(), toQt(cliArgs(w, "standin-exit-early", false)));
        QVERIFY(again.waitForFinished(30000));
        QCOMPARE(lineCount(steps), 2);
    }

    // The launch log is redacted as it is written: the values of the caller's
    // secret-named variables (however short) and secret shapes never reach the disk.
    void theLaunchLogHoldsNoSecret()
    {
        StandinWorld w;
        useHome(w);
        w.write(50, {{"sh", "-c",
                      "echo \"token $HF_TOKEN\"; echo \"db $DB_PASS\"; "
                      "echo https://hooks.slack.com/services/T0AB/B0CD/Zq9XwHook7"}});
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HF_TOKEN"), QStringLiteral("hf_Sh0rt9"));
        env.insert(QStringLiteral("DB_PASS"), QStringLiteral("pa55w0rd"));
        cli.setProcessEnvironment(env);
        cli.start(cliPath(), toQt(cliArgs(w, "standin-exit-early", true)));
        QVERIFY(cli.waitForFinished(30000));
        std::vector<fs::path> logs;
        for (const auto& e : fs::recursive_directory_iterator(w.root / "home"))
            if (e.path().extension() == ".log" &&
                e.path().parent_path().filename() == "standin-exit-early")
                logs.push_back(e.path());
        QCOMPARE(logs.size(), std::size_t(1));
        std::ifstream in(logs.front(), std::ios::binary);
        const std::string log{std::istreambuf_iterator<char>(in), {}};
        QVERIFY2(log.find("token <redacted:") != std::string::npos, log.c_str());
        QVERIFY2(log.find("db <redacted:") != std::string::npos, log.c_str());
        for (const char* secret : {"hf_Sh0rt9", "pa55w0rd", "Zq9XwHook7"})
            QVERIFY2(log.find(secret) == std::string::npos, log.c_str());
    }

    void sigtermStopsTheTreeWithinOneSecondWhileStdoutIsBlocked()
    {
        for (int sig : {SIGTERM, SIGINT}) {
            StandinWorld w;
            useHome(w);
            w.write(60000);
            int pipeFds[2];
            QVERIFY(::pipe(pipeFds) == 0); // nobody reads pipeFds[0]
            posix_spawn_file_actions_t fa;
            posix_spawn_file_actions_init(&fa);
            posix_spawn_file_actions_adddup2(&fa, pipeFds[1], 1);
            posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
            posix_spawn_file_actions_addclose(&fa, pipeFds[0]);
            std::vector<std::string> args = cliArgs(w, "standin-serve", false);
            args.insert(args.begin(), cliPath().toStdString());
            for (const char* a : {"--", "--chatty", "20000"})
                args.push_back(a);
            std::vector<char*> argv;
            for (auto& a : args)
                argv.push_back(a.data());
            argv.push_back(nullptr);
            pid_t cli = 0;
            QCOMPARE(posix_spawn(&cli, argv[0], &fa, nullptr, argv.data(), environ), 0);
            Reaped reaped{cli};
            posix_spawn_file_actions_destroy(&fa);
            ::close(pipeFds[1]);
            // 20,000 lines fill the pipe long before the stand-in writes its PIDs.
            QVERIFY2(w.waitForPids(15000), "the launcher stopped reading the workload");
            const std::vector<long> pids = w.pids();
            QElapsedTimer t;
            t.start();
            ::kill(cli, sig);
            const bool gone = allGone(pids, 1000);
            const qint64 treeMs = t.elapsed();
            QVERIFY2(pollUntil([&] { return ::waitpid(cli, nullptr, WNOHANG) == cli; }, 5000),
                     "the launcher did not exit");
            reaped.pid = 0;
            const qint64 exitMs = t.elapsed();
            ::close(pipeFds[0]);
            qInfo("signal %d: tree gone after %lld ms, launcher exited after %lld ms", sig, treeMs,
                  exitMs);
            QVERIFY2(gone, "the tree outlived the signal by 1 s");
        }
    }

    void aRecordLeftOpenByAKilledLauncherIsClosedAtTheNextLaunch()
    {
        StandinWorld w;
        useHome(w);
        w.write(60000);
        QProcess killed;
        killed.start(cliPath(), toQt(cliArgs(w, "standin-serve", true)));
        QVERIFY(killed.waitForStarted() && w.waitForPids());
        const std::vector<long> pids = w.pids();
        ::kill(static_cast<pid_t>(killed.processId()), SIGKILL);
        QVERIFY(killed.waitForFinished(5000));
        QVERIFY(allGone(pids, 5000));
        const auto records = recordsOf(w.root / "home", "standin-serve");
        QCOMPARE(records.size(), std::size_t(1));
        QVERIFY(readLaunchRecord(records.front())->ended.empty());

        w.write(50);
        QProcess next;
        next.start(cliPath(), toQt(cliArgs(w, "standin-exit-early", true)));
        QVERIFY(next.waitForFinished(30000));
        const auto closed = readLaunchRecord(records.front());
        QVERIFY(closed);
        QVERIFY(!closed->ended.empty());
        QCOMPARE(closed->stoppedBy, std::string("launcher-gone"));
        QVERIFY2(closed->exit.value("text", "").rfind("ended abnormally", 0) == 0,
                 closed->exit.dump().c_str());
        QCOMPARE(closed->exit.value("abnormal", false), true);
    }

    void aValueThatIsNotUtf8ReachesTheWorkloadByteForByte()
    {
        StandinWorld w;
        useHome(w);
        w.write(50);
        const QByteArray raw("caf\xe9 \xff\xfe latin-1", 15);
        qputenv("STANDIN_RAW_VALUE", raw);
        QProcess cli; // inherits this process's environment as bytes
        cli.start(cliPath(), toQt(cliArgs(w, "standin-exit-early", true)));
        QVERIFY(cli.waitForFinished(30000));
        qunsetenv("STANDIN_RAW_VALUE");
        const auto seen = w.seenEnv();
        QVERIFY(seen.count("STANDIN_RAW_VALUE"));
        QCOMPARE(QByteArray::fromStdString(seen.at("STANDIN_RAW_VALUE")).toHex(), raw.toHex());

        // The dry run's JSON cannot hold those bytes: it shows U+FFFD and does not fail.
        qputenv("STANDIN_RAW_VALUE", raw);
        QProcess dry;
        QStringList args = toQt(cliArgs(w, "standin-exit-early", true));
        args << QStringLiteral("--dry-run");
        dry.start(cliPath(), args);
        QVERIFY(dry.waitForFinished(30000));
        qunsetenv("STANDIN_RAW_VALUE");
        QCOMPARE(dry.exitCode(), 0);
        QVERIFY(dry.readAllStandardOutput().contains("caf\xef\xbf\xbd"));
    }
};

QTEST_GUILESS_MAIN(TestLaunchGuard)
#include "test_launch_guard.moc"
