// The platform-neutral half of stackpilot-run: arguments and the status file.
#include "app/reaper/reaper.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

namespace sp::reaper {

namespace {

bool parseInt(const std::string& s, int& out)
{
    if (s.empty() || s.size() > 9)
        return false;
    int v = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    out = v;
    return true;
}

// The status file holds paths and messages: escape what JSON requires.
std::string quoted(const std::string& s)
{
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

// "4e414d45=76616c" into its two byte strings; false when not that.
bool parseHexPair(const std::string& text, std::pair<std::string, std::string>& out)
{
    const auto eq = text.find('=');
    if (eq == std::string::npos)
        return false;
    auto unhex = [](std::string_view h, std::string& bytes) {
        if (h.size() % 2)
            return false;
        for (std::size_t i = 0; i < h.size(); i += 2) {
            unsigned v = 0;
            for (char c : h.substr(i, 2)) {
                const int d = c >= '0' && c <= '9'   ? c - '0'
                              : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                     : -1;
                if (d < 0)
                    return false;
                v = v * 16 + static_cast<unsigned>(d);
            }
            bytes += static_cast<char>(v);
        }
        return true;
    };
    out = {};
    const std::string_view all(text);
    return unhex(all.substr(0, eq), out.first) && !out.first.empty() &&
           out.first.find('=') == std::string::npos && unhex(all.substr(eq + 1), out.second);
}

} // namespace

bool parseOptions(const std::vector<std::string>& args, Options& out, std::string& error)
{
    std::size_t i = 0;
    for (; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--")
            break;
        if ((a == "--grace-ms" || a == "--status" || a == "--env-hex") && i + 1 >= args.size()) {
            error = a + " needs a value";
            return false;
        }
        if (a == "--grace-ms") {
            if (!parseInt(args[++i], out.graceMs) || out.graceMs > 600000) {
                error = "--grace-ms wants 0..600000, got '" + args[i] + "'";
                return false;
            }
        } else if (a == "--status") {
            out.statusFile = args[++i];
        } else if (a == "--no-cgroup") {
            out.cgroup = false;
        } else if (a == "--env-hex") {
            std::pair<std::string, std::string> v;
            if (!parseHexPair(args[++i], v)) {
                error = "--env-hex wants NAME=VALUE in lower-case hex";
                return false;
            }
            out.rawEnv.push_back(std::move(v));
        } else {
            error = "unknown option '" + a +
                    "' (usage: stackpilot-run [--grace-ms N] "
                    "[--status FILE] -- PROGRAM [ARGS...])";
            return false;
        }
    }
    if (i + 1 >= args.size()) {
        error = "no program given after --";
        return false;
    }
    out.argv.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
    return true;
}

const char* toString(StopRequest r)
{
    switch (r) {
    case StopRequest::Stop:
        return "stop";
    case StopRequest::Kill:
        return "kill";
    case StopRequest::LauncherGone:
        return "launcher-gone";
    case StopRequest::HelperKilled:
        return "helper-killed";
    case StopRequest::None:
        break;
    }
    return "none";
}

std::string statusJson(long long mainPid, const ExitInfo& exit, long long mainEndedMs,
                       long long treeEndedMs, StopRequest stoppedBy)
{
    const char* key = exit.kind == ExitInfo::Signal     ? "signal"
                      : exit.kind == ExitInfo::NtStatus ? "ntstatus"
                                                        : "code";
    std::ostringstream s;
    s << "{\"main_pid\": " << mainPid << ", \"exit\": {\"" << key << "\": " << exit.value
      << "}, \"main_ended_ms\": " << mainEndedMs << ", \"tree_ended_ms\": " << treeEndedMs
      << ", \"stopped_by\": \"" << toString(stoppedBy) << "\"}";
    return s.str();
}

std::string startedJson(long long mainPid, const std::string& cgroup)
{
    std::string out = "{\"main_pid\": " + std::to_string(mainPid) + ", \"started\": true";
    if (!cgroup.empty())
        out += ", \"cgroup\": " + quoted(cgroup);
    return out + "}";
}

std::string errorJson(const std::string& message)
{
    return "{\"error\": " + quoted(message) + "}";
}

bool writeStatusFile(const std::string& file, const std::string& json)
{
    if (file.empty())
        return true;
    // The path is UTF-8: through std::filesystem it opens with the wide API on Windows,
    // so a user folder with non-ASCII characters works there too.
    const std::filesystem::path target(std::u8string(file.begin(), file.end()));
    std::filesystem::path tmp = target;
    tmp += ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f << json << '\n';
        if (!f.flush())
            return false;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, target, ec); // replaces the target on both systems
    return !ec;
}

} // namespace sp::reaper
