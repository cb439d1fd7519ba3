#include "detectors/parsers/parsed_probe.h"

#include <cctype>
#include <limits>

namespace sp::parse_util {

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        if (nl == std::string_view::npos)
            break;
        text.remove_prefix(nl + 1);
    }
    return lines;
}

std::string gfxFromTarget(std::string_view target)
{
    target = trim(target);
    // ISA names look like "amdgcn-amd-amdhsa--gfx900:xnack-".
    if (const auto dashes = target.rfind("--"); dashes != std::string_view::npos)
        target.remove_prefix(dashes + 2);
    target = target.substr(0, target.find(':'));
    if (target.size() < 4 || target.size() > 16 || target.substr(0, 3) != "gfx")
        return {};
    for (char c : target.substr(3)) {
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return {};
    }
    return lower(target);
}

std::optional<long long> leadingInt(std::string_view s)
{
    s = trim(s);
    bool neg = false;
    if (!s.empty() && s.front() == '-') {
        neg = true;
        s.remove_prefix(1);
    }
    if (s.empty() || !std::isdigit(static_cast<unsigned char>(s.front())))
        return std::nullopt;
    long long v = 0;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            break;
        if (v > (std::numeric_limits<long long>::max() - 9) / 10)
            return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return neg ? -v : v;
}

std::string clip(std::string_view s, std::size_t max)
{
    std::string out;
    s = trim(s);
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (out.size() >= max) {
            out += "...";
            break;
        }
        const auto u = static_cast<unsigned char>(s[i]);
        if (u == 0x1b) {
            // Tools colour their errors ("\x1b[31m"); drop the escape sequence.
            while (i + 1 < s.size() && !std::isalpha(static_cast<unsigned char>(s[i + 1])))
                ++i;
            ++i;
            continue;
        }
        out += (u < 0x20 || u == 0x7f) ? ' ' : s[i];
    }
    return std::string(trim(out));
}

} // namespace sp::parse_util
