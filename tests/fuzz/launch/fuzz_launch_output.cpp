// libFuzzer target: arbitrary bytes as a workload's output through the launch
// pipeline (line splitting, code-page decoding, ANSI stripping, URL spotting, the
// matcher from the real known-issues.json, the log). Checks that every line event is
// valid UTF-8, that the log holds no escape sequences, that chunking does not change
// the lines, and that every URL is a browsable http(s) URL.

#include "core/launch/output.h"
#include "tests/support/fuzz_input.h"
#include "tests/support/fuzz_known_issues.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Seen
{
    std::vector<std::string> lines;
    std::string log;
};

Seen run(std::string_view bytes, std::size_t chunk, unsigned codePage)
{
    Seen seen;
    std::FILE* log = std::tmpfile();
    sp::OutputPipeline p(
        &sp::fuzz::shippedMatcher(), {}, codePage,
        [&](const sp::events::FromLaunch& e) {
            if (const auto* line = std::get_if<sp::events::ConsoleLine>(&e))
                seen.lines.push_back(line->text);
            if (const auto* announced = std::get_if<sp::events::UrlAnnounced>(&e)) {
                const std::string& url = announced->url;
                // Browsable: the host is never the wildcard (a path may still name it).
                const std::size_t host = url.find("://");
                if (url.rfind("http", 0) != 0 || host == std::string::npos ||
                    url.compare(host + 3, 7, "0.0.0.0") == 0)
                    std::abort();
                for (char c : url)
                    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == ' ')
                        std::abort();
            }
        },
        log);
    sp::fuzz::forEachChunk(bytes, chunk, [&p](std::string_view c) { p.feed(false, c); });
    p.finish();
    std::rewind(log);
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, log)) > 0;)
        seen.log.append(buf, n);
    std::fclose(log);
    return seen;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > (1 << 16))
        return 0;
    const std::string_view bytes = sp::fuzz::bytesOf(data, size);
    const unsigned codePage = sp::fuzz::firstByte(data, size) & 1 ? 936 : 0;
    const Seen whole = run(bytes, bytes.size() + 1, codePage);
    const Seen chunked = run(bytes, 1 + size % 7, codePage);
    if (whole.lines != chunked.lines || whole.log != chunked.log)
        std::abort();
    for (const std::string& line : whole.lines)
        if (!sp::isValidUtf8(line))
            std::abort();
    if (whole.log.find('\x1b') != std::string::npos)
        std::abort();
    return 0;
}
