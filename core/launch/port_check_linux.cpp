// checkPort on Linux (and other POSIX systems with a Linux-style /proc): a bind
// attempt says whether the port is taken; /proc says by whom.

#include "core/launch/port_check.h"

#include <arpa/inet.h>
#include <cerrno>
#include <dirent.h>
#include <fstream>
#include <netinet/in.h>
#include <set>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

namespace sp {

namespace {

// True when binding `address`:port fails with EADDRINUSE. With SO_REUSEADDR, as the
// workloads' servers bind on Linux (asyncio's create_server for ComfyUI's aiohttp,
// uvicorn for SD.Next, cpp-httplib for llama-server, Go for Ollama): a connection the
// last run left in TIME_WAIT (60 s after a Stop with a browser tab open) does not stop
// them, so it does not count. Without it, Stop then Launch was refused for a minute.
bool bindRefused(in_addr_t address, int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<std::uint16_t>(port));
    sa.sin_addr.s_addr = address;
    const bool refused =
        ::bind(fd, reinterpret_cast<const sockaddr*>(&sa), sizeof sa) != 0 && errno == EADDRINUSE;
    ::close(fd);
    return refused;
}

constexpr const char* kListenState = "0A";

// Inodes of the LISTEN sockets on `port` in one /proc/net/tcp{,6} table.
void listenInodes(const std::string& table, int port, std::set<std::string>& inodes)
{
    std::ifstream in(table);
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
        fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >>
            timeout >> inode;
        const auto colon = local.rfind(':');
        if (colon == std::string::npos || state != kListenState)
            continue;
        if (std::stoi(local.substr(colon + 1), nullptr, 16) == port && inode != "0")
            inodes.insert(inode);
    }
}

std::string readComm(const std::string& pid)
{
    std::ifstream in("/proc/" + pid + "/comm");
    std::string name;
    std::getline(in, name);
    return name;
}

// The first process with an open descriptor on one of `inodes`. Processes of other
// users are unreadable without privileges; they are skipped.
std::optional<PortHolder> holderOf(const std::set<std::string>& inodes)
{
    DIR* proc = ::opendir("/proc");
    if (!proc)
        return std::nullopt;
    std::optional<PortHolder> found;
    while (!found) {
        const dirent* e = ::readdir(proc);
        if (!e)
            break;
        const std::string pid = e->d_name;
        if (pid.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const std::string fdDir = "/proc/" + pid + "/fd";
        DIR* fds = ::opendir(fdDir.c_str());
        if (!fds)
            continue;
        while (const dirent* f = ::readdir(fds)) {
            char target[128];
            const std::string link = fdDir + "/" + f->d_name;
            const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
            if (n <= 0)
                continue;
            const std::string t(target, static_cast<std::size_t>(n));
            if (t.rfind("socket:[", 0) == 0 && inodes.count(t.substr(8, t.size() - 9))) {
                found = PortHolder{std::stoll(pid), readComm(pid)};
                break;
            }
        }
        ::closedir(fds);
    }
    ::closedir(proc);
    return found;
}

} // namespace

PortStatus checkPort(int port)
{
    PortStatus status;
    status.port = port;
    if (port < 1 || port > 65535)
        return status;
    status.inUse =
        bindRefused(htonl(INADDR_LOOPBACK), port) || bindRefused(htonl(INADDR_ANY), port);
    if (!status.inUse)
        return status;
    std::set<std::string> inodes;
    listenInodes("/proc/net/tcp", port, inodes);
    listenInodes("/proc/net/tcp6", port, inodes);
    if (!inodes.empty())
        status.holder = holderOf(inodes);
    return status;
}

} // namespace sp
