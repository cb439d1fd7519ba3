#include "installers/install_plan.h"

#include "core/paths.h"

namespace sp {

Expected<std::vector<const Runtime*>> runtimesFor(const Catalog& catalog, const std::string& id)
{
    std::vector<const Runtime*> out;
    if (const Profile* profile = catalog.profile(id)) {
        for (const auto& rid : profile->runtimes) {
            const Runtime* rt = catalog.runtime(rid);
            if (!rt)
                return Error::invalid("profile '" + id + "' names the unknown runtime '" + rid +
                                      "' (" + profile->where.toString() + ")");
            out.push_back(rt);
        }
        return out;
    }
    if (const Runtime* rt = catalog.runtime(id)) {
        out.push_back(rt);
        return out;
    }
    return Error::usage("'" + id + "' is neither a profile nor a runtime of the catalog");
}

Expected<RepairCheck> checkForRepair(const PrefixStore& store, const Runtime& runtime)
{
    if (runtime.system)
        return Error::runtime(
            "'" + runtime.id + "' is provided by the system (" +
            (runtime.installDir.empty() ? "its own installer" : runtime.installDir) +
            "); StackPilot never modifies it: repair it with its own installer");
    if (auto r = store.checkOwnership(runtime.id); !r)
        return r.error();
    RepairCheck check;
    auto receipt = store.receipt(runtime.id);
    check.installed = receipt.ok();
    if (check.installed)
        check.problems = verifyTree(store.runtimeDir(runtime.id), *receipt);
    return check;
}

nlohmann::json toJson(const InstallResult& r)
{
    nlohmann::json arts = nlohmann::json::array();
    for (const auto& a : r.artifacts)
        arts.push_back({{"url", a.url},
                        {"source", toString(a.fetch.source)},
                        {"origin", a.fetch.origin},
                        {"sha256", a.fetch.sha256},
                        {"size", a.fetch.size},
                        {"extracted_bytes", a.extractedBytes}});
    return {{"id", r.id},
            {"ok", true},
            {"already_installed", r.alreadyInstalled},
            {"dir", paths::toUtf8(r.dir)},
            {"files", r.files},
            {"artifacts", arts},
            {"warnings", r.warnings}};
}

} // namespace sp
