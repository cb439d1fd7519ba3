// checkPort on Linux: a trial bind says whether the port is taken; /proc says by
// whom (the LISTEN socket's inode in /proc/net/tcp{,6}, then the process holding a
// descriptor to that socket). Processes of other users may be unreadable: then the
// holder is unknown, but the port is still reported in use.
#include "core/launch/port_check.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sp {

namespace {

// Without SO_REUSEADDR, so a listener (or a socket in TIME_WAIT) makes it fail.
bool bindFails(in_addr_t address, int port)
{
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(address);
    const int rc = bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    const int err = errno;
    close(fd);
    return rc != 0 && err == EADDRINUSE;
}

// Inodes of the LISTEN sockets on `port` (state 0A in /proc/net/tcp).
std::vector<std::string> listeningInodes(int port)
{
    std::vector<std::string> out;
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::ifstream in(table);
        std::string line;
        std::getline(in, line); // header
        while (std::getline(in, line)) {
            char local[128] = {0}, remote[128] = {0}, state[8] = {0};
            unsigned long inode = 0;
            // sl local_address rem_address st tx:rx tr:tm retrnsmt uid timeout inode
            if (std::sscanf(line.c_str(), " %*s %127s %127s %7s %*s %*s %*s %*s %*s %lu", local,
                            remote, state, &inode) != 4)
                continue;
            const char* colon = std::strrchr(local, ':');
            if (colon && std::strcmp(state, "0A") == 0 &&
                std::strtol(colon + 1, nullptr, 16) == port)
                out.push_back(std::to_string(inode));
        }
    }
    return out;
}

std::optional<PortHolder> holderOf(const std::vector<std::string>& inodes)
{
    DIR* proc = opendir("/proc");
    if (!proc)
        return std::nullopt;
    std::optional<PortHolder> found;
    while (dirent* e = readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (pid <= 0 || *end != '\0')
            continue;
        const std::string fdDir = std::string("/proc/") + e->d_name + "/fd";
        DIR* fds = opendir(fdDir.c_str());
        if (!fds)
            continue;
        while (dirent* f = readdir(fds)) {
            char target[64] = {0};
            const std::string link = fdDir + "/" + f->d_name;
            const ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
            if (n <= 0)
                continue;
            for (const std::string& inode : inodes)
                if (std::string(target, static_cast<std::size_t>(n)) == "socket:[" + inode + "]")
                    found = PortHolder{pid, {}};
            if (found)
                break;
        }
        closedir(fds);
        if (found) {
            std::ifstream comm(std::string("/proc/") + e->d_name + "/comm");
            std::getline(comm, found->name);
            break;
        }
    }
    closedir(proc);
    return found;
}

} // namespace

PortStatus checkPort(int port)
{
    PortStatus s;
    s.port = port;
    s.inUse = bindFails(INADDR_LOOPBACK, port) || bindFails(INADDR_ANY, port);
    if (s.inUse)
        s.holder = holderOf(listeningInodes(port));
    return s;
}

} // namespace sp
