#pragma once
// Stage 1 of a plan: every profile of the workload is checked against the machine
// (its `match`, the OS of its runtimes, gfx support, known issues that reject it)
// and those that fit are ranked.
//
// Ranking of the fitting profiles: non-fallback first, then tested > community >
// experimental, then the profile's `preference` (higher first), then routes whose downloads
// all have URL evidence before those with an artifact marked url_unverified, then gfx support
// (native > library pack > override), then the specificity of `match`, then newer
// runtime versions (kind by kind), then id.

#include "core/catalog/types.h"
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
};

std::vector<Candidate> evaluateCandidates(const HardwareSnapshot& snap, const Catalog& cat,
                                          const std::string& workload, const GpuInfo* gpu);
// The fitting candidates, best first.
std::vector<const Candidate*> rankFitting(const std::vector<Candidate>& all, const Catalog& cat);
// The other fitting profiles in rank order with why they ranked lower, then the rejected ones.
std::vector<PlanAlternative> describeAlternatives(const std::vector<Candidate>& all,
                                                  const std::vector<const Candidate*>& fitting,
                                                  const Candidate* chosen, const Catalog& cat);

} // namespace sp
