// Excerpts end up in JSON and on terminals, so they must be valid UTF-8 without
// control characters, whatever bytes the workload wrote.

#include "core/logmatch/matcher.h"
#include "core/text.h"

namespace sp::logmatch {

namespace {

bool isUtf8Tail(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

constexpr std::string_view kExcerptReplacement = "\xEF\xBF\xBD"; // U+FFFD
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";           // U+2026

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
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
        while (start < text.size() && isUtf8Tail(static_cast<unsigned char>(text[start])))
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
            out.append(kExcerptReplacement);
            ++i;
            continue;
        }
        const std::size_t len = utf8SequenceLength(text, i);
        if (len == 0) {
            out.append(kExcerptReplacement);
            ++i;
            continue;
        }
        out.append(text.substr(i, len));
        i += len;
    }
    return out;
}

} // namespace sp::logmatch
