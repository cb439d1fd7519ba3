#pragma once
// GPU detection from Linux sysfs: KFD topology nodes (gfx target, compute units)
// joined with DRM cards (PCI ids, revision, memory sizes, bus address). `sysRoot`
// stands where /sys would be, so tests point it at a fake tree. Nothing here
// throws or trusts a file: a value that does not parse is left unset.

#include "core/snapshot.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sp::sysfs {

struct KfdProperties
{
    std::uint64_t gfxTargetVersion = 0; // 0 = CPU node
    std::uint32_t vendorId = 0;
    std::uint32_t deviceId = 0;
    std::optional<std::uint64_t> uniqueId;
    std::optional<std::uint32_t> locationId; // PCI bus << 8 | device << 3 | function
    std::optional<std::uint32_t> domain;
    std::uint64_t simdCount = 0;
    std::uint64_t simdPerCu = 0;
};

// Parses a KFD node's `properties` file ("name value" lines, decimal). Unknown
// keys and malformed lines are skipped.
KfdProperties parseKfdProperties(std::string_view text);

// 100301 -> "gfx1031", 90012 -> "gfx90c", 90010 -> "gfx90a"; nullopt for 0 (a CPU
// node) or values that name no target.
std::optional<std::string> gfxFromTargetVersion(std::uint64_t version);

// "0000:03:00.0" from bus-address-looking text, else empty.
std::string pciBusFromName(std::string_view name);

std::vector<GpuInfo> detectGpus(const std::filesystem::path& sysRoot);

// sysRoot/module/amdgpu/version (absent for the in-kernel driver); printable
// ASCII only.
std::optional<std::string> amdgpuVersion(const std::filesystem::path& sysRoot);

// Opens the KFD device read-write, as ROCm does: "ok", "missing", or "failed"
// with the reason (most often the user is not in the render group).
ProbeResult checkKfdAccess(const std::filesystem::path& devKfd);

} // namespace sp::sysfs
