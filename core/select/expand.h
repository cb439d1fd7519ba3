#pragma once
// Placeholder expansion for one plan (docs/CATALOG.md, "Placeholders"): {runtime:ID},
// {gfx}, {gpu_index}, {data}, {cache}, {python}, {base_python}, {venv}. Paths follow the
// snapshot's OS, not
// the host's, so a Windows user's snapshot plans Windows paths on Linux.

#include "core/catalog/types.h"
#include "core/snapshot.h"

#include <optional>
#include <string>

namespace sp {

struct SelectSettings;

class PlanExpander
{
public:
    PlanExpander(const HardwareSnapshot& snap, const Catalog& cat, const Profile& profile,
                 const GpuInfo* gpu, int vendorIndex, const SelectSettings& settings);

    std::string expand(const std::string& text) const;
    // Where runtime r lives once installed.
    std::string runtimeDir(const Runtime& r) const;
    std::string separator() const { return m_windows ? "\\" : "/"; }

private:
    std::optional<std::string> resolve(const std::string& name, int depth) const;
    // The interpreter of the profile's python runtime for the snapshot's OS.
    std::optional<std::string> basePython() const;

    const Catalog& m_catalog;
    const Profile& m_profile;
    const GpuInfo* m_gpu;
    int m_vendorIndex;
    const SelectSettings& m_settings;
    bool m_windows;
};

} // namespace sp
