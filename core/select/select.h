#pragma once
// The selection engine: (snapshot, catalog, workload, settings) -> plan.
//
// GPU choice: the GPU `--gpu` names, else the one settings.json remembers for the
// workload, else discrete over integrated, then the most VRAM, then the lower index
// (core/select/gpu_choice.h). The plan is made for that card (its gfx target or compute
// capability, its memory) and pins it with the variables the profile's runtimes declare
// ("visible_devices"), each set to the index that API gives the card, learned from the
// snapshot where a tool showed it and otherwise named as a belief (core/select/visibility.h).
//
// A plan is built in stages (core/select/rank.h, env_stages.h, expand.h): rank the
// profiles, pin the GPU, apply the gfx override, relocate caches, expand placeholders.
// docs/CATALOG.md describes the rules.

#include "core/catalog/types.h"
#include "core/evidence/evidence.h"
#include "core/expected.h"
#include "core/gpu_identity.h"
#include "core/select/plan.h"
#include "core/snapshot.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sp {

struct SelectSettings
{
    std::string
        dataDir; // {data}; runtimes live in <data>/runtimes/<id> unless install_dir says otherwise
    std::string cacheDir; // {cache}; also where caches go when the home is on a network filesystem,
                          // unless cacheDir is itself under that home (then localCacheDir)
    std::string localCacheDir; // optional override for the relocated caches
    std::string profile;       // force this profile (refused if rejected, unless:)
    // The user confirmed the forced profile although a known issue rejects it: plan it,
    // with the reasons as warnings. A profile for another OS or vendor is still refused.
    bool acceptRejected = false;
    // Per-workload overrides that remedies write (settings.json "workloads";
    // selectSettingsFor in core/select/workload_overrides.h fills them).
    std::map<std::string, std::string> env; // added to the plan's env (templates)
    std::vector<std::string> args;          // appended to the plan's args (templates)
    bool relocateCaches = false;            // move caches to a local disk even on a local home
    std::vector<std::string> repair;        // runtime ids to reinstall: the plan's `repair`
    // Profiles never chosen (listed as rejected): how a remedy asks for "the next best".
    std::vector<std::string> excludeProfiles;
    // What this machine's smoke tests say, by profile id (core/evidence): ranks a
    // profile that passed here first and one that failed here last.
    std::map<std::string, LocalVerdict> localVerdicts;
    // URLs of artifacts the catalog does not pin whose digest this machine recorded on
    // first download (installers/pin_store.h): the plan says "pinned here" for them.
    std::set<std::string> pinnedHere;
    // A lab's "allowed_profiles" (settings.json): every other profile is rejected.
    std::vector<std::string> allowedProfiles;
    // The GPU to plan for: `gpuSpec` (--gpu INDEX|PCI-BUS|NAME) wins over `gpuChoice`
    // (settings.json workloads.<id>.gpu); neither: chooseGpu's rule.
    std::string gpuSpec;
    std::optional<GpuIdentity> gpuChoice;
};

// The reason a plan gives a variable of the workload's settings (`env`), set by hand or
// by a remedy: the composed environment shows it as the user's choice.
inline constexpr const char* kUserEnvChoice =
    "the user's choice (settings.json, this workload's env)";

// Appends `extra` (a workload's `args` from settings) to `args`, flag by flag: a flag
// with the values after it ("--fixed", "yes") is one unit, left out only when `args`
// already holds that whole unit in order.
void appendArgs(std::vector<std::string>& args, const std::vector<std::string>& extra);

// Picks the GPU a plan uses, or nullopt when the snapshot has none of amd/nvidia/intel.
std::optional<int> chooseGpu(const HardwareSnapshot& snapshot);

// Errors: usage (unknown workload or profile), runtime (the forced profile is
// rejected). When no profile fits, the plan has an empty `profile` and says why
// in `alternatives`.
Expected<Plan> makePlan(const HardwareSnapshot& snapshot, const Catalog& catalog,
                        const std::string& workload, const SelectSettings& settings);

// The folders a plan uses for a snapshot: the host's own, except that a snapshot from
// another OS (a user's bundle) gets that OS's default folders under its own home, so
// paths read as they will on that machine. `portable` (STACKPILOT_HOME is set) keeps
// the host's folders.
SelectSettings settingsForSnapshot(const HardwareSnapshot& snap, SelectSettings host,
                                   bool portable);
// settingsForSnapshot with this host's folders (paths::dataDir(), cacheDir()) and
// portable mode from STACKPILOT_HOME: what every front end plans with.
SelectSettings hostSelectSettings(const HardwareSnapshot& snap);

} // namespace sp
