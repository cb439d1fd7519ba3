// stackpilot-run on Linux: a child subreaper that owns the workload's whole tree
// (see reaper.h for the contract). Two processes: the guardian (this one: its own
// session, the subreaper, the loop) and the inner parent, the workload's direct parent
// and nothing else. A workload that kills its parent kills the inner one; its orphans
// come to the guardian, which stops the whole tree. One poll() loop watches the control
// channel on stdin, a signalfd (SIGCHLD, SIGTERM, SIGHUP), the inner parent's report of
// the workload's exit and the kill deadline of a stop in progress. Descendants are
// found by walking /proc parent links, so a process that left the workload's session
// with setsid() is still found: while it lives, its ancestors up to us live too, or it
// was re-parented to us. Where a cgroup v2 of our own can be made (core/launch/
// tree_kill_linux.h), the workload joins it before exec and a kill is cgroup.kill too:
// one step no fork can race, and what a launcher uses when this helper was killed.
#include "app/reaper/reaper.h"
#include "core/launch/tree_kill_linux.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sp::reaper {

namespace {

// A launcher that died gets at most this long before the tree is killed.
constexpr int kLauncherGoneGraceMs = 1000;
// While killing, the tree is scanned again this often for late forks.
constexpr int kKillRescanMs = 50;

using SteadyClock = std::chrono::steady_clock;

long long msSince(SteadyClock::time_point t0)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - t0).count();
}

// Every process whose parent chain leads to us, read from /proc/<pid>/stat.
std::vector<pid_t> descendants()
{
    std::map<pid_t, pid_t> parentOf;
    DIR* proc = opendir("/proc");
    if (!proc)
        return {};
    while (dirent* e = readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (pid <= 0 || *end != '\0')
            continue;
        char path[64];
        std::snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE* f = std::fopen(path, "re");
        if (!f)
            continue;
        char buf[512];
        const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        buf[n] = '\0';
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        const char* close = std::strrchr(buf, ')');
        int ppid = 0;
        char state = 0;
        if (close && std::sscanf(close + 1, " %c %d", &state, &ppid) == 2)
            parentOf[static_cast<pid_t>(pid)] = ppid;
    }
    closedir(proc);
    std::vector<pid_t> out;
    std::vector<pid_t> frontier{getpid()};
    while (!frontier.empty()) {
        const pid_t p = frontier.back();
        frontier.pop_back();
        for (const auto& [pid, ppid] : parentOf) {
            if (ppid == p) {
                out.push_back(pid);
                frontier.push_back(pid);
            }
        }
    }
    return out;
}

// Every process of the tree but `spare` (the inner parent, which ends by itself once
// the workload has ended, and whose death by a signal means someone killed it).
void signalTree(int sig, pid_t spare)
{
    for (pid_t pid : descendants())
        if (pid != spare)
            kill(pid, sig);
}

void recordExit(ExitInfo& exit, int status)
{
    if (WIFSIGNALED(status))
        exit = {ExitInfo::Signal, WTERMSIG(status)};
    else
        exit = {ExitInfo::Code, WEXITSTATUS(status)};
}

struct Loop
{
    explicit Loop(const Options& o) : options(o) {}

    const Options& options;
    SteadyClock::time_point started = SteadyClock::now();
    pid_t mainPid = -1;
    pid_t innerPid = -1;
    int exitFd = -1; // the inner parent's report: the workload's wait status
    ExitInfo exit;
    long long mainEndedMs = -1;
    bool stdinOpen = true;
    std::string control;
    StopRequest stoppedBy = StopRequest::None;
    bool killing = false;
    SteadyClock::time_point killAt{};
    std::string cgroup; // the tree's cgroup v2; empty when there is none

    // SIGKILL to the whole tree (but `spare`): its cgroup at once, and the /proc walk.
    void killTree(pid_t spare)
    {
        if (!cgroup.empty())
            tree::killCgroup(cgroup);
        signalTree(SIGKILL, spare);
    }

    void requestStop(StopRequest why, int graceMs)
    {
        if (stoppedBy == StopRequest::None || why == StopRequest::Kill)
            stoppedBy = why;
        if (why == StopRequest::Kill || graceMs == 0) {
            killing = true;
            killTree(innerPid);
            return;
        }
        const auto at = SteadyClock::now() + std::chrono::milliseconds(graceMs);
        if (killAt == SteadyClock::time_point{} || at < killAt) {
            if (killAt == SteadyClock::time_point{})
                signalTree(SIGTERM, innerPid);
            killAt = at;
        }
    }

