#include "core/select/conditions.h"

#include "core/strings.h"

#include <algorithm>

namespace sp {

namespace {

std::string joined(const std::vector<std::string>& v)
{
    return join(v, ", ");
}

// "amd" -> "AMD", as people write the vendors' names.
std::string vendorWord(const std::string& id)
{
    return id == "amd" ? "AMD" : id == "nvidia" ? "NVIDIA" : id == "intel" ? "Intel" : id;
}

std::string vendorWords(const std::vector<std::string>& ids)
{
    std::vector<std::string> words;
    for (const auto& id : ids)
        words.push_back(vendorWord(id));
    return join(words, " or ");
}

void checkGpu(const Conditions& c, const MatchContext& ctx, std::vector<std::string>& unmet)
{
    const GpuInfo* gpu = ctx.gpu;
    if (!c.vendors.empty()) {
        const std::string have = gpu ? toString(gpu->vendor) : "none";
        if (!contains(c.vendors, have))
            unmet.push_back("needs a GPU by " + vendorWords(c.vendors) + "; the chosen GPU is " +
                            (gpu ? gpu->name + " (" + vendorWord(have) + ")" : "none"));
    }
    const std::string gfx = gpu && gpu->gfx ? *gpu->gfx : std::string{};
    if (!c.gfx.empty() && (gfx.empty() || !anyGfxMatches(c.gfx, gfx)))
        unmet.push_back("needs gfx " + joined(c.gfx) + "; the GPU is " +
                        (gfx.empty() ? "of unknown gfx" : gfx));
    if (!c.notGfx.empty() && !gfx.empty() && anyGfxMatches(c.notGfx, gfx))
        unmet.push_back("not for " + gfx);
    if (c.computeCapability) {
        const std::string cc = gpu && gpu->computeCapability ? *gpu->computeCapability : "";
        if (cc.empty() || !c.computeCapability->range.contains(cc))
            unmet.push_back("needs compute capability " + c.computeCapability->text +
                            "; the GPU has " + (cc.empty() ? "none known" : cc));
    }
    if (c.integrated) {
        const bool integrated = gpu && gpu->integrated.value_or(false);
        if (!gpu || integrated != *c.integrated)
            unmet.push_back(*c.integrated ? "only for integrated GPUs" : "only for discrete GPUs");
    }
    if (c.minVramMb && (!gpu || gpu->vramMb.value_or(0) < *c.minVramMb))
        unmet.push_back(
            "needs at least " + std::to_string(*c.minVramMb) + " MB of VRAM; the GPU has " +
            (gpu && gpu->vramMb ? std::to_string(*gpu->vramMb) + " MB" : "an unknown amount"));
    if (c.maxVramMb && (!gpu || !gpu->vramMb || *gpu->vramMb > *c.maxVramMb))
        unmet.push_back(
            "only for at most " + std::to_string(*c.maxVramMb) + " MB of VRAM; the GPU has " +
            (gpu && gpu->vramMb ? std::to_string(*gpu->vramMb) + " MB" : "an unknown amount"));
    if (c.driverVersion) {
        const std::string dv = gpu && gpu->driverVersion ? *gpu->driverVersion : "";
        if (dv.empty() || !c.driverVersion->range.contains(dv))
            unmet.push_back("needs driver " + c.driverVersion->text + "; the GPU's driver is " +
                            (dv.empty() ? "unknown" : dv));
    }
}

void checkProfile(const Conditions& c, const MatchContext& ctx, std::vector<std::string>& unmet)
{
    if (!c.workloads.empty() && (!ctx.profile || !contains(c.workloads, ctx.profile->workload)))
        unmet.push_back("only for workloads " + joined(c.workloads));
    if (!c.hasRuntimes)
        return;
    bool any = false;
    if (ctx.profile) {
        for (const auto& id : ctx.profile->runtimes) {
            const Runtime* r = ctx.catalog.runtime(id);
            for (const auto& want : c.runtimes)
                any = any || (r && runtimeMatches(want, *r));
        }
    }
    if (!any)
        unmet.push_back("only for profiles using runtimes " +
                        c.source.value("runtimes", nlohmann::json()).dump());
}

} // namespace

bool gfxMatches(const std::string& pattern, const std::string& gfx)
{
    if (!pattern.empty() && pattern.back() == '*')
        return gfx.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
    return pattern == gfx;
}

bool anyGfxMatches(const std::vector<std::string>& patterns, const std::string& gfx)
{
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& p) { return gfxMatches(p, gfx); });
}

