// Containment against every way a launcher dies, with real processes: a
// stand-in launcher (a forked child of this test, the leader of its own process group,
// holding the helper's stdin as StackPilot does) starts stackpilot-run, which starts a
// shell workload with a child and an escapee in a session of its own. Then the
// launcher is killed, its whole process group is killed or hung up, or the workload
// kills its own parent, or the helper itself. No process of the tree may live 5 s later.
#include "core/launch/contained_process.h"
#include "core/launch/tree_kill_linux.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

const char* const kHelper = STACKPILOT_BINARY_DIR "/bin/stackpilot-run";

// The workload: a child, an escapee (its own session; not with ESCAPE=no), then itself;
// each writes its pid, and its cgroup goes to $PIDS.cgroup. In mode "killparent" it
// then kills its parent, in mode "killhelper" its parent's parent (stackpilot-run's
// outer half), as a hostile workload would.
const char* const kScript = R"(#!/bin/sh
sleep 300 &
echo $! >> "$PIDS"
[ "$ESCAPE" = no ] || setsid sh -c 'echo $$ >> "$PIDS"; exec sleep 301' &
echo $$ >> "$PIDS"
grep '^0::' /proc/self/cgroup > "$PIDS.cgroup"
sleep 0.2
[ "$MODE" = killparent ] && kill -9 $PPID
[ "$MODE" = killhelper ] && kill -9 $(cut -d' ' -f4 /proc/$PPID/stat)
sleep 302
)";

// 'Z' (a zombie nobody reaped yet) counts as gone.
bool alive(long pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line))
        return false;
    const auto close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

long parentOf(long pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    if (close == std::string::npos)
        return 0;
    std::istringstream rest(line.substr(close + 2));
    char state = 0;
    long ppid = 0;
    rest >> state >> ppid;
    return ppid;
}

long childOf(long parent)
{
    for (const auto& e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") == std::string::npos &&
            parentOf(std::stol(name)) == parent)
            return std::stol(name);
    }
    return 0;
}

// Milliseconds until every pid is gone, or -1 after `ms`.
long long msUntilGone(const std::vector<long>& pids, int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        if (std::none_of(pids.begin(), pids.end(), alive))
            return t.elapsed();
        QTest::qWait(20);
    }
    return -1;
}

struct Tree
{
    QTemporaryDir dir;
    std::string pidFile = dir.filePath(QStringLiteral("pids")).toStdString();
    // In a folder named as the launcher's temporary folders are.
    std::string statusDir = dir.filePath(QStringLiteral("stackpilot-cli-Ab12Cd")).toStdString();
    std::string statusFile = statusDir + "/status.json";
    std::string script = dir.filePath(QStringLiteral("workload.sh")).toStdString();
    pid_t launcher = -1;

    explicit Tree(const std::string& mode)
    {
        std::ofstream(script) << kScript;
        fs::create_directories(statusDir);
        const std::string pids = "PIDS=" + pidFile, m = "MODE=" + mode;
        const char* env[] = {pids.c_str(), m.c_str(), "PATH=/usr/bin:/bin", nullptr};
        const char* argv[] = {kHelper, "--grace-ms", "1000",         "--status", statusFile.c_str(),
                              "--",    "/bin/sh",    script.c_str(), nullptr};
        launcher = fork();
        if (launcher == 0) {
            // The stand-in launcher: its own process group, the helper's stdin a pipe.
            // It dies of the signals it gets, not in QTest's crash handler.
            for (int sig : {SIGHUP, SIGTERM, SIGINT})
                std::signal(sig, SIG_DFL);
            setpgid(0, 0);
            int p[2];
            if (pipe(p) != 0)
                _exit(1);
            if (fork() == 0) {
                dup2(p[0], STDIN_FILENO);
                close(p[0]);
                close(p[1]);
                execve(kHelper, const_cast<char* const*>(argv), const_cast<char* const*>(env));
                _exit(127);
            }
            close(p[0]);
            for (;;)
                pause();
        }
    }
    ~Tree()
    {
        ::kill(launcher, SIGKILL);
        waitpid(launcher, nullptr, 0);
    }

