// Excerpts end up in JSON and on terminals, so they must be valid UTF-8 without
// control characters, whatever bytes the workload wrote.

#include "core/logmatch/matcher.h"

namespace sp::logmatch {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";    // U+2026

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

bool isContinuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

// Length of a valid UTF-8 sequence starting at s[i], or 0 when it is invalid.
std::size_t sequenceLength(std::string_view s, std::size_t i)
{
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80)
        return 1;
    std::size_t len = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        len = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        len = 3;
        if (b0 == 0xE0)
            lo = 0xA0;
        else if (b0 == 0xED)
            hi = 0x9F; // no UTF-16 surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        len = 4;
        if (b0 == 0xF0)
            lo = 0x90;
        else if (b0 == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (i + len > s.size())
        return 0;
    const auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b1 < lo || b1 > hi)
        return 0;
    for (std::size_t k = 2; k < len; ++k)
        if (!isContinuation(static_cast<unsigned char>(s[i + k])))
            return 0;
    return len;
}

} // namespace

std::string makeExcerpt(std::string_view line, std::size_t focus)
{
    std::size_t b = 0;
    std::size_t e = line.size();
    while (b < e && isSpace(line[b]))
        ++b;
    while (e > b && isSpace(line[e - 1]))
        --e;
    focus = focus > b ? focus - b : 0;
    std::string_view text = line.substr(b, e - b);

    std::string out;
    out.reserve(kExcerptBytes + 8);
    // Keep the match in view: start a little before it when it lies past the cut.
    constexpr std::size_t lead = 60;
    if (text.size() > kExcerptBytes && focus > kExcerptBytes - lead) {
        std::size_t start = focus - lead;
        while (start < text.size() && isContinuation(static_cast<unsigned char>(text[start])))
            ++start;
        text.remove_prefix(start);
        out.append(kEllipsis);
    }

    std::size_t i = 0;
    while (i < text.size()) {
        if (out.size() >= kExcerptBytes) {
            out.append(kEllipsis);
            break;
        }
        const char c = text[i];
        const auto uc = static_cast<unsigned char>(c);
        if (c == '\t') {
            out.push_back(' ');
            ++i;
            continue;
        }
        if (uc < 0x20 || uc == 0x7F) {
            out.append(kReplacement);
            ++i;
            continue;
        }
        const std::size_t len = sequenceLength(text, i);
        if (len == 0) {
            out.append(kReplacement);
            ++i;
            continue;
        }
        out.append(text.substr(i, len));
        i += len;
    }
    return out;
}

} // namespace sp::logmatch