bool runtimeMatches(const RuntimeCondition& want, const Runtime& r)
{
    if (!want.id.empty() && want.id != r.id)
        return false;
    if (!want.kind.empty() && want.kind != r.kind)
        return false;
    return !want.version || want.version->range.contains(r.version);
}

// The build number of the OS: the third part of the kernel version ("10.0.22631" on
// Windows 11); empty when the snapshot does not say.
std::string osBuild(const HardwareSnapshot& s)
{
    const auto k = s.os.extra.find("kernel");
    if (k == s.os.extra.end() || !k->is_string())
        return {};
    const std::string v = k->get<std::string>();
    const auto a = v.find('.');
    const auto b = a == std::string::npos ? a : v.find('.', a + 1);
    if (b == std::string::npos)
        return {};
    const std::string build = v.substr(b + 1, v.find('.', b + 1) - b - 1);
    const bool digits = !build.empty() && std::all_of(build.begin(), build.end(), [](char ch) {
        return ch >= '0' && ch <= '9';
    });
    return digits ? build : std::string{};
}

bool homeIsNetwork(const HardwareSnapshot& s)
{
    return s.home.network || isNetworkFilesystem(s.home.filesystem);
}

std::vector<std::string> unmetConditions(const Conditions& c, const MatchContext& ctx)
{
    std::vector<std::string> unmet;
    if (!c.os.empty() && !contains(c.os, ctx.snapshot.os.family))
        unmet.push_back(
            "needs OS " + joined(c.os) + "; this machine runs " +
            (ctx.snapshot.os.family.empty() ? "an unknown OS" : ctx.snapshot.os.family));
    if (c.osBuild) {
        const std::string build = osBuild(ctx.snapshot);
        if (build.empty() || !c.osBuild->range.contains(build))
            unmet.push_back("needs OS build " + c.osBuild->text + "; this machine's build is " +
                            (build.empty() ? "unknown" : build));
    }
    checkGpu(c, ctx, unmet);
    if (c.networkHome && homeIsNetwork(ctx.snapshot) != *c.networkHome)
        unmet.push_back(*c.networkHome ? "only when the home folder is on a network filesystem"
                                       : "only when the home folder is on a local disk");
    checkProfile(c, ctx, unmet);
    return unmet;
}

int specificity(const Conditions& m)
{
    int score = 0;
    if (!m.gfx.empty()) {
        // An exact gfx list is narrower than a family pattern, and a short list
        // narrower than a long one.
        const bool exact = std::none_of(m.gfx.begin(), m.gfx.end(), [](const std::string& p) {
            return !p.empty() && p.back() == '*';
        });
        score += (exact ? 4 : 3) + (m.gfx.size() <= 3 ? 1 : 0);
    }
    score += m.computeCapability ? 2 : 0;
    score += m.driverVersion ? 2 : 0;
    score += (m.os.empty() ? 0 : 1) + (m.osBuild ? 1 : 0) + (m.vendors.empty() ? 0 : 1) +
             (m.notGfx.empty() ? 0 : 1);
    score += (m.integrated ? 1 : 0) + (m.networkHome ? 1 : 0) + (m.minVramMb ? 1 : 0) +
             (m.maxVramMb ? 1 : 0);
    return score;
}

} // namespace sp
