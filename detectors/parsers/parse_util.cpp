#include "detectors/parsers/parsed_probe.h"

#include <algorithm>
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

namespace {

bool isHexDigit(char c)
{
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

std::string_view stripQuoting(std::string_view line)
{
    // Markdown allows up to three spaces before '>'; replies nest "> > ".
    for (;;) {
        std::size_t i = 0;
        while (i < 3 && i < line.size() && line[i] == ' ')
            ++i;
        if (i >= line.size() || line[i] != '>')
            return line;
        line.remove_prefix(i + 1);
        if (!line.empty() && line.front() == ' ')
            line.remove_prefix(1);
    }
}

// "```bash" -> "", "```*******" -> "*******", "text```" -> "text".
std::string_view stripFence(std::string_view line)
{
    const std::string_view t = trim(line);
    for (const char mark : {'`', '~'}) {
        std::size_t run = 0;
        while (run < t.size() && t[run] == mark)
            ++run;
        if (run >= 3) {
            std::string_view rest = t.substr(run);
            bool word = true;
            for (char c : rest)
                word = word && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                                c == '-' || c == '+' || c == ' ');
            return word ? std::string_view() : rest;
        }
    }
    std::string_view out = line;
    while (out.size() >= 3 && out.substr(out.size() - 3) == "```")
        out.remove_suffix(3);
    return out;
}

// A leading "[...]" holding a date or time, or a first word that is one
// ("17:36:06-588150", "2024-05-01T11:05:13.123+03:00"). A PCI address ("0000:03:00.0")
// or a plain number is left alone: a time has 1-2 digits before its first colon, or a
// date before it.
bool looksLikeTimestamp(std::string_view s)
{
    s = trim(s);
    if (s.empty() || s.size() > 40)
        return false;
    int colons = 0, digits = 0;
    for (char c : s) {
        if (isDigit(c))
            ++digits;
        else if (c == ':')
            ++colons;
        else if (c != '-' && c != '/' && c != '.' && c != 'T' && c != 'Z' && c != '+' && c != ',' &&
                 c != ' ')
            return false;
    }
    const auto firstColon = s.find(':');
    if (digits < 4 || colons < 2 || firstColon == std::string_view::npos)
        return false;
    const std::string_view head = s.substr(0, firstColon);
    const bool dateFirst = head.find_first_of("-/T") != std::string_view::npos;
    return dateFirst || head.size() <= 2;
}

std::string_view stripTimestamp(std::string_view line)
{
    for (int round = 0; round < 2; ++round) {
        const std::string_view t = trim(line);
        if (!t.empty() && t.front() == '[') {
            const auto close = t.find(']');
            if (close != std::string_view::npos && looksLikeTimestamp(t.substr(1, close - 1))) {
                line = trim(t.substr(close + 1));
                continue;
            }
            return line;
        }
        const auto space = t.find(' ');
        if (space != std::string_view::npos && looksLikeTimestamp(t.substr(0, space))) {
            line = trim(t.substr(space + 1));
            continue;
        }
        return line;
    }
    return line;
}

} // namespace

std::string_view cleanLine(std::string_view line)
{
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    line = stripQuoting(line);
    line = stripFence(line);
    return stripTimestamp(line);
}

std::vector<std::string_view> cleanLines(std::string_view text)
{
    std::vector<std::string_view> lines = splitLines(text);
    for (auto& l : lines)
        l = l.size() > kMaxLineBytes ? std::string_view() : cleanLine(l);
    return lines;
}

bool isFenceLine(std::string_view line)
{
    const std::string_view t = trim(stripQuoting(line));
    return t.substr(0, 3) == "```" || t.substr(0, 3) == "~~~";
}

std::optional<std::uint16_t> deviceIdFromPlaceholder(std::string_view text)
{
    for (std::size_t at = text.find("Device "); at != std::string_view::npos;
         at = text.find("Device ", at + 1)) {
        if (at > 0 && std::isalnum(static_cast<unsigned char>(text[at - 1])))
            continue;
        const std::string_view id = text.substr(at + 7, 4);
        const bool endsThere = at + 11 >= text.size() || !isHexDigit(text[at + 11]);
        if (id.size() == 4 && endsThere && std::all_of(id.begin(), id.end(), isHexDigit)) {
            if (auto v = hexNumber(id, 4))
                return static_cast<std::uint16_t>(*v);
        }
    }
    return std::nullopt;
}

std::optional<std::uint64_t> hexNumber(std::string_view s, std::size_t maxDigits)
{
    s = trim(s);
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s.remove_prefix(2);
    else if (!s.empty() && (s.back() == 'h' || s.back() == 'H'))
        s.remove_suffix(1);
    if (s.empty() || s.size() > maxDigits || s.size() > 16)
        return std::nullopt;
    std::uint64_t v = 0;
    for (char c : s) {
        if (!isHexDigit(c))
            return std::nullopt;
        v = v * 16 +
            static_cast<std::uint64_t>(isDigit(c) ? c - '0' : (std::tolower(c) - 'a' + 10));
    }
    return v;
}

std::string busFromNvidia(std::string_view v)
{
    std::string s = lower(trim(v));
    const auto colon = s.find(':');
    if (colon == std::string::npos || colon < 4 || s.size() - colon != 8)
        return {};
    if (s.find_first_not_of('0') < colon - 4)
        return {}; // a domain wider than 16 bits
    s = s.substr(colon - 4);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const bool sep = i == 4 || i == 7 || i == 10;
        if (sep ? (c != (i == 10 ? '.' : ':')) : !isHexDigit(c))
            return {};
    }
    return s;
}

std::string gfxFromVersion(long long major, long long minor, long long stepping)
{
    // Targets start at gfx6 (GCN 1); minor and stepping are one hex digit each.
    if (major < 6 || major > 99 || minor < 0 || minor > 15 || stepping < 0 || stepping > 15)
        return {};
    static const char digits[] = "0123456789abcdef";
    return "gfx" + std::to_string(major) + digits[minor] + digits[stepping];
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

bool looksLikeComputeCap(std::string_view v)
{
    v = trim(v);
    const auto dot = v.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot > 2 || v.size() != dot + 2)
        return false;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i != dot && !isDigit(v[i]))
            return false;
    }
    return true;
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
