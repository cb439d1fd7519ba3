#pragma once
// How numbers and statuses read to a person, in one place: the CLI's tables and the
// window's panels print the same VRAM, sizes, speeds and times. Plain ASCII units
// (KiB, MiB, GiB) so a terminal, a log and a screenshot agree.

#include "core/snapshot.h"

#include <cstdint>
#include <optional>
#include <string>

namespace sp::format {

// 980 KiB, 512 MiB, 1.5 GiB: whole KiB/MiB below a GiB, one decimal above.
std::string bytes(std::uint64_t n);
// bytes() of a rate, with "/s".
std::string rate(double bytesPerSecond);
// A memory size given in MiB (VRAM): 512 MiB, 12.0 GiB; "-" when unknown.
std::string vramMb(const std::optional<std::int64_t>& mb);
// 45 s, 3 min 05 s, 2 h 10 min; "-" for a negative or unknown time.
std::string duration(double seconds);
// The GPU's build target: "gfx1031", "sm 8.6", or "-".
std::string gpuTarget(const GpuInfo& g);

} // namespace sp::format
