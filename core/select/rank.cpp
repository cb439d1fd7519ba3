#include "core/select/rank.h"

#include "core/catalog/version_range.h"
#include "core/select/conditions.h"

#include <algorithm>

namespace sp {

namespace {

const char* kUnsupportedGfx = "rocm-unsupported-gfx";
const char* kUnsupportedCc = "cuda-arch-mismatch";

// Whether the profile's runtimes have kernels for the chosen GPU (gpu_support.h).
void checkGpuSupport(const HardwareSnapshot& snap, const Catalog& cat, const GpuInfo* gpu,
                     Candidate& c)
{
    if (!gpu || c.profile->fallback)
        return;
    const char* issue = nullptr;
    if (gpu->vendor == Vendor::Amd && gpu->gfx) {
        c.support = profileGfxSupport(*c.profile, cat, *gpu->gfx, snap.os.family);
        issue = kUnsupportedGfx;
    } else if (gpu->vendor == Vendor::Nvidia && gpu->computeCapability) {
        c.support = profileCcSupport(*c.profile, cat, *gpu->computeCapability);
        issue = kUnsupportedCc;
    }
    if (issue && c.support.level == GpuSupport::Unsupported)
        c.rejections.push_back({c.support.unsupportedText, issue});
}

int statusRank(ProfileStatus s)
{
    switch (s) {
    case ProfileStatus::Tested:
        return 0;
    case ProfileStatus::Community:
        return 1;
    case ProfileStatus::Experimental:
        return 2;
    }
    return 3;
}

// > 0 when a has newer runtimes than b, comparing versions of the kinds both use.
int compareNewness(const Profile& a, const Profile& b, const Catalog& cat)
{
    for (const auto& ida : a.runtimes) {
        const Runtime* ra = cat.runtime(ida);
        for (const auto& idb : b.runtimes) {
            const Runtime* rb = cat.runtime(idb);
            if (!ra || !rb || rb->kind != ra->kind)
                continue;
            auto va = parseVersion(ra->version);
            auto vb = parseVersion(rb->version);
            if (va && vb) {
                if (int c = compareVersions(*va, *vb); c != 0)
                    return c;
            }
        }
    }
    return 0;
}

void checkRuntimeOs(const Profile& p, const Catalog& cat, const std::string& os, Candidate& c)
{
    for (const auto& id : p.runtimes) {
        // A runtime built for another OS cannot run here, whatever the match says.
        const Runtime* r = cat.runtime(id);
        if (r && !r->os.empty() && std::find(r->os.begin(), r->os.end(), os) == r->os.end())
            c.rejections.push_back({"runtime " + id + " is only for " + r->os.front(), {}});
    }
}

void checkKnownIssues(const HardwareSnapshot& snap, const Catalog& cat, const GpuInfo* gpu,
                      Candidate& c)
{
    // A fallback runs on the CPU: GPU-specific known issues do not concern it.
    const MatchContext ctx{snap, c.profile->fallback ? nullptr : gpu, cat, c.profile};
    for (const auto& ki : cat.knownIssues) {
        if (!ki.rejectsProfiles || ki.applies.empty())
            continue;
        if (unmetConditions(ki.applies, ctx).empty()) {
            std::string text = "known issue: " + ki.title;
            if (!ki.remedy.text.empty())
                text += " (" + ki.remedy.text + ")";
            c.rejections.push_back({text, ki.id});
        }
    }
}

std::vector<std::string> unverifiedUrls(const Profile& p, const Catalog& cat)
{
    std::vector<std::string> out;
    for (const auto& id : p.runtimes)
        if (const Runtime* r = cat.runtime(id); r && r->hasUnverifiedUrl())
            out.push_back(id);
    return out;
}

bool better(const Candidate& a, const Candidate& b, const Catalog& cat)
{
    // Evidence from this card outweighs the catalog's: the user never sees the same
    // failure twice, and a stack proven here is not traded for one reasoned from reports.
    if (a.failedHere() != b.failedHere())
        return !a.failedHere();
    if (a.profile->fallback != b.profile->fallback)
        return !a.profile->fallback;
    if (a.localRank() != b.localRank())
        return a.localRank() < b.localRank();
    if (a.crowdRank() != b.crowdRank())
        return a.crowdRank() < b.crowdRank();
    if (statusRank(a.profile->status) != statusRank(b.profile->status))
        return statusRank(a.profile->status) < statusRank(b.profile->status);
    if (a.profile->preference != b.profile->preference)
        return a.profile->preference > b.profile->preference;
    if (a.unverifiedUrls.empty() != b.unverifiedUrls.empty())
        return a.unverifiedUrls.empty();
    if (a.support.level != b.support.level)
        return a.support.level < b.support.level;
    if (a.specificity != b.specificity)
        return a.specificity > b.specificity;
    if (int n = compareNewness(*a.profile, *b.profile, cat); n != 0)
        return n > 0;
    return a.profile->id < b.profile->id;
}

std::string crowdText(const Candidate& c)
{
    if (!c.crowd)
        return "no results";
    return std::to_string(c.crowd->passedInstalls) + " passed, " +
           std::to_string(c.crowd->failedInstalls) + " failed";
}

PlanReason rankedBelow(const Candidate& c, const Candidate& w, const Catalog& cat)
{
    const std::string why = "ranked below " + w.profile->id + ": ";
    auto reason = [&why](std::string code, const std::string& text) {
        return PlanReason{why + text, {}, std::move(code)};
    };
    // A forced choice can rank below this candidate: then that is the reason, never a
    // comparison read the wrong way round ("community is below experimental").
    if (better(c, w, cat))
        return reason("chosen", "it ranks higher for this machine, but " + w.profile->id +
                                    " was chosen by name");
    if (c.failedHere() && !w.failedHere())
        return reason("failed-here", "it " + c.verdict->text);
    if (c.profile->fallback != w.profile->fallback)
        return reason("fallback", "a fallback ranks after every GPU profile");
    if (w.localRank() < c.localRank())
        return reason("evidence", w.profile->id + " " + w.verdict->text);
    if (w.crowdRank() < c.crowdRank())
        return reason("crowd", "other PCs with a " + (w.crowd ? w.crowd->arch : c.crowd->arch) +
                                   " card: " + crowdText(w) + " with " + w.profile->id + ", " +
                                   crowdText(c) + " with this one");
    if (c.profile->status != w.profile->status)
        return reason("status", "status " + toString(c.profile->status) + " is below " +
                                    toString(w.profile->status));
    if (c.profile->preference != w.profile->preference)
        return reason("preference", "the catalog prefers " + w.profile->id +
                                        " for this GPU (preference " +
                                        std::to_string(w.profile->preference) + " over " +
                                        std::to_string(c.profile->preference) + ")");
    if (!c.unverifiedUrls.empty() && w.unverifiedUrls.empty())
        return reason("unverified-url", "no public source shows the download URL of " +
                                            c.unverifiedUrls.front() +
                                            " (url_unverified), while every download of " +
                                            w.profile->id + " has evidence");
    if (c.support.level != w.support.level)
        return reason("support",
                      "its support for this GPU is weaker (" + c.support.explanation + ")");
    if (c.specificity != w.specificity)
        return reason("specificity", "its match is less specific to this GPU");
    if (compareNewness(*c.profile, *w.profile, cat) != 0)
        return reason("older", "its runtimes are older");
    return reason("same", "same rank, ordered by id");
}

} // namespace

std::vector<Candidate> evaluateCandidates(const HardwareSnapshot& snap, const Catalog& cat,
                                          const std::string& workload, const GpuInfo* gpu)
{
    std::vector<Candidate> out;
    for (const auto& p : cat.profiles) {
        if (p.workload != workload)
            continue;
        Candidate c{&p, {}, specificity(p.match), {}, unverifiedUrls(p, cat)};
        if (gpu && !p.fallback)
            c.arch = archOf(*gpu);
        if (p.proof)
            c.crowd = p.proof->family(c.arch);
        for (auto& text : unmetConditions(p.match, MatchContext{snap, gpu, cat, &p}))
            c.rejections.push_back({std::move(text), {}});
        checkRuntimeOs(p, cat, snap.os.family, c);
        if (c.rejections.empty())
            checkGpuSupport(snap, cat, gpu, c);
        if (c.rejections.empty())
            checkKnownIssues(snap, cat, gpu, c);
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<const Candidate*> rankFitting(const std::vector<Candidate>& all, const Catalog& cat)
{
    std::vector<const Candidate*> fitting;
    for (const auto& c : all)
        if (c.rejections.empty())
            fitting.push_back(&c);
    std::sort(fitting.begin(), fitting.end(),
              [&](const Candidate* a, const Candidate* b) { return better(*a, *b, cat); });
    return fitting;
}

std::string sharedEvidenceOf(const Candidate& c)
{
    const auto& p = c.profile->proof;
    if (!p || p->installs == 0)
        return {};
    const auto words = [](std::int64_t passed, const std::string& where, std::int64_t failed,
                          const std::string& last) {
        return "passed on " + std::to_string(passed) + " PCs" + where + ", " +
               std::to_string(failed) + " failed (last: " + last.substr(0, 10) + ")";
    };
    if (c.crowd)
        return words(c.crowd->passedInstalls, " with a " + c.arch + " card",
                     c.crowd->failedInstalls, c.crowd->lastSeen);
    // A proof made before the ledger counted per family says nothing about other cards.
    const std::string where = !c.arch.empty() && !p->byGpu.empty()
                                  ? " with other cards (none yet with a " + c.arch + " card)"
                                  : "";
    return words(p->passedInstalls, where, p->failedInstalls, p->lastSeen);
}

std::vector<PlanAlternative> describeAlternatives(const std::vector<Candidate>& all,
                                                  const std::vector<const Candidate*>& fitting,
                                                  const Candidate* chosen, const Catalog& cat)
{
    std::vector<PlanAlternative> out;
    for (const Candidate* c : fitting) {
        if (c == chosen)
            continue;
        PlanAlternative alt{c->profile->id, "available", {}, c->failedHere()};
        if (chosen)
            alt.reasons.push_back(rankedBelow(*c, *chosen, cat));
        out.push_back(std::move(alt));
    }
    for (const auto& c : all)
        if (!c.rejections.empty())
            out.push_back({c.profile->id, "rejected", c.rejections, c.failedHere()});
    return out;
}

} // namespace sp