    void readControl()
    {
        char buf[256];
        const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                return;
            stdinOpen = false;
            requestStop(StopRequest::LauncherGone, std::min(options.graceMs, kLauncherGoneGraceMs));
            return;
        }
        control.append(buf, static_cast<std::size_t>(n));
        for (std::size_t nl; (nl = control.find('\n')) != std::string::npos;) {
            const std::string line = control.substr(0, nl);
            control.erase(0, nl + 1);
            if (line == "stop")
                requestStop(StopRequest::Stop, options.graceMs);
            else if (line == "kill")
                requestStop(StopRequest::Kill, 0);
        }
    }

    // The workload's wait status, as the inner parent reports it.
    void readExit()
    {
        int status = 0;
        if (exitFd >= 0 && read(exitFd, &status, sizeof status) == sizeof status &&
            mainEndedMs < 0) {
            mainEndedMs = msSince(started);
            recordExit(exit, status);
        }
    }

    // Reaps what has ended; false once we have no children left (the tree is empty).
    bool reap()
    {
        for (;;) {
            int status = 0;
            const pid_t pid = waitpid(-1, &status, WNOHANG);
            if (pid == 0)
                return true;
            if (pid < 0)
                return errno == EINTR;
            if (pid == innerPid) {
                readExit();
                innerPid = -1;
                if (WIFSIGNALED(status)) {
                    // Killed by the workload (or anyone but us): its orphans are ours now.
                    stoppedBy = StopRequest::HelperKilled;
                    killing = true;
                    killTree(-1);
                }
            } else if (pid == mainPid && mainEndedMs < 0) {
                // Re-parented to us after the inner parent died.
                mainEndedMs = msSince(started);
                recordExit(exit, status);
            }
        }
    }

    void onSignal(int sigfd)
    {
        signalfd_siginfo info{};
        while (read(sigfd, &info, sizeof info) == sizeof info) {
            if (info.ssi_signo == SIGTERM)
                requestStop(StopRequest::Stop, options.graceMs);
            else if (info.ssi_signo == SIGHUP) // PR_SET_PDEATHSIG: the launcher died
                requestStop(StopRequest::LauncherGone,
                            std::min(options.graceMs, kLauncherGoneGraceMs));
        }
    }

    int pollTimeout() const
    {
        if (killing)
            return kKillRescanMs;
        if (killAt == SteadyClock::time_point{})
            return -1;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(killAt - SteadyClock::now());
        return static_cast<int>(std::max<long long>(0, left.count()));
    }

    void run(int sigfd)
    {
        while (reap()) {
            pollfd fds[3] = {{sigfd, POLLIN, 0}, {exitFd, POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
            if (!stdinOpen)
                fds[2].fd = -1; // poll() skips it
            const int n = poll(fds, 3, pollTimeout());
            if (n < 0 && errno != EINTR)
                break;
            if (fds[0].revents)
                onSignal(sigfd);
            if (fds[1].revents & POLLIN)
                readExit();
            if (fds[1].revents & (POLLHUP | POLLERR)) {
                close(exitFd);
                exitFd = -1;
            }
            if (stdinOpen && fds[2].revents)
                readControl();
            if (killing || (killAt != SteadyClock::time_point{} && SteadyClock::now() >= killAt)) {
                killing = true;
                killTree(innerPid);
            }
        }
    }
};

[[noreturn]] void execWorkload(const Options& options, const sigset_t& oldMask, int errPipe,
                               const std::string& cgroup)
{
    // Before anything can fork: all it ever starts is born inside.
    if (!cgroup.empty())
        tree::joinCgroup(cgroup);
    // The helper ignores SIGINT (the launcher turns Ctrl-C into "stop"); the workload
    // must not inherit that, nor our blocked signals.
    std::signal(SIGINT, SIG_DFL);
    sigprocmask(SIG_SETMASK, &oldMask, nullptr);
    setsid();
    const int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null >= 0)
        dup2(null, STDIN_FILENO);
    std::vector<char*> argv;
    for (const std::string& a : options.argv)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    const int err = errno;
    (void)!write(errPipe, &err, sizeof err);
    _exit(127);
}

// The inner parent: forks the workload, reports its pid and then its wait status to
// the guardian over `report`, and ends. It dies with the guardian (PR_SET_PDEATHSIG).
[[noreturn]] void runInner(const Options& options, const sigset_t& oldMask, pid_t guardian,
                           int errPipe, int report, const std::string& cgroup)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != guardian)
        _exit(1);
    const pid_t pid = fork();
    if (pid == 0)
        execWorkload(options, oldMask, errPipe, cgroup);
    if (pid < 0) {
        const int err = errno;
        (void)!write(errPipe, &err, sizeof err);
    }
    close(errPipe);
    const int sent = pid;
    (void)!write(report, &sent, sizeof sent);
    if (pid < 0)
        _exit(127);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    (void)!write(report, &status, sizeof status);
    _exit(0);
}

ssize_t readFully(int fd, void* buf, std::size_t size)
{
    ssize_t n;
    do
        n = read(fd, buf, size);
    while (n < 0 && errno == EINTR);
    return n;
}