    // The workload's three pids and the helper's, once all are written.
    std::vector<long> pids() const
    {
        for (int i = 0; i < 250; ++i) {
            std::ifstream in(pidFile);
            std::vector<long> out;
            for (long p; in >> p;)
                out.push_back(p);
            if (out.size() >= 3) {
                out.push_back(childOf(launcher));
                return out;
            }
            QTest::qWait(20);
        }
        return {};
    }

    std::string status() const
    {
        std::ifstream in(statusFile);
        return {std::istreambuf_iterator<char>(in), {}};
    }
};

// Whether this process may make a cgroup v2 (root, or a delegated subtree).
bool cgroupPossible()
{
    std::string why;
    const std::string dir = sp::tree::createTreeCgroup(why);
    if (dir.empty())
        qInfo("no cgroup v2 here: %s", why.c_str());
    return !dir.empty() && sp::tree::removeCgroup(dir, 0);
}

} // namespace

class TestContainment : public QObject
{
    Q_OBJECT

private:
    // Starts a tree, does `what` to it, and checks that nothing of it lives 5 s later.
    void noSurvivor(const char* what, const std::function<void(Tree&)>& act,
                    const std::string& mode = "serve",
                    const std::function<void(const Tree&)>& after = {})
    {
        Tree t(mode);
        std::vector<long> pids = t.pids();
        QVERIFY2(pids.size() == 4 && pids.back() > 0, "the tree did not start");
        act(t);
        const long long ms = msUntilGone(pids, 5000);
        std::string survivors;
        for (long p : pids)
            if (alive(p))
                survivors += " " + std::to_string(p);
        QVERIFY2(ms >= 0, (std::string(what) + ": survivors after 5 s:" + survivors).c_str());
        qInfo("%s: 0 of %zu processes left after %lld ms", what, pids.size(), ms);
        if (after)
            after(t);
    }

    // The workload kills the helper itself: the inner parent dies with it, the tree is
    // re-parented to init, and the launcher (ContainedProcess) must kill it: through
    // the helper's cgroup, or without one through the workload's session, which an
    // escapee with a session of its own leaves (so that case plants none).
    void helperKilled(bool cgroup)
    {
        qputenv("STACKPILOT_RUN", kHelper);
        QTemporaryDir dir;
        const std::string pidFile = dir.filePath(QStringLiteral("pids")).toStdString();
        const std::string script = dir.filePath(QStringLiteral("w.sh")).toStdString();
        std::ofstream(script) << kScript;
        sp::ContainedProcess p;
        QSignalSpy done(&p, &sp::ContainedProcess::finished);
        sp::ContainedProcess::Spec spec{{"/bin/sh", script},
                                        {{"PIDS", pidFile},
                                         {"MODE", "killhelper"},
                                         {"ESCAPE", cgroup ? "yes" : "no"},
                                         {"PATH", "/usr/bin:/bin"}},
                                        dir.path().toStdString(),
                                        1000};
        spec.cgroup = cgroup;
        p.start(spec);
        QVERIFY(done.wait(10000));
        const auto end = done.front().front().value<sp::ProcessEnd>();
        QCOMPARE(end.stoppedBy, std::string("helper-killed"));
        QCOMPARE(end.text,
                 std::string("was stopped: its containment helper (stackpilot-run) was killed"));
        std::ifstream in(pidFile);
        std::vector<long> pids;
        for (long pid; in >> pid;)
            pids.push_back(pid);
        QCOMPARE(pids.size(), std::size_t{cgroup ? 3u : 2u});
        const long long ms = msUntilGone(pids, 5000);
        std::string survivors;
        for (long pid : pids)
            if (alive(pid))
                survivors += " " + std::to_string(pid);
        QVERIFY2(ms >= 0, ("survivors after 5 s:" + survivors).c_str());
        std::string line;
        std::getline(std::ifstream(pidFile + ".cgroup"), line);
        const std::size_t slash = line.rfind('/');
        const bool inOwn =
            slash != std::string::npos && line.compare(slash + 1, 15, "stackpilot-run.") == 0;
        qInfo("the workload's cgroup: %s; 0 of %zu processes left after %lld ms", line.c_str(),
              pids.size(), ms);
        if (!cgroup || !cgroupPossible()) {
            QVERIFY2(!inOwn, line.c_str());
            return;
        }
        QVERIFY2(inOwn, line.c_str());
        // The launcher removed the helper's cgroup, under the helper's (our) own.
        const std::string made = sp::tree::ownCgroupDir() + line.substr(slash);
        QTRY_VERIFY_WITH_TIMEOUT(!fs::exists(made), 3000);
    }

private slots:
    void launcherKilled()
    {
        noSurvivor(
            "SIGKILL of the launcher", [](Tree& t) { ::kill(t.launcher, SIGKILL); }, "serve",
            [](const Tree& t) {
                // Nobody is left to read the status: its folder goes with the tree, after
                // the launcher-gone grace (1 s) and the kill; 5 s leaves room for a loaded
                // 2-core CI machine (2 s failed there once).
                QTRY_VERIFY_WITH_TIMEOUT(!fs::exists(t.statusDir), 5000);
            });
    }

