// The platform-independent half of port_check.h: reading the port from a workload's
// argv and describing a result.

#include "core/launch/port_check.h"

#include <charconv>

namespace sp {

namespace {

std::optional<int> parsePort(const std::string& text)
{
    int value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end || value < 1 || value > 65535)
        return std::nullopt;
    return value;
}

} // namespace

std::string PortStatus::describe() const
{
    const std::string head = "port " + std::to_string(port);
    if (!inUse)
        return head + " is free";
    if (!holder)
        return head + " is in use";
    const std::string who = holder->name.empty() ? "a process" : holder->name;
    return head + " is in use by " + who + " (pid " + std::to_string(holder->pid) + ")";
}

std::optional<int> portFromArgs(const std::vector<std::string>& argv,
                                std::optional<int> defaultPort)
{
    std::optional<int> found;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        for (const std::string flag : {"--port", "--listen-port"}) {
            std::optional<int> value;
            if (a == flag && i + 1 < argv.size())
                value = parsePort(argv[i + 1]);
            else if (a.rfind(flag + "=", 0) == 0)
                value = parsePort(a.substr(flag.size() + 1));
            // The last valid one wins, as with the workloads' own argument parsers.
            if (value)
                found = value;
        }
    }
    return found ? found : defaultPort;
}

} // namespace sp
