#include "core/select/env_stages.h"

#include "core/select/conditions.h"
#include "core/select/select.h"

#include <algorithm>

namespace sp {

namespace {

bool underPath(const std::string& path, const std::string& base)
{
    if (base.empty() || path.size() < base.size() || path.compare(0, base.size(), base) != 0)
        return false;
    return path.size() == base.size() || path[base.size()] == '/' || path[base.size()] == '\\' ||
           base.back() == '/' || base.back() == '\\';
}

std::string lastComponent(std::string path)
{
    while (!path.empty() && (path.back() == '/' || path.back() == '\\'))
        path.pop_back();
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool planHasRuntime(const Plan& plan, const Catalog& cat, const std::vector<RuntimeCondition>& any)
{
    if (any.empty())
        return true;
    return std::any_of(plan.runtimes.begin(), plan.runtimes.end(), [&](const PlanRuntime& pr) {
        const Runtime* r = cat.runtime(pr.id);
        return r && std::any_of(any.begin(), any.end(),
                                [&](const RuntimeCondition& c) { return runtimeMatches(c, *r); });
    });
}

} // namespace

void setPlanEnv(Plan& plan, const std::string& name, const std::string& value,
                const std::string& why)
{
    plan.env[name] = value;
    plan.envWhy[name] = why;
}

void applyCatalogEnv(Plan& plan, const Catalog& cat, const Workload& workload,
                     const Profile& profile, const PlanExpander& expander)
{
    for (const auto& id : profile.runtimes) {
        const Runtime* r = cat.runtime(id);
        if (!r)
            continue; // the loader refuses this; stay safe on hand-built catalogs
        for (const auto& [k, v] : r->env) {
            auto why = r->envWhy.count(k) ? r->envWhy.at(k) : "set by runtime " + r->id;
            setPlanEnv(plan, k, expander.expand(v), why);
        }
    }
    for (const auto& [k, v] : workload.env)
        setPlanEnv(plan, k, expander.expand(v), "set by workload " + workload.id);
    for (const auto& [k, v] : profile.env) {
        auto why = profile.envWhy.count(k) ? profile.envWhy.at(k) : "set by profile " + profile.id;
        setPlanEnv(plan, k, expander.expand(v), why);
    }
}

void collectPath(Plan& plan, const Catalog& cat, const Profile& profile,
                 const PlanExpander& expander)
{
    for (const bool packs : {true, false}) {
        for (const auto& id : profile.runtimes) {
            const Runtime* r = cat.runtime(id);
            if (!r || r->requires_.empty() != !packs)
                continue;
            for (const auto& dir : r->pathDirs) {
                std::string rel = dir;
                for (auto& c : rel)
                    if (c == '/' || c == '\\')
                        c = expander.separator()[0];
                plan.path.push_back(rel == "."
                                        ? expander.runtimeDir(*r)
                                        : expander.runtimeDir(*r) + expander.separator() + rel);
            }
        }
    }
}

void applyGfxOverride(Plan& plan, const ProfileGpuSupport& support, const std::string& gfx)
{
    if (support.level != GpuSupport::Override || !support.override)
        return;
    const GfxOverride& o = *support.override;
    setPlanEnv(plan, "HSA_OVERRIDE_GFX_VERSION", o.hsaOverride,
               support.explanation + "; evidence: " + o.evidence);
    if (!o.warning.empty())
        plan.warnings.push_back("HSA_OVERRIDE_GFX_VERSION=" + o.hsaOverride + " for " + gfx + ": " +
                                o.warning);
}

std::string cacheRelocationBase(const HardwareSnapshot& snap, const Catalog& cat,
                                const SelectSettings& settings)
{
    if (!settings.localCacheDir.empty())
        return settings.localCacheDir;
    if (!settings.cacheDir.empty() && !underPath(settings.cacheDir, snap.home.path))
        return settings.cacheDir;
    const CacheRelocation* r = cat.cacheRelocation(snap.os.family);
    if (!r)
        return {};
    std::string base = r->base;
    const std::string user = lastComponent(snap.home.path);
    if (auto at = base.find("{user}"); at != std::string::npos)
        base.replace(at, 6, user.empty() ? "user" : user);
    return base;
}

void relocateCaches(Plan& plan, const HardwareSnapshot& snap, const Catalog& cat,
                    const SelectSettings& settings)
{
    const std::string sep = snap.os.family == "windows" ? "\\" : "/";
    const bool network = homeIsNetwork(snap);
    if (!network && !settings.relocateCaches) {
        for (const auto& c : cat.cacheVariables)
            if (c.always && !settings.cacheDir.empty() && planHasRuntime(plan, cat, c.whenRuntime))
                setPlanEnv(plan, c.name, settings.cacheDir + sep + c.subdir,
                           "StackPilot's cache folder, shared by every profile: " + c.why);
        return;
    }
    if (cat.cacheVariables.empty())
        return;
    const std::string base = cacheRelocationBase(snap, cat, settings);
    if (base.empty()) {
        plan.warnings.push_back("the home folder is on " + snap.home.filesystem +
                                " but no local cache folder is known for " + snap.os.family +
                                "; set one in the settings [hsa-aperture-violation]");
        return;
    }
    // A remedy (relocate_caches) forces this on a home that is not detected as network.
    const std::string because = network ? "the home folder " + snap.home.path + " is on " +
                                              snap.home.filesystem + " (a network filesystem)"
                                        : "a remedy asked for it (settings.json)";
    for (const auto& c : cat.cacheVariables) {
        if (!planHasRuntime(plan, cat, c.whenRuntime))
            continue;
        setPlanEnv(plan, c.name, base + sep + c.subdir,
                   because + ", so this cache goes to " + base + " on a local disk: " + c.why +
                       " [hsa-aperture-violation]");
    }
}

} // namespace sp