    // timeout -s KILL, a service manager: the whole group at once.
    void launchersProcessGroupKilled()
    {
        noSurvivor("SIGKILL of the launcher's process group",
                   [](Tree& t) { ::kill(-t.launcher, SIGKILL); });
    }

    // A closed terminal hangs up its foreground process group.
    void launchersProcessGroupHungUp()
    {
        noSurvivor("SIGHUP of the launcher's process group",
                   [](Tree& t) { ::kill(-t.launcher, SIGHUP); });
    }

    void workloadKillsItsParent()
    {
        noSurvivor(
            "the workload kills its parent", [](Tree&) {}, "killparent",
            [](const Tree& t) {
                const std::string status = t.status();
                QVERIFY2(status.find("\"stopped_by\": \"helper-killed\"") != std::string::npos ||
                             status.find("\"stopped_by\":\"helper-killed\"") != std::string::npos,
                         status.c_str());
            });
    }

    // A workload blocked writing to a stderr pipe nobody drains, deaf to SIGTERM: Stop
    // still ends it, with SIGKILL once the grace period is over.
    void stopEndsATreeBlockedOnAFullStderrPipe()
    {
        QTemporaryDir dir;
        const std::string pidFile = dir.filePath(QStringLiteral("pids")).toStdString();
        const std::string script = dir.filePath(QStringLiteral("w.sh")).toStdString();
        std::ofstream(script) << "trap '' TERM\necho $$ >> \"$PIDS\"\n"
                                 "yes 0123456789abcdef0123456789abcdef >&2 &\n"
                                 "echo $! >> \"$PIDS\"\nwait\n";
        const std::string pids = "PIDS=" + pidFile;
        const char* env[] = {pids.c_str(), "PATH=/usr/bin:/bin", nullptr};
        const char* argv[] = {kHelper,   "--grace-ms",   "1000", "--",
                              "/bin/sh", script.c_str(), nullptr};
        int control[2], err[2];
        QVERIFY(pipe2(control, O_CLOEXEC) == 0 && pipe2(err, O_CLOEXEC) == 0);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, control[0], STDIN_FILENO);
        posix_spawn_file_actions_adddup2(&fa, err[1], STDERR_FILENO);
        pid_t helper = 0;
        QCOMPARE(posix_spawn(&helper, kHelper, &fa, nullptr, const_cast<char* const*>(argv),
                             const_cast<char* const*>(env)),
                 0);
        posix_spawn_file_actions_destroy(&fa);
        ::close(control[0]);
        ::close(err[1]); // err[0] is never read
        std::vector<long> tree;
        for (int i = 0; i < 250 && tree.size() < 2; ++i) {
            QTest::qWait(20);
            std::ifstream in(pidFile);
            tree.clear();
            for (long p; in >> p;)
                tree.push_back(p);
        }
        QCOMPARE(tree.size(), std::size_t{2});
        QTest::qWait(300); // the 64 KiB pipe is full long before
        std::ifstream wchan("/proc/" + std::to_string(tree[1]) + "/wchan");
        std::string blockedIn;
        wchan >> blockedIn;
        QElapsedTimer t;
        t.start();
        QVERIFY(::write(control[1], "stop\n", 5) == 5);
        int status = 0;
        while (::waitpid(helper, &status, WNOHANG) == 0 && t.elapsed() < 5000)
            QTest::qWait(10);
        const qint64 helperMs = t.elapsed();
        const bool gone = msUntilGone(tree, 1000) >= 0;
        ::close(control[1]);
        ::close(err[0]);
        if (helperMs >= 5000) {
            ::kill(helper, SIGKILL);
            ::waitpid(helper, nullptr, 0);
        }
        qInfo("writer blocked in '%s'; the helper ended %lld ms after stop", blockedIn.c_str(),
              helperMs);
        QVERIFY2(helperMs < 5000, "stop hung on a workload blocked on its stderr");
        QVERIFY2(gone, "the tree outlived its helper");
    }

    // The launcher writes cgroup.kill only into a cgroup named as the helper names its
    // own: never a parent, the root, or a path a workload planted in the status file.
    void onlyTheHelpersCgroupIsKilled()
    {
        const std::string own = sp::tree::ownCgroupDir();
        QTemporaryDir dir;
        const std::string fake = dir.filePath(QStringLiteral("stackpilot-run.12")).toStdString();
        fs::create_directories(fake);
        for (const std::string& path :
             {own, own + "/", std::string("/sys/fs/cgroup"), fake, std::string("stackpilot-run.1"),
              own + "/stackpilot-run.", own + "/stackpilot-run.1a", std::string()})
            QVERIFY2(!sp::tree::isTreeCgroup(path), path.c_str());
        std::ofstream(fake + "/cgroup.procs") << "1\n";
        QVERIFY(!sp::tree::isTreeCgroup(fake)); // named so, but not on cgroup2
        // Nothing to kill: no cgroup of ours, and no session 0 or 1.
        sp::tree::stopOrphanedTree(own, 1, 100);
        sp::tree::stopOrphanedTree({}, 0, 100);
        QCOMPARE(sp::tree::killSession(1), 0);
    }

    void workloadKillsTheHelper() { helperKilled(true); }
    void workloadKillsTheHelperWithoutCgroup() { helperKilled(false); }

    // The launcher's side: the truth, not "exited with code 9".
    void theLauncherSaysTheHelperWasKilled()
    {
        qputenv("STACKPILOT_RUN", kHelper);
        QTemporaryDir dir;
        const std::string pidFile = dir.filePath(QStringLiteral("pids")).toStdString();
        const std::string script = dir.filePath(QStringLiteral("w.sh")).toStdString();
        std::ofstream(script) << kScript;
        sp::ContainedProcess p;
        QSignalSpy done(&p, &sp::ContainedProcess::finished);
        p.start({{"/bin/sh", script},
                 {{"PIDS", pidFile}, {"MODE", "killparent"}, {"PATH", "/usr/bin:/bin"}},
                 dir.path().toStdString(),
                 1000});
        QVERIFY(done.wait(10000));
        const auto end = done.front().front().value<sp::ProcessEnd>();
        QCOMPARE(end.stoppedBy, std::string("helper-killed"));
        QCOMPARE(end.text,
                 std::string("was stopped: its containment helper (stackpilot-run) was killed"));
        std::ifstream in(pidFile);
        std::vector<long> pids;
        for (long pid; in >> pid;)
            pids.push_back(pid);
        QCOMPARE(pids.size(), std::size_t{3});
        QVERIFY(msUntilGone(pids, 5000) >= 0);
    }
};

QTEST_GUILESS_MAIN(TestContainment)
#include "test_containment.moc"
