#pragma once
// What every front end plans with: the session's context (catalog, machine, files) and the
// one function that turns it and the user's settings into a workload's plan. `run`, the
// window's cards and `plan` call it, so they choose the same stack on the same PC.

#include "core/catalog/types.h"
#include "core/evidence/evidence.h"
#include "core/expected.h"
#include "core/launch/env_composer.h"
#include "core/remedy/remedy.h"
#include "core/select/select.h"
#include "core/settings.h"
#include "core/snapshot.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sp::session {

struct Context
{
    const Catalog* catalog = nullptr; // outlives the session
    HardwareSnapshot snapshot;
    std::filesystem::path settingsFile; // empty: Settings::defaultFile()
    std::filesystem::path prefixRoot;   // empty: <data>/runtimes
    std::filesystem::path modelsRoot;   // empty: <data>/models (the model vault)
    EnvMap userEnv;                     // what the workload's environment starts from
    std::filesystem::path evidenceFile; // empty: EvidenceStore::defaultFile()
    std::string catalogVersion;         // for the evidence records; "" = "shipped"
    // The GPU to plan for as the user named it (--gpu INDEX|PCI-BUS|NAME), which wins
    // over the workload's remembered GPU (settings) and the default rule; "" = neither.
    std::string gpuSpec;
    // A recorded machine (--hardware, a bundle): plans only. Nothing of this PC's state
    // is written, and no job runs.
    bool recorded = false;
};

// The context every front end starts from: the catalog, this machine, and the
// environment the workload's starts from; the folders and files are the defaults.
inline Context contextFor(const Catalog* catalog, HardwareSnapshot snapshot, EnvMap userEnv = {})
{
    Context c;
    c.catalog = catalog;
    c.snapshot = std::move(snapshot);
    c.userEnv = std::move(userEnv);
    return c;
}

// This machine's smoke-test records on card `gpu` (an index into the snapshot's GPUs):
// a stack that passed on one card is not "passed here" for another.
Expected<std::map<std::string, LocalVerdict>> machineVerdicts(const Context& c,
                                                              std::optional<int> gpu);

// The GPU a plan for `workload` is made for: --gpu (c.gpuSpec), else the workload's
// remembered GPU in `settings`, else the default rule; nullopt when there is none.
std::optional<int> plannedGpu(const Context& c, const Settings* settings,
                              const std::string& workload);

// The lines a run shows about that choice before it plans: a GPU chosen in settings that
// is gone from this PC, named, with the default rule taking over (issue 31).
std::vector<std::string> gpuNotes(const Context& c, const Settings* settings,
                                  const std::string& workload);

// The base every plan starts from: the host's folders, this machine's verdicts (a damaged
// evidence file costs only them: `note` then says so), the downloads pinned here, and the
// profiles a run moved away from.
SelectSettings selectBaseFor(const Context& c, const std::vector<std::string>& excluded = {},
                             std::string* note = nullptr);

// The workload's plan with the user's settings: `profile` when given, else the settings'
// choice (unless it is among `base.excludeProfiles`), else the best.
Expected<Plan> planFor(const Context& c, const Settings& settings, const std::string& workload,
                       SelectSettings base, const std::string& profile = {});

// The catalog's models for `workload`, smallest first.
std::vector<const Model*> modelsOf(const Catalog& catalog, const std::string& workload);
// Whether the model's min_vram_mb fits card `gpu` (an index into the snapshot's GPUs);
// nullopt when the card, its memory or the model's need is not known.
std::optional<bool> modelFits(const Context& c, const Model& model, std::optional<int> gpu);
// The model a run of `workload` uses when none is named: the one chosen on its card
// (settings workloads.<id>.model), else the largest of its catalog models that fits the
// planned card (the smallest when none is known to); "" when the workload takes no model.
std::string modelFor(const Context& c, const Settings& settings, const std::string& workload);
// A choice saved for an app with model folders: pull nothing, run on what they hold.
inline constexpr const char* kNoModel = "none";

// What `plan` says of a workload's model (modelFor): which, how large, whether it fits
// the planned card and why, and whether it is in the vault already (else the first run
// pulls it). Empty id: the workload takes no model.
struct ModelChoice
{
    std::string id; // a catalog model, or the user's file
    std::string name;
    std::uint64_t bytes = 0;
    std::optional<bool> fits;
    bool inVault = false;
    bool userFile = false; // not a catalog model: the user's file, used where it is
    std::string why;       // the fit in words: layers on the GPU and context, or memory needed
};
ModelChoice describeModel(const Context& c, const Settings& settings, const std::string& workload);
nlohmann::json toJson(const ModelChoice& m);

// Applies the known issue's remedy to `settings` in memory: the banner's words before the
// user presses it (on a copy), or a recorded PC's settings, which are never written.
// Nothing is read or written.
Expected<RemedyChange> remedyPreview(const Context& c, Settings& settings, const std::string& issue,
                                     const std::string& workload, const SelectSettings& base);

} // namespace sp::session
