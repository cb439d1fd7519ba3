#pragma once
// The selection engine: (snapshot, catalog, workload, settings) -> plan.
//
// GPU choice: discrete over integrated, then the most VRAM, then the lower index.
// The GPU is pinned by its index among the snapshot's GPUs of the same vendor; we
// assume detection lists them in the order the runtime enumerates them (KFD node
// order on Linux AMD, adapter order for HIP on Windows, PCI bus order for CUDA,
// which the plan enforces with CUDA_DEVICE_ORDER=PCI_BUS_ID).
//
// Ranking of the profiles that match and are not rejected by a known issue:
// non-fallback first, then tested > community > experimental, then specificity of
// `match`, then newer runtime versions (compared kind by kind), then id.

#include "core/catalog/types.h"
#include "core/expected.h"
#include "core/select/plan.h"
#include "core/snapshot.h"

#include <optional>
#include <string>

namespace sp {

struct SelectSettings
{
    std::string
        dataDir; // {data}; runtimes live in <data>/runtimes/<id> unless install_dir says otherwise
    std::string cacheDir; // {cache}; also where caches go when the home is on a network filesystem,
                          // unless cacheDir is itself under that home (then localCacheDir)
    std::string localCacheDir; // optional override for the relocated caches
    std::string profile;       // force this profile (still refused if rejected)
};

// Picks the GPU a plan uses, or nullopt when the snapshot has none of amd/nvidia/intel.
std::optional<int> chooseGpu(const HardwareSnapshot& snapshot);

// Errors: usage (unknown workload or profile), runtime (the forced profile is
// rejected). When no profile fits, the plan has an empty `profile` and says why
// in `alternatives`.
Expected<Plan> makePlan(const HardwareSnapshot& snapshot, const Catalog& catalog,
                        const std::string& workload, const SelectSettings& settings);

// The HSA_OVERRIDE_GFX_VERSION convention for a gfx without native kernels
// ("gfx1031" -> "10.3.0"), or nullopt where none is known.
std::optional<std::string> hsaOverrideFor(const std::string& gfx);

} // namespace sp
