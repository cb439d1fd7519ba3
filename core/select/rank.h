#pragma once
// Stage 1 of a plan: every profile of the workload is checked against the machine
// (its `match`, the OS of its runtimes, gfx support, known issues that reject it)
// and those that fit are ranked.
//
// Ranking of the fitting profiles: a profile whose smoke test failed on this machine (with
// this driver) last of all, then non-fallback first, then one that passed here (with this
// driver, then with an earlier one), then what other PCs with a card of this GPU family
// reported (the ledger's counts in the profile's proof: mostly passing, none, mostly
// failing), then
// tested > community >
// experimental, then the profile's `preference` (higher first), then routes whose downloads
// all have URL evidence before those with an artifact marked url_unverified, then gfx support
// (native > library pack > override), then the specificity of `match`, then newer
// runtime versions (kind by kind), then id.

#include "core/catalog/types.h"
#include "core/evidence/evidence.h"
#include "core/select/gpu_support.h"
#include "core/select/plan.h"
#include "core/snapshot.h"

#include <vector>

namespace sp {

struct Candidate
{
    const Profile* profile = nullptr;
    std::vector<PlanReason> rejections; // empty = fits
    int specificity = 0;
    ProfileGpuSupport support;
    // Runtimes of the profile with an artifact marked url_unverified (catalog order).
    std::vector<std::string> unverifiedUrls;
    // What this machine's records say about the profile (SelectSettings::localVerdicts).
    const LocalVerdict* verdict = nullptr;
    // What other PCs with a card of this GPU family reported (the profile's proof).
    const GpuFamilyProof* crowd = nullptr;
    std::string arch = {}; // the GPU family the profile runs on here ("" for a fallback)

    bool failedHere() const { return verdict && verdict->state == LocalVerdict::State::Failed; }
    int localRank() const { return verdict ? verdict->rank() : 2; }
    // 0: more of those PCs passed than failed; 1: no results or even; 2: more failed.
    int crowdRank() const
    {
        if (!crowd || crowd->passedInstalls == crowd->failedInstalls)
            return 1;
        return crowd->passedInstalls > crowd->failedInstalls ? 0 : 2;
    }
};

std::vector<Candidate> evaluateCandidates(const HardwareSnapshot& snap, const Catalog& cat,
                                          const std::string& workload, const GpuInfo* gpu);
// The fitting candidates, best first.
std::vector<const Candidate*> rankFitting(const std::vector<Candidate>& all, const Catalog& cat);
// What other PCs reported for the candidate's profile, in words for the plan: "passed on 20
// PCs with a gfx1031 card, 1 failed (last: 2026-11-20)"; "" with no results.
std::string sharedEvidenceOf(const Candidate& c);
// The other fitting profiles in rank order with why they ranked lower, then the rejected ones.
std::vector<PlanAlternative> describeAlternatives(const std::vector<Candidate>& all,
                                                  const std::vector<const Candidate*>& fitting,
                                                  const Candidate* chosen, const Catalog& cat);

} // namespace sp
