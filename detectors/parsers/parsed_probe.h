#pragma once
// What one probe (a vendor library in stackpilot-probe, or a vendor tool) said,
// turned into snapshot values. Parsers are pure functions on text so that they
// can be unit-tested on recorded outputs and fuzzed.

#include "core/snapshot.h"
#include "core/strings.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sp {

// No parse reports more GPUs than this, whatever the input holds (a bound for hostile
// input: merging lists is quadratic in their length).
inline constexpr std::size_t kMaxParsedGpus = 64;

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
// One line of tool output with what a paste adds around it removed: a trailing CR, "> "
// quoting (nested too), a Markdown code fence at the start ("```bash", or glued to the
// output: "```*******") or at the end, and a leading timestamp ("[06/23/2021-13:23:23]",
// "17:36:06-588150", "2024-05-01T11:05:13.123+03:00"). Raw tool output comes through
// unchanged, so detection and import read lines the same way.
std::string_view cleanLine(std::string_view line);
// No tool prints a line longer than this; cleanLines reads a longer one as a blank line,
// which bounds what every parser of pasted text does per line.
inline constexpr std::size_t kMaxLineBytes = 64 * 1024;
// splitLines, then cleanLine on each; a line over kMaxLineBytes comes out empty.
std::vector<std::string_view> cleanLines(std::string_view text);
// True for a line that opens or closes a Markdown code fence (after any "> " quoting).
bool isFenceLine(std::string_view line);
// "Device 687f", "[AMD/ATI] Device 73df (rev c1)": the placeholder tools print for a PCI
// device id they have no name for. nullopt when the text holds no such placeholder.
std::optional<std::uint16_t> deviceIdFromPlaceholder(std::string_view text);
// Hex digits with an optional 0x prefix and an optional h suffix ("1002h"); nullopt when
// empty, not hex, or longer than maxDigits.
std::optional<std::uint64_t> hexNumber(std::string_view s, std::size_t maxDigits = 16);
// "00000000:01:00.0" (NVIDIA's 8-digit domain) or "0000:01:00.0" -> "0000:01:00.0"; empty
// when it is no bus id or its domain does not fit 16 bits ("03F8F31A:00:00.0").
std::string busFromNvidia(std::string_view v);
// Major/minor/stepping as the HIP runtime logs them ("9/4/2", "10/3/1") -> "gfx942",
// "gfx1031"; minor and stepping are one hex digit each. Empty when out of range.
std::string gfxFromVersion(long long major, long long minor, long long stepping);
// "gfx1031:sramecc-:xnack-" -> "gfx1031"; returns empty unless it looks like gfxNNN.
std::string gfxFromTarget(std::string_view target);
// An NVIDIA compute capability, "8.6" or "12.0" (surrounding blanks aside): one or two
// digits, a dot, one digit.
bool looksLikeComputeCap(std::string_view v);
// Leading decimal integer ("29663(0x73df)" -> 29663); nullopt when none or it overflows.
std::optional<long long> leadingInt(std::string_view s);
// Keeps untrusted text to one bounded, printable line for a report.
std::string clip(std::string_view s, std::size_t max = 200);

} // namespace parse_util

} // namespace sp
