#pragma once
// Small string helpers used across the code base, header-only and plain C++ (the
// Windows detector and the probe are built without Qt): ASCII-only on purpose, since
// they handle keys, ids, hex and tool output, never a user's text in other scripts.

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sp {

inline bool isAsciiSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

inline std::string_view trim(std::string_view s)
{
    while (!s.empty() && isAsciiSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isAsciiSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// Whether `list` holds `item` (ids, keys, names: short lists).
inline bool contains(const std::vector<std::string>& list, std::string_view item)
{
    for (const auto& x : list)
        if (x == item)
            return true;
    return false;
}

inline std::string lower(std::string_view s)
{
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

inline bool startsWithNoCase(std::string_view s, std::string_view prefix)
{
    if (s.size() < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) !=
            std::tolower(static_cast<unsigned char>(prefix[i])))
            return false;
    return true;
}

// Parts joined with `sep` between them, from index `from` on.
inline std::string join(const std::vector<std::string>& parts, std::string_view sep,
                        std::size_t from = 0)
{
    std::string out;
    for (std::size_t i = from; i < parts.size(); ++i) {
        if (i > from)
            out += sep;
        out += parts[i];
    }
    return out;
}

// Lower-case hex, zero-padded to `width` digits (more when the value needs them).
inline std::string hex(std::uint64_t v, int width)
{
    static const char digits[] = "0123456789abcdef";
    std::string out;
    do {
        out.insert(out.begin(), digits[v & 0xf]);
        v >>= 4;
    } while (v);
    if (static_cast<int>(out.size()) < width)
        out.insert(0, static_cast<std::size_t>(width) - out.size(), '0');
    return out;
}

} // namespace sp
