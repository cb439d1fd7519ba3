// The platform-neutral half of the port check.
#include "core/launch/port_check.h"

#include <charconv>

namespace sp {

namespace {

std::optional<int> parsePort(std::string_view s)
{
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < 1 || v > 65535)
        return std::nullopt;
    return v;
}

} // namespace

std::string PortStatus::describe() const
{
    const std::string p = "port " + std::to_string(port);
    if (!inUse)
        return p + " is free";
    if (!holder)
        return p + " is in use";
    const std::string who = holder->name.empty() ? "a process" : holder->name;
    return p + " is in use by " + who + " (pid " + std::to_string(holder->pid) + ")";
}

std::optional<int> portFromArgs(const std::vector<std::string>& argv,
                                std::optional<int> defaultPort)
{
    std::optional<int> found;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        for (const std::string_view flag : {"--port", "--listen-port"}) {
            const std::string_view a = argv[i];
            if (a == flag && i + 1 < argv.size()) {
                if (auto p = parsePort(argv[i + 1]))
                    found = p; // the last one wins, as in argparse
            } else if (a.size() > flag.size() + 1 && a.substr(0, flag.size()) == flag &&
                       a[flag.size()] == '=') {
                if (auto p = parsePort(a.substr(flag.size() + 1)))
                    found = p;
            }
        }
    }
    return found ? found : defaultPort;
}

} // namespace sp
