#pragma once
// Typed conditions: a profile's `match` and a known issue's `applies`, parsed once
// when the catalog is loaded (core/catalog/condition_reader.cpp) and evaluated by
// the selection engine (core/select/conditions.cpp) without touching JSON again.
// docs/CATALOG.md lists every key and what it means.

#include "core/catalog/version_range.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sp {

// A version range together with the text it was written as, for messages.
struct RangeCondition
{
    VersionRange range;
    std::string text;
};

// `applies.runtimes[]`: a runtime of the candidate profile with this id and/or kind,
// optionally within a version range.
struct RuntimeCondition
{
    std::string id;   // empty = any id
    std::string kind; // empty = any kind
    std::optional<RangeCondition> version;
};

struct Conditions
{
    std::vector<std::string> os; // empty = any OS
    // The OS build: on Windows the third part of the kernel version 10.0.BUILD (Windows 11 is
    // 22000 and later); unknown counts as unmet.
    std::optional<RangeCondition> osBuild;
    std::vector<std::string> vendors; // "amd" | "nvidia" | "intel"; empty = any
    std::vector<std::string> gfx;     // "gfx1031" or a family pattern "gfx103*"
    std::vector<std::string> notGfx;
    std::optional<RangeCondition> computeCapability;
    std::optional<RangeCondition> driverVersion;
    std::optional<bool> integrated;
    std::optional<bool> networkHome;
    std::optional<std::int64_t> minVramMb;
    std::optional<std::int64_t> maxVramMb;            // holds at or below; unknown VRAM never holds
    std::vector<std::string> workloads;               // applies only
    std::vector<RuntimeCondition> runtimes;           // applies only
    bool hasRuntimes = false;                         // an empty `runtimes` list matches nothing
    nlohmann::json source = nlohmann::json::object(); // as written, for `profiles --json`

    bool empty() const
    {
        return os.empty() && !osBuild && vendors.empty() && gfx.empty() && notGfx.empty() &&
               !computeCapability && !driverVersion && !integrated && !networkHome && !minVramMb &&
               !maxVramMb && workloads.empty() && !hasRuntimes;
    }
};

} // namespace sp
