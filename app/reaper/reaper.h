#pragma once
// stackpilot-run: the small helper every workload is started through, so that the
// workload's whole process tree stays contained and ends when StackPilot says so or
// when StackPilot itself dies, even by kill -9 / TerminateProcess.
//
//   stackpilot-run [--grace-ms N] [--status FILE] [--no-cgroup] -- PROGRAM [ARGS...]
//
// The helper is the launcher's direct child (QProcess starts it with the composed
// environment and working folder, which the workload inherits). Then:
//  - Linux (reaper_linux.cpp): it leaves the launcher's session (setsid), so a signal
//    to the launcher's process group does not reach it, and makes itself a child
//    subreaper (PR_SET_CHILD_SUBREAPER), so every descendant that escapes with setsid()
//    or a double fork is re-parented to it and stays reachable. It starts the workload
//    through an inner parent (which dies with it, PR_SET_PDEATHSIG): a workload that
//    kills its parent kills that one, the guardian adopts the orphans and stops the
//    tree ("helper-killed"). The workload gets its own session and process group.
//    Where a cgroup v2 of its own can be made (core/launch/tree_kill_linux.h; not with
//    --no-cgroup), the workload joins it before exec; a kill is cgroup.kill too, and a
//    launcher whose helper was killed kills the tree through it.
//    PR_SET_PDEATHSIG (SIGHUP) on the helper is a second trigger for the launcher's
//    death, besides the control channel's EOF.
//  - Windows (reaper_windows.cpp): a job object with
//    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE; the workload is created with
//    CREATE_SUSPENDED | CREATE_NEW_PROCESS_GROUP, assigned to the job, then resumed,
//    so no grandchild is ever born outside the job. The helper holds the only handle
//    to the job: if the helper dies for any reason, the job closes and the tree dies.
//
// Control channel: the helper's stdin (the workload's stdin is the null device).
//   "stop\n"  graceful stop: SIGTERM to every process of the tree (Windows:
//             CTRL_BREAK_EVENT to the workload's process group), then after the grace
//             period SIGKILL / TerminateJobObject.
//   "kill\n"  immediate SIGKILL / TerminateJobObject.
//   EOF       the launcher is gone: graceful stop with the grace capped at 1 s.
//
// The workload counts as running while any process of its tree is alive: the helper
// exits only when the tree is empty (Linux: waitpid() says ECHILD; Windows: the job's
// active process count is zero), even after the first process has exited.
//
// Status file (JSON, written atomically: FILE.tmp then rename) when the tree has ended:
//   {"main_pid": 1234, "exit": {"code": 0} | {"signal": 11} | {"ntstatus": 3221225477},
//    "main_ended_ms": <ms since helper start>, "tree_ended_ms": <ms>,
//    "stopped_by": "none" | "stop" | "kill" | "launcher-gone" | "helper-killed"}
// and, right after the workload started, {"main_pid": 1234, "started": true,
// "cgroup": "/sys/fs/cgroup/…/stackpilot-run.99"} ("cgroup" only when there is one).
// On a start failure: {"error": "cannot start PROGRAM: reason"} and exit status 127.
//
// Exit status of the helper: the first process's exit code; 128 + signal when it was
// killed by a signal (Linux); the NTSTATUS as the exit code (Windows).

#include <string>
#include <utility>
#include <vector>

namespace sp::reaper {

struct Options
{
    int graceMs = 5000;
    std::string statusFile;        // empty: none
    bool cgroup = true;            // --no-cgroup: the /proc walk only (Linux; tests)
    std::vector<std::string> argv; // PROGRAM ARGS..., UTF-8
    // --env-hex NAME=VALUE, both hex: variables whose bytes are not UTF-8, which the
    // launcher's QProcess cannot pass as they are; set before the workload starts (POSIX).
    std::vector<std::pair<std::string, std::string>> rawEnv;
};

// Parses the helper's arguments; false with a one-line reason in `error`.
bool parseOptions(const std::vector<std::string>& args, Options& out, std::string& error);

// Runs the contained tree; returns the helper's exit status. Platform-specific.
int runContained(const Options& options);

enum class StopRequest
{
    None,
    Stop,
    Kill,
    LauncherGone,
    HelperKilled // the workload's parent (the inner half of the helper) was killed
};
// "none", "stop", "kill", "launcher-gone", "helper-killed"
const char* toString(StopRequest r);

struct ExitInfo
{
    enum Kind
    {
        Code,
        Signal,
        NtStatus
    } kind = Code;
    long long value = 0;
};

// The status file's JSON text (no trailing newline), and the atomic write of it.
std::string statusJson(long long mainPid, const ExitInfo& exit, long long mainEndedMs,
                       long long treeEndedMs, StopRequest stoppedBy);
std::string startedJson(long long mainPid, const std::string& cgroup = {});
std::string errorJson(const std::string& message);
bool writeStatusFile(const std::string& file, const std::string& json);

} // namespace sp::reaper
