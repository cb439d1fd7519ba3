#pragma once
// GPU detection from Linux sysfs: KFD topology nodes (gfx target, compute units)
// joined with DRM cards (PCI ids, revision, memory sizes, bus address). `sysRoot`
// stands where /sys would be, so tests point it at a fake tree. Nothing here
// throws or trusts a file: a value that does not parse is left unset.

#include "core/snapshot.h"
#include "detectors/parsers/kfd_properties.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sp::sysfs {

// KFD properties are parsed by the same code that reads pasted ones (import).
using sp::gfxFromTargetVersion;
using sp::KfdProperties;
using sp::parseKfdProperties;

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
