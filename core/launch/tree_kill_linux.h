#pragma once
// Killing a contained tree all at once on Linux, shared by stackpilot-run (which
// links no Qt) and the launcher: a cgroup v2 of its own with cgroup.kill where the
// kernel (5.14+) and the user's delegation allow one, else the workload's session.
//
// The cgroup is made inside the helper's own cgroup ("0::PATH" of /proc/self/cgroup,
// under the cgroup2 mount of /proc/self/mountinfo), named stackpilot-run.<helper pid>.
// Making it needs write access there: root, or a user whose systemd delegated the
// subtree (the user@.service manager and its scopes). The workload joins it before
// exec, so everything it ever starts is inside, setsid() or double fork included, and
// cgroup.kill ends them in one step that no fork can race. Without one the helper's
// /proc walk stays the only way while it lives, and the workload's session (the
// workload is its leader, so its id is the workload's pid) is what is left to a
// launcher whose helper was killed.
#include <string>
#include <sys/types.h>
#include <vector>

namespace sp::tree {

// The folder of the calling process's cgroup v2, e.g. "/sys/fs/cgroup/user.slice/…";
// empty when there is no cgroup v2 hierarchy.
std::string ownCgroupDir();

// Makes <own cgroup>/stackpilot-run.<pid>; its folder, or empty with the reason in
// `why` (no cgroup v2, no delegation: EACCES, EROFS, ...).
std::string createTreeCgroup(std::string& why);

// Whether `dir` is a cgroup this helper makes: an absolute path on the cgroup2 file
// system whose last part is "stackpilot-run.<digits>". The launcher checks
// this before writing to a path it read from the helper's status file.
bool isTreeCgroup(const std::string& dir);

// The calling process moves into `dir` (writes "0" to its cgroup.procs).
bool joinCgroup(const std::string& dir);
std::vector<pid_t> cgroupPids(const std::string& dir);
// "populated 1" in cgroup.events: some process of it (or of a child cgroup) lives.
bool cgroupPopulated(const std::string& dir);
// SIGKILL to every process in it: cgroup.kill, else (kernels before 5.14) each pid of
// cgroup.procs. False when neither could be written.
bool killCgroup(const std::string& dir);
// Waits up to `waitMs` for it to be empty, then removes it. False when it was not.
bool removeCgroup(const std::string& dir, int waitMs);

// SIGKILL to every process whose process group or session is `sid` (never to pid 1 or
// to the caller). The number of processes signalled.
int killSession(pid_t sid);

// A helper that was killed left the tree behind: kills it through its cgroup when it
// has one, else through the workload's session, and waits up to `waitMs` for it to be
// gone. `mainPid` is the workload's pid, the leader of its session.
void stopOrphanedTree(const std::string& cgroup, pid_t mainPid, int waitMs);

} // namespace sp::tree
