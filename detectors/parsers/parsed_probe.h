#pragma once
// What one probe (a vendor library in stackpilot-probe, or a vendor tool) said,
// turned into snapshot values. Parsers are pure functions on text so that they
// can be unit-tested on recorded outputs and fuzzed.

#include "core/snapshot.h"

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
std::string_view trim(std::string_view s);
std::vector<std::string_view> splitLines(std::string_view text);
std::string lower(std::string_view s);
// "gfx1031:sramecc-:xnack-" -> "gfx1031"; returns empty unless it looks like gfxNNN.
std::string gfxFromTarget(std::string_view target);
// Leading decimal integer ("29663(0x73df)" -> 29663); nullopt when none or it overflows.
std::optional<long long> leadingInt(std::string_view s);
// Keeps untrusted text to one bounded, printable line for a report.
std::string clip(std::string_view s, std::size_t max = 200);
} // namespace parse_util

} // namespace sp
