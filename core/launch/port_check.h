#pragma once
// Is a TCP port already taken, and by whom? Used before a launch (a ghost instance of
// a self-restarting UI holding the port is the classic failure) and by `doctor`.
// Linux reads /proc/net/tcp{,6} and /proc/<pid>/fd; Windows asks
// GetExtendedTcpTable for the owning PID (port_check_linux.cpp / port_check_windows.cpp).

#include <optional>
#include <string>
#include <vector>

namespace sp {

struct PortHolder
{
    long long pid = 0;
    std::string name; // "python3", "ComfyUI.exe"; empty when the OS would not say
};

struct PortStatus
{
    int port = 0;
    bool inUse = false;
    std::optional<PortHolder> holder; // when the OS can tell
    // "port 8188 is in use by python3 (pid 4242)" / "port 8188 is in use" / "port 8188 is free"
    std::string describe() const;
};

// Tries to bind 127.0.0.1:port and 0.0.0.0:port as a server would (on Linux with
// SO_REUSEADDR: a connection left in TIME_WAIT leaves the port free), then looks for
// the process listening on it.
PortStatus checkPort(int port);

// The port a workload will listen on: `--port N`, `--port=N`, `--listen-port N` in
// argv; else `defaultPort` (the workload's catalog default); nullopt when neither.
std::optional<int> portFromArgs(const std::vector<std::string>& argv,
                                std::optional<int> defaultPort);

} // namespace sp
