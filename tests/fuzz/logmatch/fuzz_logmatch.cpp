// libFuzzer target: arbitrary bytes as a workload log through the matcher compiled
// from the real profiles/catalog/known-issues.json. Checks that chunked, batch and
// line-at-a-time scans agree and that every excerpt is valid UTF-8 without control
// characters.

#include "core/logmatch/matcher.h"
#include "tests/support/fuzz_input.h"
#include "tests/support/fuzz_known_issues.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

bool validUtf8(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f)
            return false;
        std::size_t n = c < 0x80         ? 1
                        : (c >> 5) == 6  ? 2
                        : (c >> 4) == 14 ? 3
                        : (c >> 3) == 30 ? 4
                                         : 0;
        if (n == 0 || (n > 1 && c < 0xC2) || i + n > s.size())
            return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
                return false;
        i += n;
    }
    return true;
}

bool same(const std::vector<sp::logmatch::LogMatch>& a,
          const std::vector<sp::logmatch::LogMatch>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].knownIssue != b[i].knownIssue || a[i].line != b[i].line ||
            a[i].count != b[i].count || a[i].excerpt != b[i].excerpt)
            return false;
    return true;
}

// Reported later than its first line: an issue with a log condition (log_requires), a
// cause that waits for its context, or one a cause may outrank on its line.
bool heldBack(const sp::logmatch::LogMatcher& m, const std::string& issue)
{
    for (const auto& ki : m.issues()) {
        for (const auto& c : ki.causes)
            if ((ki.id == issue && !c.when.empty()) ||
                std::find(c.over.begin(), c.over.end(), issue) != c.over.end())
                return true;
        if (ki.id == issue && !ki.logRequires.empty())
            return true;
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = sp::fuzz::bytesOf(data, size);
    const auto& m = sp::fuzz::shippedMatcher();

    sp::logmatch::LogScan whole(m);
    whole.feedBytes(text);
    whole.finish();

    const std::size_t chunk = 1 + sp::fuzz::firstByte(data, size) % 17;
    sp::logmatch::LogScan chunked(m);
    sp::fuzz::forEachChunk(text, chunk, [&chunked](std::string_view c) { chunked.feedBytes(c); });
    chunked.finish();

    sp::logmatch::LogScan lines(m);
    sp::fuzz::forEachLogLine(text, [&lines](std::string_view line) { lines.feed(line); });
    lines.flush(); // what waited for a cause's context, as finish() does

    if (!same(whole.matches(), chunked.matches()) || !same(whole.matches(), lines.matches()) ||
        whole.lineCount() != lines.lineCount())
        std::abort();
    // Matches come in the order of their first line, except the issues heldBack names,
    // reported when their condition or context shows, after those already reported
    // (core/logmatch/matcher.h): the order is checked among the others.
    std::size_t previous = 0;
    for (const auto& match : whole.matches()) {
        if (match.line == 0 || match.line > whole.lineCount() || match.count == 0 ||
            !validUtf8(match.excerpt) || match.excerpt.size() > sp::logmatch::kExcerptBytes + 8)
            std::abort();
        if (heldBack(m, match.knownIssue))
            continue;
        if (match.line < previous)
            std::abort();
        previous = match.line;
    }
    return 0;
}
