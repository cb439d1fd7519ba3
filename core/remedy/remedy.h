#pragma once
// Applying a known issue's remedy, and undoing it. A remedy never edits the catalog or
// an installed runtime: it writes a per-workload override into the settings
// (settings.json "workloads"), recorded with what it replaced, and the next plan uses
// the override (core/select/workload_overrides.h). Undo restores exactly the
// recorded values. The front ends load and save the settings; this code only
// changes the value it is given, and leaves it untouched on any error.

#include "core/catalog/types.h"
#include "core/clock.h"
#include "core/expected.h"
#include "core/select/select.h"
#include "core/settings.h"
#include "core/snapshot.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sp {

// The parts of a plan a remedy can change.
struct PlanSummary
{
    std::string profile; // empty when no profile fits
    std::map<std::string, std::string> env;
    std::vector<std::string> args;
    std::vector<std::string> repair;
};
PlanSummary summarize(const Plan& plan);

struct RemedyChange
{
    std::string issue;
    std::string workload;
    RemedyAction action = RemedyAction::Info;
    bool changed = false;             // false: nothing to do (already applied)
    std::string message;              // one line: what happened, in words
    std::vector<std::string> details; // one line per setting changed
    bool planned = false;             // planBefore/planAfter are filled
    PlanSummary planBefore;
    PlanSummary planAfter;
    // Variables whose value is new or different after the change, and arguments added.
    std::map<std::string, std::string> envAdded() const;
    std::vector<std::string> argsAdded() const;
};
nlohmann::json toJson(const RemedyChange& change);

// Applies the remedy of known issue `issueId` to `workload` (empty: the single workload
// the issue applies to). Errors: usage (unknown issue or workload, no single workload,
// an info remedy: advice only), runtime (nothing fits: no other profile, no runtime of
// the kind in the plan; or the plan with the change fails).
Expected<RemedyChange> applyRemedy(Settings& s, const Catalog& c, const HardwareSnapshot& snap,
                                   const std::string& issueId, const std::string& workload,
                                   const SelectSettings& base, const Clock& clock);

// Restores what the applied remedy replaced and forgets it. `workload` empty: the one
// workload it was applied to. Errors: runtime (not applied; a later remedy changed the
// same setting and must be undone first), usage (applied to several workloads).
Expected<RemedyChange> undoRemedy(Settings& s, const std::string& issueId,
                                  const std::string& workload);
// The same, with the plan before and after for the change's summary.
Expected<RemedyChange> undoRemedy(Settings& s, const Catalog& c, const HardwareSnapshot& snap,
                                  const std::string& issueId, const std::string& workload,
                                  const SelectSettings& base);

// After a launch has reinstalled the runtimes of the workload's `repair` list: forgets
// the repair_runtime remedies that asked for it (their effect is done, and the next
// launch must not reinstall again). Returns the issues forgotten.
std::vector<std::string> completeRepairs(Settings& s, const std::string& workload);

} // namespace sp
