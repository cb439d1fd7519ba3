#include "core/select/conditions.h"

#include "core/catalog/version_range.h"

#include <algorithm>

namespace sp {

namespace {

using json = nlohmann::json;

std::vector<std::string> asList(const json& v)
{
    std::vector<std::string> out;
    if (v.is_string())
        out.push_back(v.get<std::string>());
    else if (v.is_array())
        for (const auto& e : v)
            if (e.is_string())
                out.push_back(e.get<std::string>());
    return out;
}

std::string joined(const std::vector<std::string>& v)
{
    std::string out;
    for (const auto& s : v)
        out += (out.empty() ? "" : ", ") + s;
    return out;
}

// A condition value for a message, whatever its JSON type (hand-built catalogs).
std::string text(const json& v)
{
    return v.is_string() ? v.get<std::string>() : v.dump();
}

bool inRange(const json& range, const std::string& value)
{
    if (!range.is_string())
        return false;
    auto r = VersionRange::parse(range.get<std::string>(), nullptr);
    return r && r->contains(value);
}

bool runtimeMatches(const json& want, const Runtime& r)
{
    if (!want.is_object())
        return false;
    if (auto it = want.find("id");
        it != want.end() && (!it->is_string() || it->get<std::string>() != r.id))
        return false;
    if (auto it = want.find("kind");
        it != want.end() && (!it->is_string() || it->get<std::string>() != r.kind))
        return false;
    if (auto it = want.find("version"); it != want.end() && !inRange(*it, r.version))
        return false;
    return true;
}

} // namespace

bool gfxMatches(const std::string& pattern, const std::string& gfx)
{
    if (!pattern.empty() && pattern.back() == '*')
        return gfx.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
    return pattern == gfx;
}

bool homeIsNetwork(const HardwareSnapshot& s)
{
    return s.home.network || isNetworkFilesystem(s.home.filesystem);
}

std::vector<std::string> unmetConditions(const json& c, const MatchContext& ctx)
{
    std::vector<std::string> unmet;
    if (!c.is_object())
        return unmet;
    const GpuInfo* gpu = ctx.gpu;
    if (auto it = c.find("os"); it != c.end()) {
        const auto oses = asList(*it);
        if (std::find(oses.begin(), oses.end(), ctx.snapshot.os.family) == oses.end())
            unmet.push_back(
                "needs OS " + joined(oses) + "; this machine runs " +
                (ctx.snapshot.os.family.empty() ? "an unknown OS" : ctx.snapshot.os.family));
    }
    if (auto it = c.find("vendor"); it != c.end()) {
        const auto vendors = asList(*it);
        const std::string have = gpu ? toString(gpu->vendor) : "none";
        if (std::find(vendors.begin(), vendors.end(), have) == vendors.end())
            unmet.push_back("needs a " + joined(vendors) + " GPU; the chosen GPU is " +
                            (gpu ? have + " (" + gpu->name + ")" : "none"));
    }
    const std::string gfx = gpu && gpu->gfx ? *gpu->gfx : std::string{};
    if (auto it = c.find("gfx"); it != c.end()) {
        const auto pats = asList(*it);
        const bool ok =
            !gfx.empty() && std::any_of(pats.begin(), pats.end(),
                                        [&](const std::string& p) { return gfxMatches(p, gfx); });
        if (!ok)
            unmet.push_back("needs gfx " + joined(pats) + "; the GPU is " +
                            (gfx.empty() ? "of unknown gfx" : gfx));
    }
    if (auto it = c.find("not_gfx"); it != c.end()) {
        const auto pats = asList(*it);
        if (!gfx.empty() && std::any_of(pats.begin(), pats.end(),
                                        [&](const std::string& p) { return gfxMatches(p, gfx); }))
            unmet.push_back("not for " + gfx);
    }
    if (auto it = c.find("compute_capability"); it != c.end()) {
        const std::string cc =
            gpu && gpu->computeCapability ? *gpu->computeCapability : std::string{};
        if (cc.empty() || !inRange(*it, cc))
            unmet.push_back("needs compute capability " + text(*it) + "; the GPU has " +
                            (cc.empty() ? "none known" : cc));
    }
    if (auto it = c.find("integrated"); it != c.end() && it->is_boolean()) {
        const bool integrated = gpu && gpu->integrated.value_or(false);
        if (!gpu || integrated != it->get<bool>())
            unmet.push_back(it->get<bool>() ? "only for integrated GPUs"
                                            : "only for discrete GPUs");
    }
    if (auto it = c.find("network_home"); it != c.end() && it->is_boolean()) {
        if (homeIsNetwork(ctx.snapshot) != it->get<bool>())
            unmet.push_back(it->get<bool>() ? "only when the home folder is on a network filesystem"
                                            : "only when the home folder is on a local disk");
    }
    if (auto it = c.find("min_vram_mb"); it != c.end() && it->is_number()) {
        const auto need = it->get<std::int64_t>();
        if (!gpu || gpu->vramMb.value_or(0) < need)
            unmet.push_back(
                "needs at least " + std::to_string(need) + " MB of VRAM; the GPU has " +
                (gpu && gpu->vramMb ? std::to_string(*gpu->vramMb) + " MB" : "an unknown amount"));
    }
    if (auto it = c.find("driver_version"); it != c.end()) {
        const std::string dv = gpu && gpu->driverVersion ? *gpu->driverVersion : std::string{};
        if (dv.empty() || !inRange(*it, dv))
            unmet.push_back("needs driver " + text(*it) + "; the GPU's driver is " +
                            (dv.empty() ? "unknown" : dv));
    }
    if (auto it = c.find("workloads"); it != c.end()) {
        const auto wls = asList(*it);
        if (!ctx.profile || std::find(wls.begin(), wls.end(), ctx.profile->workload) == wls.end())
            unmet.push_back("only for workloads " + joined(wls));
    }
    if (auto it = c.find("runtimes"); it != c.end() && it->is_array()) {
        bool any = false;
        if (ctx.profile) {
            for (const auto& id : ctx.profile->runtimes) {
                const Runtime* r = ctx.catalog.runtime(id);
                for (const auto& want : *it)
                    any = any || (r && runtimeMatches(want, *r));
            }
        }
        if (!any)
            unmet.push_back("only for profiles using runtimes " + it->dump());
    }
    return unmet;
}

int specificity(const json& match)
{
    if (!match.is_object())
        return 0;
    int score = 0;
    for (auto it = match.begin(); it != match.end(); ++it) {
        if (it.key() == "gfx") {
            // An exact gfx list is narrower than a family pattern, and a short list
            // narrower than a long one.
            const auto pats = asList(*it);
            const bool exact = std::none_of(pats.begin(), pats.end(), [](const std::string& p) {
                return !p.empty() && p.back() == '*';
            });
            score += exact ? 4 : 3;
            if (pats.size() <= 3)
                score += 1;
        } else if (it.key() == "compute_capability" || it.key() == "driver_version") {
            score += 2;
        } else {
            score += 1;
        }
    }
    return score;
}

} // namespace sp