// Starts the inner parent and through it the workload; returns the workload's pid, or
// -1 with `error` set. The loop gets the inner parent's pid and its report channel.
pid_t startTree(const Options& options, const sigset_t& oldMask, Loop& loop, std::string& error)
{
    int errPipe[2], report[2];
    if (pipe2(errPipe, O_CLOEXEC) != 0 || pipe2(report, O_CLOEXEC) != 0) {
        error = std::string("pipe: ") + std::strerror(errno);
        return -1;
    }
    const pid_t guardian = getpid();
    const pid_t inner = fork();
    if (inner == 0) {
        close(errPipe[0]);
        close(report[0]);
        runInner(options, oldMask, guardian, errPipe[1], report[1], loop.cgroup);
    }
    close(errPipe[1]);
    close(report[1]);
    int mainPid = -1, childErr = 0;
    const bool reported =
        inner > 0 && readFully(report[0], &mainPid, sizeof mainPid) == sizeof mainPid;
    const ssize_t n = inner > 0 ? readFully(errPipe[0], &childErr, sizeof childErr) : 0;
    close(errPipe[0]);
    if (inner < 0 || !reported || mainPid <= 0 || n == sizeof childErr) {
        const int err = inner < 0 ? errno : childErr;
        error = "cannot start " + options.argv[0] + ": " + std::strerror(err ? err : ECHILD);
        close(report[0]);
        if (inner > 0)
            waitpid(inner, nullptr, 0);
        return -1;
    }
    fcntl(report[0], F_SETFL, O_NONBLOCK);
    loop.innerPid = inner;
    loop.exitFd = report[0];
    return mainPid;
}

// The status file, its temporary twin, and the launcher's temporary folder that holds
// them when that is one of StackPilot's ("stackpilot…") and nothing else is in it.
void removeStatusFolder(const std::string& file)
{
    if (file.empty())
        return;
    unlink(file.c_str());
    unlink((file + ".tmp").c_str());
    const std::size_t slash = file.rfind('/');
    if (slash == std::string::npos || slash == 0)
        return;
    const std::string dir = file.substr(0, slash);
    if (dir.compare(dir.rfind('/') + 1, 10, "stackpilot") == 0)
        rmdir(dir.c_str()); // fails, harmlessly, when the folder is not empty
}

} // namespace

int runContained(const Options& options)
{
    const pid_t launcher = getppid();
    // Out of the launcher's session and process group: a SIGKILL or SIGHUP to that
    // group (timeout, a terminal closing, a service manager) does not reach us, so we
    // live to stop the tree when the launcher dies.
    if (setsid() < 0)
        setpgid(0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    prctl(PR_SET_PDEATHSIG, SIGHUP);
    std::signal(SIGINT, SIG_IGN);
    std::signal(SIGPIPE, SIG_IGN);
    sigset_t mask, oldMask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGCHLD);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGHUP);
    sigprocmask(SIG_BLOCK, &mask, &oldMask);
    const int sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);

    Loop loop(options);
    std::string error;
    std::string noCgroup;
    if (options.cgroup)
        loop.cgroup = tree::createTreeCgroup(noCgroup); // none: the /proc walk alone
    loop.mainPid = startTree(options, oldMask, loop, error);
    if (loop.mainPid < 0) {
        std::fprintf(stderr, "stackpilot-run: %s\n", error.c_str());
        writeStatusFile(options.statusFile, errorJson(error));
        if (!loop.cgroup.empty())
            tree::removeCgroup(loop.cgroup, 1000);
        return 127;
    }
    // The workload has exec'd (its error pipe closed), so it joined, or could not.
    const std::vector<pid_t> members =
        loop.cgroup.empty() ? std::vector<pid_t>{} : tree::cgroupPids(loop.cgroup);
    if (!loop.cgroup.empty() &&
        std::find(members.begin(), members.end(), loop.mainPid) == members.end()) {
        tree::removeCgroup(loop.cgroup, 0);
        loop.cgroup.clear();
    }
    writeStatusFile(options.statusFile, startedJson(loop.mainPid, loop.cgroup));
    // The launcher may have died before PR_SET_PDEATHSIG took hold.
    if (getppid() != launcher)
        loop.requestStop(StopRequest::LauncherGone,
                         std::min(options.graceMs, kLauncherGoneGraceMs));
    loop.run(sigfd);
    if (!loop.cgroup.empty())
        tree::removeCgroup(loop.cgroup, 1000);
    // The launcher is dead: nobody will read the status, so leave nothing behind. Its
    // pipe can close (LauncherGone) before the kernel reparents this helper, so either
    // sign counts (issue 20's leftover, caught again by tests/hostile/pass2_containment).
    if (getppid() != launcher || loop.stoppedBy == StopRequest::LauncherGone) {
        removeStatusFolder(options.statusFile);
    } else {
        writeStatusFile(options.statusFile, statusJson(loop.mainPid, loop.exit, loop.mainEndedMs,
                                                       msSince(loop.started), loop.stoppedBy));
    }
    if (loop.exit.kind == ExitInfo::Signal)
        return 128 + static_cast<int>(loop.exit.value);
    return static_cast<int>(loop.exit.value);
}

} // namespace sp::reaper
