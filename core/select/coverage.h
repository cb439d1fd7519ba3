#pragma once
// The coverage report (`stackpilot-cli profiles --coverage`): for a list of common
// GPUs (profiles/gpu/coverage-gpus.json) and every workload on every OS, the profile
// that selection chooses, or why the machine falls back to the CPU. The same plans the
// user would get: it calls makePlan on a snapshot of each card.

#include "core/catalog/types.h"
#include "core/expected.h"
#include "core/select/select.h"
#include "core/snapshot.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sp {

struct CoverageCell
{
    std::string profile; // empty: no profile at all
    bool gpu = false;    // a GPU stack (not a fallback)
    std::string status;  // the chosen profile's status (tested, community, experimental)
    // The plan itself says the GPU is unsupported (a warning with "unsupported" or
    // "not supported"): a GPU stack that does not count as serving the card.
    bool calledUnsupported = false;
    std::string note; // the reason for a CPU fallback or for no profile
};

struct CoverageRow
{
    GpuInfo gpu;
    std::vector<CoverageCell> cells; // one per column
};

struct CoverageTable
{
    std::vector<std::pair<std::string, std::string>> columns; // (workload, os)
    std::vector<CoverageRow> rows;
};

// The card list and, optionally, the workloads shown as columns (empty = every one).
struct CoverageList
{
    std::vector<GpuInfo> gpus;
    std::vector<std::string> workloads;
};

// Reads the card list; errors name the file and position.
Expected<CoverageList> loadCoverageList(const std::filesystem::path& file);
// Columns: each of `workloads` (all of the catalog's when empty) on each of `oses`.
CoverageTable coverage(const Catalog& cat, const std::vector<GpuInfo>& gpus,
                       const std::vector<std::string>& oses, const SelectSettings& settings,
                       const std::vector<std::string>& workloads = {});
// Whether one of the plan's warnings calls the GPU unsupported.
bool planCallsUnsupported(const Plan& plan);

} // namespace sp
