#pragma once
// Evaluates a profile's `match` and a known issue's `applies` (typed Conditions,
// parsed at load time) against the snapshot, the chosen GPU and a candidate profile.

#include "core/catalog/types.h"
#include "core/snapshot.h"

#include <string>
#include <vector>

namespace sp {

struct MatchContext
{
    const HardwareSnapshot& snapshot;
    const GpuInfo* gpu; // null: no GPU was chosen (CPU only)
    const Catalog& catalog;
    const Profile* profile; // the candidate, for `workloads` and `runtimes` conditions
};

// Texts of the conditions that do not hold; empty means all hold.
std::vector<std::string> unmetConditions(const Conditions& conditions, const MatchContext& ctx);
// "gfx103*" matches gfx1030..gfx103f; otherwise exact.
bool gfxMatches(const std::string& pattern, const std::string& gfx);
bool anyGfxMatches(const std::vector<std::string>& patterns, const std::string& gfx);
// A runtime condition (`applies.runtimes[]`, `when_runtime[]`) holds for r.
bool runtimeMatches(const RuntimeCondition& want, const Runtime& r);
// How narrow a `match` is: more conditions and exact gfx lists rank higher.
int specificity(const Conditions& match);
bool homeIsNetwork(const HardwareSnapshot& s);

} // namespace sp
