#include "core/select/select.h"

#include "core/catalog/placeholders.h"
#include "core/select/conditions.h"
#include "core/select/env_stages.h"
#include "core/select/expand.h"
#include "core/select/gpu_choice.h"
#include "core/select/rank.h"
#include "core/select/visibility.h"

#include <algorithm>

namespace sp {

namespace {

Expected<void> checkRequest(const Catalog& cat, const std::string& workloadId,
                            const SelectSettings& settings)
{
    if (!cat.workload(workloadId)) {
        std::string known;
        for (const auto& w : cat.workloads)
            known += (known.empty() ? "" : ", ") + w.id;
        return Error::usage("unknown workload '" + workloadId + "' (known: " + known + ")");
    }
    if (settings.profile.empty())
        return {};
    const Profile* forced = cat.profile(settings.profile);
    if (!forced)
        return Error::usage("unknown profile '" + settings.profile + "'");
    if (forced->workload != workloadId)
        return Error::usage("profile '" + settings.profile + "' is for workload '" +
                            forced->workload + "', not '" + workloadId + "'");
    return {};
}

// The best fitting candidate, or the forced one (refused when it does not fit).
Expected<const Candidate*> pickCandidate(const std::vector<Candidate>& all,
                                         const std::vector<const Candidate*>& fitting,
                                         const SelectSettings& settings)
{
    if (settings.profile.empty())
        return fitting.empty() ? nullptr : fitting.front();
    auto it = std::find_if(all.begin(), all.end(),
                           [&](const Candidate& c) { return c.profile->id == settings.profile; });
    if (it->rejections.empty())
        return &*it;
    const bool onlyKnownIssues =
        std::all_of(it->rejections.begin(), it->rejections.end(),
                    [](const PlanReason& r) { return !r.knownIssue.empty(); });
    if (settings.acceptRejected && onlyKnownIssues)
        return &*it;
    std::string why;
    for (const auto& r : it->rejections)
        why += "; " + r.text + (r.knownIssue.empty() ? "" : " [" + r.knownIssue + "]");
    return Error::runtime("profile '" + settings.profile + "' does not fit this machine" + why);
}

// The card as the plan sees it: an integrated GPU chosen on purpose counts the memory it
// shares with the CPU (GTT) as its own.
GpuInfo planCard(const GpuInfo& g)
{
    GpuInfo card = g;
    if (g.integrated.value_or(false) && g.gttMb && *g.gttMb > g.vramMb.value_or(0))
        card.vramMb = *g.gttMb;
    return card;
}

int vendorIndexOf(const HardwareSnapshot& snap, std::optional<int> gpu)
{
    int index = 0;
    for (int i = 0; gpu && i < *gpu; ++i)
        index += snap.gpus[i].vendor == snap.gpus[*gpu].vendor ? 1 : 0;
    return index;
}

void addRuntimes(Plan& plan, const Catalog& cat, const Profile& profile, const PlanExpander& x,
                 const SelectSettings& settings)
{
    for (const auto& id : profile.runtimes) {
        const Runtime* r = cat.runtime(id);
        if (!r)
            continue;
        plan.runtimes.push_back({r->id,
                                 r->kind,
                                 r->version,
                                 x.runtimeDir(*r),
                                 r->system,
                                 r->hasUnpinnedArtifact(),
                                 r->hasUnverifiedUrl(),
                                 {}});
        for (const auto& a : r->artifacts)
            if (!r->system)
                plan.runtimes.back().pins.push_back(a.pinned()                         ? "catalog"
                                                    : settings.pinnedHere.count(a.url) ? "here"
                                                                                       : "new");
    }
}

void addLaunch(Plan& plan, const HardwareSnapshot& snap, const Workload& workload,
               const Profile& profile, const PlanExpander& x)
{
    plan.envUnset = profile.envUnset;
    for (const auto& k : plan.envUnset)
        if (plan.env.count(k))
            plan.warnings.push_back("profile " + profile.id + " both sets and unsets " + k);
    const auto byOs = workload.commandByOs.find(snap.os.family);
    const auto& cmd = byOs != workload.commandByOs.end() ? byOs->second : workload.command;
    for (const auto& a : profile.command.empty() ? cmd : profile.command)
        plan.command.push_back(x.expand(a));
    plan.cwd = x.expand(profile.cwd.empty() ? workload.cwd : profile.cwd);
    for (const auto& a : profile.args)
        plan.args.push_back(x.expand(a));
    for (const auto& step : profile.steps) {
        std::vector<std::string> out;
        for (const auto& a : step)
            out.push_back(x.expand(a));
        plan.steps.push_back(std::move(out));
    }
    for (const auto& a : profile.verify.empty() ? workload.verify : profile.verify)
        plan.verify.push_back(x.expand(a));
    if (profile.venv)
        plan.venv = x.expand("{venv}");
}

// A placeholder the machine cannot fill ({gfx} on a GPU of unknown gfx) must never
// reach a command line: the plan fails instead, naming it.
Expected<void> checkExpanded(const Plan& plan)
{
    std::vector<const std::string*> all{&plan.cwd};
    for (const auto* list : {&plan.command, &plan.args, &plan.path, &plan.verify})
        for (const auto& s : *list)
            all.push_back(&s);
    for (const auto& step : plan.steps)
        for (const auto& s : step)
            all.push_back(&s);
    for (const auto& [k, v] : plan.env)
        all.push_back(&v);
    for (const auto* s : all)
        if (const auto left = findPlaceholders(*s); !left.empty())
            return Error::runtime("profile '" + plan.profile + "' needs {" + left.front() +
                                  "}, which this machine's snapshot does not provide");
    return {};
}

// Profiles a remedy asked to skip are rejected, so they are never chosen and the
// alternatives say why.
void excludeProfiles(std::vector<Candidate>& candidates, const SelectSettings& settings)
{
    const auto& allowed = settings.allowedProfiles;
    for (auto& c : candidates) {
        if (std::find(settings.excludeProfiles.begin(), settings.excludeProfiles.end(),
                      c.profile->id) != settings.excludeProfiles.end())
            c.rejections.push_back(
                {"excluded: a remedy or this run's fallback asked for another profile", {}});
        if (!allowed.empty() &&
            std::find(allowed.begin(), allowed.end(), c.profile->id) == allowed.end())
            c.rejections.push_back(
                {"not among the profiles this machine's settings allow (allowed_profiles)", {}});
    }
}

// Stage 6: what the user (by hand or through a remedy) wrote into settings.json for
// this workload. Applied last, so the user's variable wins over the catalog's, and the
// composed environment keeps it even where it would remove a stale one.
void applyOverrides(Plan& plan, const SelectSettings& settings, const PlanExpander& x)
{
    for (const auto& [name, value] : settings.env)
        setPlanEnv(plan, name, x.expand(value), kUserEnvChoice);
    std::vector<std::string> extra;
    for (const auto& a : settings.args)
        extra.push_back(x.expand(a));
    appendArgs(plan.args, extra);
    plan.repair = settings.repair;
}

// Stage 7: the workload's arguments that follow the card (`args_when`), after the
// user's, so a rule whose option the plan already has (or one it excludes) is skipped.
void applyArgsRules(Plan& plan, const MatchContext& ctx, const Workload& workload)
{
    if (!ctx.gpu || ctx.profile->fallback) // a CPU stack has no card memory to spare
        return;
    for (const ArgsRule& rule : workload.argsWhen) {
        if (!unmetConditions(rule.when, ctx).empty())
            continue;
        const bool excluded =
            std::any_of(rule.unlessArgs.begin(), rule.unlessArgs.end(), [&](const std::string& a) {
                return std::find(plan.args.begin(), plan.args.end(), a) != plan.args.end();
            });
        if (excluded)
            continue;
        appendArgs(plan.args, rule.args);
        plan.argsNotes.push_back({rule.args, rule.why});
    }
}

void addWarnings(Plan& plan, const Profile& profile)
{
    plan.warnings.insert(plan.warnings.end(), profile.warnings.begin(), profile.warnings.end());
    std::string unpinned;
    for (const auto& r : plan.runtimes)
        if (r.unpinned)
            unpinned += (unpinned.empty() ? "" : ", ") + r.id;
    if (!unpinned.empty())
        plan.warnings.push_back("no pinned SHA-256 yet, so these downloads cannot be verified: " +
                                unpinned);
    std::string unverified;
    for (const auto& r : plan.runtimes)
        if (r.urlUnverified)
            unverified += (unverified.empty() ? "" : ", ") + r.id;
    if (!unverified.empty())
        plan.warnings.push_back(
            "no public source shows the download URL of " + unverified +
            " (url_unverified): the asset may be named differently; this route ranks below any "
            "route with verified URLs for this GPU");
}

} // namespace

void appendArgs(std::vector<std::string>& args, const std::vector<std::string>& extra)
{
    for (std::size_t i = 0; i < extra.size();) {
        std::size_t end = i + 1; // a flag and the values after it ("--fixed yes")
        while (end < extra.size() && (extra[end].empty() || extra[end].front() != '-'))
            ++end;
        const auto group = extra.begin() + static_cast<std::ptrdiff_t>(i);
        const auto groupEnd = extra.begin() + static_cast<std::ptrdiff_t>(end);
        if (std::search(args.begin(), args.end(), group, groupEnd) == args.end())
            args.insert(args.end(), group, groupEnd); // one the profile passes is not repeated
        i = end;
    }
}

std::optional<int> chooseGpu(const HardwareSnapshot& snapshot)
{
    std::optional<int> best;
    for (int i = 0; i < static_cast<int>(snapshot.gpus.size()); ++i) {
        const auto& g = snapshot.gpus[i];
        if (g.vendor == Vendor::Other)
            continue;
        if (!best) {
            best = i;
            continue;
        }
        const auto& b = snapshot.gpus[*best];
        const bool gi = g.integrated.value_or(false);
        const bool bi = b.integrated.value_or(false);
        if (gi != bi) {
            if (!gi)
                best = i;
            continue;
        }
        if (g.vramMb.value_or(0) > b.vramMb.value_or(0))
            best = i;
    }
    return best;
}

Expected<Plan> makePlan(const HardwareSnapshot& snap, const Catalog& cat,
                        const std::string& workloadId, const SelectSettings& settings)
{
    if (auto ok = checkRequest(cat, workloadId, settings); !ok)
        return ok.error();
    Plan plan;
    plan.workload = workloadId;
    auto pick = pickGpu(snap, settings.gpuSpec, settings.gpuChoice);
    if (!pick)
        return pick.error();
    plan.gpu = pick->index;
    plan.warnings = pick->warnings;
    const std::optional<GpuInfo> card =
        plan.gpu ? std::optional<GpuInfo>(planCard(snap.gpus[*plan.gpu])) : std::nullopt;
    const GpuInfo* gpu = card ? &*card : nullptr;
    if (card)
        plan.card = PlanGpu{card->name,    card->pciBus,
                            card->pciId,   card->gfx.value_or(card->computeCapability.value_or("")),
                            card->vramMb,  card->integrated.value_or(false),
                            pick->chosenBy};

    // Stage 1: rank.
    auto candidates = evaluateCandidates(snap, cat, workloadId, gpu);
    excludeProfiles(candidates, settings);
    for (auto& c : candidates)
        if (const auto v = settings.localVerdicts.find(c.profile->id);
            v != settings.localVerdicts.end())
            c.verdict = &v->second;
    const auto fitting = rankFitting(candidates, cat);
    auto picked = pickCandidate(candidates, fitting, settings);
    if (!picked)
        return picked.error();
    const Candidate* chosen = *picked;
    plan.alternatives = describeAlternatives(candidates, fitting, chosen, cat);
    if (!chosen) {
        plan.warnings.push_back("no profile of workload '" + workloadId +
                                "' fits this machine; see the alternatives for why");
        return plan;
    }
    const Profile& profile = *chosen->profile;
    const Workload& workload = *cat.workload(workloadId);
    for (const auto& r : chosen->rejections)
        plan.warnings.push_back("chosen by you although rejected: " + r.text + " [" + r.knownIssue +
                                "]");
    plan.profile = profile.id;
    plan.status = profile.status;
    if (chosen->verdict)
        plan.localEvidence = chosen->verdict->text;
    plan.sharedEvidence = sharedEvidenceOf(*chosen);
    plan.references = profile.references;

    // Stages 2-5: the catalog's variables, the GPU pin, the override, the caches; then
    // placeholders in the command, args and steps.
    const int vendorIndex = vendorIndexOf(snap, plan.gpu);
    const PlanExpander expander(snap, cat, profile, gpu, vendorIndex, settings);
    addRuntimes(plan, cat, profile, expander, settings);
    collectPath(plan, cat, profile, expander);
    applyCatalogEnv(plan, cat, workload, profile, expander);
    if (gpu && !profile.fallback) {
        applyVisibility(plan, snap, cat, profile, *plan.gpu);
        if (gpu->gfx)
            applyGfxOverride(plan, chosen->support, *gpu->gfx);
    }
    relocateCaches(plan, snap, cat, settings);
    addLaunch(plan, snap, workload, profile, expander);
    applyOverrides(plan, settings, expander);
    applyArgsRules(plan, MatchContext{snap, gpu, cat, &profile}, workload);
    addWarnings(plan, profile);
    if (auto ok = checkExpanded(plan); !ok)
        return ok.error();
    return plan;
}

} // namespace sp
