#pragma once
// What one probe (a vendor library in stackpilot-probe, or a vendor tool) said,
// turned into snapshot values. Parsers are pure functions on text so that they
// can be unit-tested on recorded outputs and fuzzed.

#include "core/snapshot.h"
#include "core/strings.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sp {

struct ParsedProbe
{
    ProbeResult probe;
    std::vector<GpuInfo> gpus;
    std::vector<RuntimeInfo> runtimes;
};

namespace parse_util {
using sp::lower; // core/strings.h
using sp::trim;
std::vector<std::string_view> splitLines(std::string_view text);
// "gfx1031:sramecc-:xnack-" -> "gfx1031"; returns empty unless it looks like gfxNNN.
std::string gfxFromTarget(std::string_view target);
// Leading decimal integer ("29663(0x73df)" -> 29663); nullopt when none or it overflows.
std::optional<long long> leadingInt(std::string_view s);
// Keeps untrusted text to one bounded, printable line for a report.
std::string clip(std::string_view s, std::size_t max = 200);

// Walks the "Key: value" lines of a tool's report (rocminfo, hipinfo): a line for
// which startsBlock(line) holds opens a block (it may record one); each later line with
// a colon goes to onField(key, value). Returns the first line, blocks or not, that
// holds one of errorWords (compared in lower case): the tool's own error message.
template <class StartFn, class FieldFn>
std::string scanKeyValueBlocks(std::string_view text, StartFn&& startsBlock,
                               std::initializer_list<std::string_view> errorWords,
                               FieldFn&& onField)
{
    std::string errorLine;
    bool inBlock = false;
    for (std::string_view raw : splitLines(text)) {
        const std::string_view line = trim(raw);
        if (startsBlock(line)) {
            inBlock = true;
            continue;
        }
        if (errorLine.empty()) {
            const std::string l = lower(line);
            for (const auto w : errorWords)
                if (l.find(w) != std::string::npos) {
                    errorLine = std::string(line);
                    break;
                }
        }
        const auto colon = line.find(':');
        if (!inBlock || colon == std::string_view::npos)
            continue;
        onField(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
    }
    return errorLine;
}
} // namespace parse_util

} // namespace sp
