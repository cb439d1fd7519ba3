#pragma once
// Small string helpers for the test server's request and fault parsing.

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace sp::test {

inline std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const auto pos = s.find(sep, start);
        out.push_back(s.substr(start, pos - start));
        if (pos == std::string::npos)
            return out;
        start = pos + 1;
    }
}

// The whole string as a decimal integer, or nothing.
inline std::optional<long long> toNumber(const std::string& s)
{
    if (s.empty())
        return std::nullopt;
    try {
        std::size_t used = 0;
        const long long v = std::stoll(s, &used);
        if (used != s.size())
            return std::nullopt;
        return v;
    } catch (...) {
        return std::nullopt;
    }
}

// The lines of a text file (a stand-in's recorded arguments), empty when it is missing.
inline std::vector<std::string> readLines(const std::filesystem::path& file)
{
    std::ifstream in(file);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

} // namespace sp::test
