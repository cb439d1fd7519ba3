#include "core/select/gpu_support.h"

#include "core/catalog/version_range.h"
#include "core/select/conditions.h"

#include <algorithm>

namespace sp {

namespace {

const char* kHex = "0123456789abcdef";

bool listed(const std::vector<std::string>& list, const std::string& v)
{
    return std::find(list.begin(), list.end(), v) != list.end();
}

bool profileHasRuntime(const Profile& p, const Catalog& cat,
                       const std::vector<RuntimeCondition>& any)
{
    for (const auto& id : p.runtimes)
        if (const Runtime* r = cat.runtime(id))
            for (const auto& c : any)
                if (runtimeMatches(c, *r))
                    return true;
    return false;
}

// The override that lets `r` run `gfx`, or null. A convention that a ban refuses for
// this profile is never used; `banned` then names the ban.
const GfxOverride* usableOverride(const Runtime& r, const Profile& p, const Catalog& cat,
                                  const std::string& gfx, const std::string& os,
                                  const GfxOverrideBan** banned)
{
    const GfxOverride* o = cat.gfxOverride(gfx, os);
    if (!o)
        return nullptr;
    const auto target = gfxForOverride(o->hsaOverride);
    if (!target || gfxMajor(*target) != gfxMajor(gfx) || gfxMajor(gfx).empty())
        return nullptr;
    if (!anyGfxMatches(r.supportedGfx, *target))
        return nullptr;
    if (const GfxOverrideBan* b = overrideBan(cat, gfx, o->hsaOverride, os, p)) {
        *banned = b;
        return nullptr;
    }
    return o;
}

const Runtime* packFor(const Runtime& r, const Profile& p, const Catalog& cat,
                       const std::string& gfx)
{
    for (const auto& id : p.runtimes) {
        const Runtime* pack = cat.runtime(id);
        if (pack &&
            std::find(pack->requires_.begin(), pack->requires_.end(), r.id) !=
                pack->requires_.end() &&
            anyGfxMatches(pack->supportedGfx, gfx))
            return pack;
    }
    return nullptr;
}

} // namespace

const GfxOverrideBan* overrideBan(const Catalog& cat, const std::string& gfx,
                                  const std::string& hsaOverride, const std::string& os,
                                  const Profile& p)
{
    for (const auto& b : cat.gfxOverrideBans) {
        const bool runtime = b.whenRuntime.empty() || profileHasRuntime(p, cat, b.whenRuntime);
        if (anyGfxMatches(b.gfx, gfx) && (b.os.empty() || listed(b.os, os)) &&
            (b.hsaOverride.empty() || listed(b.hsaOverride, hsaOverride)) && runtime)
            return &b;
    }
    return nullptr;
}

std::optional<std::string> gfxForOverride(const std::string& hsaOverride)
{
    const auto v = parseVersion(hsaOverride);
    if (!v || v->size() != 3 || (*v)[0] <= 0 || (*v)[1] < 0 || (*v)[1] > 15 || (*v)[2] < 0 ||
        (*v)[2] > 15)
        return std::nullopt;
    return "gfx" + std::to_string((*v)[0]) + kHex[(*v)[1]] + kHex[(*v)[2]];
}

std::string gfxMajor(const std::string& gfx)
{
    if (gfx.size() < 6 || gfx.rfind("gfx", 0) != 0)
        return {};
    return gfx.substr(3, gfx.size() - 5);
}

ProfileGpuSupport profileGfxSupport(const Profile& profile, const Catalog& cat,
                                    const std::string& gfx, const std::string& os)
{
    ProfileGpuSupport out;
    for (const auto& id : profile.runtimes) {
        const Runtime* r = cat.runtime(id);
        if (!r || r->supportedGfx.empty())
            continue;
        GpuSupport level = GpuSupport::Unsupported;
        std::string how;
        const GfxOverrideBan* banned = nullptr;
        if (anyGfxMatches(r->supportedGfx, gfx)) {
            level = GpuSupport::Native;
            how = r->id + " ships kernels for " + gfx;
        } else if (const Runtime* pack = packFor(*r, profile, cat, gfx)) {
            level = GpuSupport::LibraryPack;
            how = pack->id + " adds " + gfx + " to " + r->id;
        } else if (const GfxOverride* o = usableOverride(*r, profile, cat, gfx, os, &banned)) {
            level = GpuSupport::Override;
            out.override = o;
            how = r->id + " runs " + gfx + " as " + *gfxForOverride(o->hsaOverride) +
                  " (HSA_OVERRIDE_GFX_VERSION=" + o->hsaOverride + ", " + o->confidence + ")";
        } else {
            out.level = GpuSupport::Unsupported;
            out.unsupportedText = gfx + " is not supported by " + r->id + " on " + os +
                                  ": it has no kernels for it, no library pack in the profile " +
                                  "adds it, and no override convention maps it";
            if (banned)
                out.unsupportedText +=
                    " (the convention " + gfx + " -> " + cat.gfxOverride(gfx, os)->hsaOverride +
                    " is refused by policy '" + banned->id + "': " + banned->evidence + ")";
            out.explanation.clear();
            return out;
        }
        out.level = std::max(out.level, level);
        out.explanation += (out.explanation.empty() ? "" : "; ") + how;
    }
    return out;
}

bool ccRunsBuild(const std::string& cardCc, const std::string& buildCc)
{
    const auto card = parseVersion(cardCc);
    const auto build = parseCcBuild(buildCc);
    if (!card || !build || card->size() < 2)
        return false;
    if (build->ptx) // the driver compiles PTX for this and every later architecture
        return compareVersions(*card, build->cc) >= 0;
    return (*card)[0] == build->cc[0] && (*card)[1] >= build->cc[1];
}

ProfileGpuSupport profileCcSupport(const Profile& profile, const Catalog& cat,
                                   const std::string& cc)
{
    ProfileGpuSupport out;
    for (const auto& id : profile.runtimes) {
        const Runtime* r = cat.runtime(id);
        if (!r || r->supportedCc.empty())
            continue;
        const auto it = std::find_if(r->supportedCc.begin(), r->supportedCc.end(),
                                     [&](const std::string& b) { return ccRunsBuild(cc, b); });
        if (it == r->supportedCc.end()) {
            std::string list;
            for (const auto& b : r->supportedCc)
                list += (list.empty() ? "" : ", ") + b;
            out.level = GpuSupport::Unsupported;
            out.unsupportedText = r->id + " has no kernels for compute capability " + cc +
                                  " (it is built for " + list + ")";
            out.explanation.clear();
            return out;
        }
        out.explanation += (out.explanation.empty() ? "" : "; ") + r->id +
                           " ships kernels for compute capability " + *it;
    }
    return out;
}

} // namespace sp
