// Issue 20 (second hostile pass), items 1, 3, 4 and 8b, as the attacks were made: the
// real stackpilot-cli launches a shell workload with a child and an escapee in a session
// of its own, and then the launcher's process group is SIGKILLed by `timeout`, the
// workload kills its parent, a second launch of the profile starts, SIGTERM arrives
// while nobody reads stdout, or the launcher is killed. No process of the tree may live
// on, and what is left on disk is cleaned or closed.

#include "hostile_support.h"

#include <QElapsedTimer>
#include <QTest>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace sp::hostile;

namespace {

// A child, an escapee with a session of its own, then the shell itself: three pids.
const char* const kTree = "sleep 300 &\necho $! >> \"$PIDS\"\n"
                          "setsid sh -c 'echo $$ >> \"$PIDS\"; exec sleep 301' &\n"
                          "echo $$ >> \"$PIDS\"\n";

std::string survivors(const std::vector<long>& pids)
{
    std::string out;
    for (long p : pids)
        if (alive(p))
            out += " " + std::to_string(p);
    return out;
}

bool treeStarted(const ShellWorld& w)
{
    return pollUntil([&] { return readPids(w.pids).size() == 3; }, 15000);
}

// What a launch record says, by key.
nlohmann::json record(const fs::path& f)
{
    return nlohmann::json::parse(readAll(f), nullptr, false);
}

std::vector<fs::path> stackpilotTempFolders(const fs::path& tmp)
{
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(tmp))
        if (e.path().filename().string().rfind("stackpilot", 0) == 0)
            out.push_back(e.path());
    return out;
}

// A launcher spawned with its stdout a pipe nobody reads; killed and reaped at the end.
struct BlockedLauncher
{
    pid_t pid = 0;
    int readEnd = -1;
    BlockedLauncher(const ShellWorld& w)
    {
        int fds[2];
        if (::pipe(fds) != 0)
            return;
        readEnd = fds[0];
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addclose(&fa, fds[0]);
        std::vector<std::string> args{cliPath().toStdString()};
        for (const QString& a : w.launchArgs())
            args.push_back(a.toStdString());
        std::vector<char*> argv;
        for (auto& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        std::vector<std::string> env;
        for (const QString& kv : w.env.toStringList())
            env.push_back(kv.toStdString());
        std::vector<char*> envp;
        for (auto& kv : env)
            envp.push_back(kv.data());
        envp.push_back(nullptr);
        if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()) != 0)
            pid = 0;
        posix_spawn_file_actions_destroy(&fa);
        ::close(fds[1]);
    }
    bool exited()
    {
        if (pid <= 0 || ::waitpid(pid, nullptr, WNOHANG) != pid)
            return false;
        pid = 0;
        return true;
    }
    ~BlockedLauncher()
    {
        if (pid > 0 && ::kill(pid, SIGKILL) == 0)
            ::waitpid(pid, nullptr, 0);
        if (readEnd >= 0)
            ::close(readEnd);
    }
};

} // namespace

class Pass2Containment : public QObject
{
    Q_OBJECT

    // Launches a tree, kills its launcher with `sig`, and checks what is left: no process,
    // no temporary folder, and a record the next launch closes.
    void killTheLauncher(int sig)
    {
        ShellWorld w;
        const fs::path tmp = w.root / "tmp";
        fs::create_directories(tmp);
        w.env.insert(QStringLiteral("TMPDIR"), q(tmp));
        w.write(std::string(kTree) + "sleep 302\n");
        QProcess launcher;
        launcher.setProcessEnvironment(w.env);
        launcher.start(cliPath(), w.launchArgs({QStringLiteral("--json")}));
        QVERIFY(launcher.waitForStarted());
        QVERIFY2(treeStarted(w), "the workload never started");
        const std::vector<long> pids = readPids(w.pids);
        QVERIFY(!stackpilotTempFolders(tmp).empty()); // the status folder is there
        ::kill(static_cast<pid_t>(launcher.processId()), sig);
        QVERIFY(launcher.waitForFinished(10000));
        QVERIFY2(pollUntil([&] { return survivors(pids).empty(); }, 5000),
                 ("alive 5 s after the launcher died:" + survivors(pids)).c_str());
        QElapsedTimer t;
        t.start();
        const bool cleaned = pollUntil([&] { return stackpilotTempFolders(tmp).empty(); }, 5000);
        std::string left;
        for (const auto& e : fs::recursive_directory_iterator(tmp))
            left += " " + fs::relative(e.path(), tmp).string() +
                    (e.is_regular_file() ? " holding " + readAll(e.path()) : "");
        qInfo("signal %d: the launcher's temporary folder went %lld ms after the tree", sig,
              t.elapsed());
        QVERIFY2(cleaned, ("signal " + std::to_string(sig) +
                           ": the launcher's temporary folder outlived it by 5 s:" + left)
                              .c_str());
        const auto records = w.launchFiles(".json");
        QCOMPARE(records.size(), std::size_t{1});

        // The next launch closes a record left open.
        w.write("exit 0");
        const Run next = w.cli(w.launchArgs({QStringLiteral("--json")}));
        QVERIFY2(next.rc == 0, next.err.c_str());
        const auto closed = record(records.front());
        QVERIFY2(!closed.value("ended", std::string()).empty(), closed.dump().c_str());
        if (sig == SIGKILL)
            QVERIFY2(closed["exit"].value("text", "").rfind("ended abnormally", 0) == 0,
                     closed.dump().c_str());
    }

private slots:
    // `timeout -s KILL 3 stackpilot-cli launch P`: timeout SIGKILLs the whole process
    // group it made, launcher and helper at once. The workload lived on under PID 1.
    void pass2_sigkillOfTheLauncherGroupLeavesNoWorkload()
    {
        ShellWorld w;
        w.write(std::string(kTree) + "sleep 302\n");
        QStringList args{QStringLiteral("-s"), QStringLiteral("KILL"), QStringLiteral("6"),
                         cliPath()};
        QProcess timeout;
        timeout.setProcessEnvironment(w.env);
        timeout.start(QStringLiteral("timeout"), args + w.launchArgs());
        QVERIFY(timeout.waitForStarted());
        QVERIFY2(treeStarted(w), "the workload never started");
        const std::vector<long> pids = readPids(w.pids);
        // Killed at 6 s (3 s in the report; a loaded CI machine may need more to start).
        QVERIFY(timeout.waitForFinished(20000));
        QElapsedTimer t;
        t.start();
        const bool gone = pollUntil([&] { return survivors(pids).empty(); }, 5000);
        QVERIFY2(gone, ("alive 5 s after the group's SIGKILL:" + survivors(pids)).c_str());
        qInfo("the group's SIGKILL: 0 of 3 workload processes left after %lld ms", t.elapsed());
    }

