#include "core/catalog/types.h"

#include <algorithm>

namespace sp {

namespace {
template <class T> const T* findById(const std::vector<T>& v, const std::string& id)
{
    auto it = std::find_if(v.begin(), v.end(), [&](const T& e) { return e.id == id; });
    return it == v.end() ? nullptr : &*it;
}
struct ActionName
{
    RemedyAction action;
    const char* name;
};
constexpr ActionName kActionNames[] = {
    {RemedyAction::SwitchProfile, "switch_profile"},
    {RemedyAction::SetEnv, "set_env"},
    {RemedyAction::AddArgs, "add_args"},
    {RemedyAction::RelocateCaches, "relocate_caches"},
    {RemedyAction::RepairRuntime, "repair_runtime"},
    {RemedyAction::Info, "info"},
};
} // namespace

std::string toString(RemedyAction a)
{
    for (const auto& n : kActionNames)
        if (n.action == a)
            return n.name;
    return "info";
}

std::optional<RemedyAction> remedyActionFromString(const std::string& s)
{
    for (const auto& n : kActionNames)
        if (s == n.name)
            return n.action;
    return std::nullopt;
}

const Runtime* Catalog::runtime(const std::string& id) const
{
    return findById(runtimes, id);
}
const Workload* Catalog::workload(const std::string& id) const
{
    return findById(workloads, id);
}
const Profile* Catalog::profile(const std::string& id) const
{
    return findById(profiles, id);
}
const KnownIssue* Catalog::knownIssue(const std::string& id) const
{
    return findById(knownIssues, id);
}
const Model* Catalog::model(const std::string& id) const
{
    return findById(models, id);
}
std::string ModelFile::displayName() const
{
    const std::string path = url.substr(0, url.find_first_of("?#"));
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}
const GfxOverride* Catalog::gfxOverride(const std::string& gfx, const std::string& os) const
{
    auto it = std::find_if(gfxOverrides.begin(), gfxOverrides.end(), [&](const GfxOverride& o) {
        return o.gfx == gfx &&
               (o.os.empty() || std::find(o.os.begin(), o.os.end(), os) != o.os.end());
    });
    return it == gfxOverrides.end() ? nullptr : &*it;
}
const CacheRelocation* Catalog::cacheRelocation(const std::string& os) const
{
    auto it = std::find_if(cacheRelocations.begin(), cacheRelocations.end(),
                           [&](const CacheRelocation& r) { return r.os == os; });
    return it == cacheRelocations.end() ? nullptr : &*it;
}

} // namespace sp

namespace sp {

std::string toString(ProfileStatus s)
{
    switch (s) {
    case ProfileStatus::Tested:
        return "tested";
    case ProfileStatus::Community:
        return "community";
    case ProfileStatus::Experimental:
        return "experimental";
    }
    return "experimental";
}

const std::string& UserText::in(std::string_view language) const
{
    // "zh", "zh_CN", "zh-CN", "zh_CN.UTF-8", "zh-Hans", "zh_Hans_CN": Simplified Chinese.
    // Traditional ("zh_TW", "zh-Hant") is not carried: English.
    const bool zh = language.substr(0, 2) == "zh" && (language.size() == 2 || language[2] == '_' ||
                                                      language[2] == '-' || language[2] == '.');
    const bool traditional = language.find("TW") != std::string_view::npos ||
                             language.find("HK") != std::string_view::npos ||
                             language.find("MO") != std::string_view::npos ||
                             language.find("Hant") != std::string_view::npos;
    return zh && !traditional && !zhCN.empty() ? zhCN : en;
}

std::string Artifact::displayName() const
{
    const std::string u = url.substr(0, url.find_first_of("?#"));
    const auto slash = u.rfind('/');
    std::string name = slash == std::string::npos ? u : u.substr(slash + 1);
    return name.empty() ? std::string("artifact") : name;
}

} // namespace sp
