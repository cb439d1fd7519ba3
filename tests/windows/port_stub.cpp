// Test-only stand-ins for the platform-neutral half of port_check.h, so the MinGW
// build under Wine links; the project's own are in core/launch/port_check_common.cpp.
#include "core/launch/port_check.h"

namespace sp {

std::string PortStatus::describe() const
{
    const std::string p = "port " + std::to_string(port);
    if (!inUse)
        return p + " is free";
    if (holder && !holder->name.empty())
        return p + " is in use by " + holder->name + " (pid " + std::to_string(holder->pid) + ")";
    return p + " is in use";
}

std::optional<int> portFromArgs(const std::vector<std::string>&, std::optional<int> defaultPort)
{
    return defaultPort;
}

} // namespace sp