    // A workload that SIGKILLs its parent (the helper) lived on under PID 1, and the
    // launcher said "exited with code 9".
    void pass2_workloadKillingItsParentLeavesNoWorkload()
    {
        ShellWorld w;
        w.write(std::string(kTree) + "sleep 0.2\nkill -9 $PPID\nsleep 302\n");
        const Run r = w.cli(w.launchArgs({QStringLiteral("--json")}), 30000);
        QVERIFY2(r.rc != -2, "the launcher hung after the helper was killed");
        const std::vector<long> pids = readPids(w.pids);
        QCOMPARE(pids.size(), std::size_t{3});
        QVERIFY2(pollUntil([&] { return survivors(pids).empty(); }, 5000),
                 ("alive 5 s after the helper was killed:" + survivors(pids)).c_str());
        // The truth, in a whole sentence (issue 35 item 15 reworded it).
        QVERIFY2(r.out.find("\"stopped_by\":\"helper-killed\"") != std::string::npos &&
                     r.out.find("its containment helper (stackpilot-run) was killed") !=
                         std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find("exited with code 9") == std::string::npos, r.out.c_str());
    }

    // Two launches of one profile at once both ran its setup steps, interleaved.
    void pass2_aSecondLaunchOfAProfileIsRefused()
    {
        ShellWorld w;
        const std::string steps = (w.work / "steps.txt").string();
        w.write("exit 0", {{"steps", {{"sh", "-c", "echo ran >> '" + steps + "'; sleep 3"}}}});
        QProcess first;
        first.setProcessEnvironment(w.env);
        first.start(cliPath(), w.launchArgs({QStringLiteral("--json")}));
        QVERIFY(first.waitForStarted());
        QVERIFY2(pollUntil([&] { return fs::exists(steps); }, 15000), "the first step never ran");
        const Run second = w.cli(w.launchArgs({QStringLiteral("--json")}), 15000);
        QCOMPARE(second.rc, 1);
        const std::string holder = "profile hostile-sh is already running (process " +
                                   std::to_string(first.processId()) + ")";
        QVERIFY2(second.err.find(holder) != std::string::npos, second.err.c_str());
        QVERIFY2(second.out.find("\"event\":\"step\"") == std::string::npos, second.out.c_str());
        QVERIFY(first.waitForFinished(30000));
        QCOMPARE(readAll(steps), std::string("ran\n")); // the step ran once
    }

    // With the launcher's stdout blocked (`launch … | sleep 25`), SIGTERM and SIGINT were
    // ignored for 3–10 s.
    void pass2_signalsAreHonouredWhileStdoutIsBlocked()
    {
        for (int sig : {SIGTERM, SIGINT}) {
            ShellWorld w;
            w.write(std::string(kTree) + "exec yes 'a workload that never stops talking'\n");
            BlockedLauncher launcher(w);
            QVERIFY(launcher.pid > 0);
            QVERIFY2(treeStarted(w), "the workload never started");
            const std::vector<long> pids = readPids(w.pids);
            QTest::qWait(500); // the pipe is full long before
            QElapsedTimer t;
            t.start();
            ::kill(launcher.pid, sig);
            // 1 s is the promise; 2 s leaves a loaded CI machine room, the old 3–10 s none.
            const bool gone = pollUntil([&] { return survivors(pids).empty(); }, 2000);
            const qint64 treeMs = t.elapsed();
            const bool exited = pollUntil([&] { return launcher.exited(); }, 5000);
            qInfo("signal %d with stdout blocked: tree gone after %lld ms", sig, treeMs);
            QVERIFY2(gone, ("alive 2 s after the signal:" + survivors(pids)).c_str());
            QVERIFY2(exited, "the launcher did not exit");
        }
    }

    // kill -9 or SIGHUP of the launcher left $TMPDIR/stackpilot-*/status.json and a
    // launch record with no end. The helper decides between cleaning and reporting in a
    // race with the launcher's death, so each signal is tried three times.
    void pass2_aKilledLauncherLeavesNoTempFolderAndNoOpenRecord()
    {
        for (int round = 0; round < 3; ++round)
            for (int sig : {SIGKILL, SIGHUP}) {
                killTheLauncher(sig);
                if (QTest::currentTestFailed())
                    return;
            }
    }
};

QTEST_GUILESS_MAIN(Pass2Containment)
#include "pass2_containment.moc"
