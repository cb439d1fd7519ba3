// See tree_kill_linux.h. Plain POSIX and /proc, no Qt: stackpilot-run compiles it too.
#include "core/launch/tree_kill_linux.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <linux/magic.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

namespace sp::tree {

namespace {

constexpr int kTreeKillPollMs = 20;

bool writeCgroupFile(const std::string& file, const char* text)
{
    const int fd = open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const std::size_t len = std::strlen(text);
    const bool ok = write(fd, text, len) == static_cast<ssize_t>(len);
    close(fd);
    return ok;
}

// The mount point of the cgroup2 file system and the root of it that is mounted
// there (not "/" inside a cgroup namespace's view of an outer mount).
bool cgroup2Mount(std::string& mountPoint, std::string& mountRoot)
{
    std::ifstream in("/proc/self/mountinfo");
    for (std::string line; std::getline(in, line);) {
        const std::size_t dash = line.find(" - ");
        if (dash == std::string::npos || line.compare(dash + 3, 8, "cgroup2 ") != 0)
            continue;
        std::istringstream fields(line.substr(0, dash));
        std::string id, parent, dev;
        if (fields >> id >> parent >> dev >> mountRoot >> mountPoint)
            return true;
    }
    return false;
}

void treeSleepMs(int ms)
{
    usleep(static_cast<useconds_t>(ms) * 1000);
}

} // namespace

std::string ownCgroupDir()
{
    std::string mountPoint, mountRoot;
    if (!cgroup2Mount(mountPoint, mountRoot))
        return {};
    std::ifstream in("/proc/self/cgroup");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("0::", 0) != 0)
            continue;
        std::string path = line.substr(3);
        if (mountRoot != "/" && path.rfind(mountRoot, 0) == 0)
            path.erase(0, mountRoot.size());
        std::string dir = mountPoint + path;
        while (dir.size() > 1 && dir.back() == '/')
            dir.pop_back();
        return dir;
    }
    return {};
}

std::string createTreeCgroup(std::string& why)
{
    const std::string own = ownCgroupDir();
    if (own.empty()) {
        why = "no cgroup v2 hierarchy";
        return {};
    }
    const std::string dir = own + "/stackpilot-run." + std::to_string(getpid());
    if (mkdir(dir.c_str(), 0755) != 0 &&
        !(errno == EEXIST && removeCgroup(dir, 0) && mkdir(dir.c_str(), 0755) == 0)) {
        why = own + ": " + std::strerror(errno);
        return {};
    }
    return dir;
}

bool isTreeCgroup(const std::string& dir)
{
    const std::size_t slash = dir.rfind('/');
    if (dir.empty() || dir[0] != '/' || slash == std::string::npos ||
        dir.compare(slash + 1, 15, "stackpilot-run.") != 0)
        return false;
    const std::string digits = dir.substr(slash + 16);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return false;
    // On the cgroup2 file system itself, not a folder made to look like one.
    struct statfs info = {};
    struct stat st = {};
    return statfs(dir.c_str(), &info) == 0 && info.f_type == CGROUP2_SUPER_MAGIC &&
           stat((dir + "/cgroup.procs").c_str(), &st) == 0;
}

bool joinCgroup(const std::string& dir)
{
    return writeCgroupFile(dir + "/cgroup.procs", "0");
}

std::vector<pid_t> cgroupPids(const std::string& dir)
{
    std::vector<pid_t> out;
    std::ifstream in(dir + "/cgroup.procs");
    for (long pid; in >> pid;)
        out.push_back(static_cast<pid_t>(pid));
    return out;
}

bool cgroupPopulated(const std::string& dir)
{
    std::ifstream in(dir + "/cgroup.events");
    for (std::string key, value; in >> key >> value;)
        if (key == "populated")
            return value != "0";
    return false; // gone
}

bool killCgroup(const std::string& dir)
{
    if (writeCgroupFile(dir + "/cgroup.kill", "1"))
        return true;
    bool any = false;
    for (pid_t pid : cgroupPids(dir))
        any = ::kill(pid, SIGKILL) == 0 || any;
    return any;
}

bool removeCgroup(const std::string& dir, int waitMs)
{
    for (int waited = 0;; waited += kTreeKillPollMs) {
        if (rmdir(dir.c_str()) == 0 || errno == ENOENT)
            return true;
        if (errno != EBUSY || waited >= waitMs)
            return false;
        treeSleepMs(kTreeKillPollMs);
    }
}

int killSession(pid_t sid)
{
    if (sid <= 1)
        return 0;
    int signalled = 0;
    DIR* proc = opendir("/proc");
    if (!proc)
        return 0;
    while (dirent* e = readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (pid <= 1 || *end != '\0' || pid == getpid())
            continue;
        char path[64];
        std::snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        std::ifstream in(path);
        std::string line;
        std::getline(in, line);
        // "pid (comm) state ppid pgrp session ...": comm may hold spaces and ')'.
        const std::size_t paren = line.rfind(')');
        char state = 0;
        int ppid = 0, pgrp = 0, session = 0;
        if (paren == std::string::npos ||
            std::sscanf(line.c_str() + paren + 1, " %c %d %d %d", &state, &ppid, &pgrp, &session) !=
                4 ||
            state == 'Z' || (pgrp != sid && session != sid))
            continue;
        if (::kill(static_cast<pid_t>(pid), SIGKILL) == 0)
            ++signalled;
    }
    closedir(proc);
    return signalled;
}

void stopOrphanedTree(const std::string& cgroup, pid_t mainPid, int waitMs)
{
    if (isTreeCgroup(cgroup)) {
        for (int waited = 0; waited <= waitMs; waited += kTreeKillPollMs) {
            if (!cgroupPopulated(cgroup))
                break;
            killCgroup(cgroup);
            treeSleepMs(kTreeKillPollMs);
        }
        removeCgroup(cgroup, waitMs);
        return;
    }
    for (int waited = 0; waited <= waitMs && killSession(mainPid) > 0; waited += kTreeKillPollMs)
        treeSleepMs(kTreeKillPollMs);
}

} // namespace sp::tree
