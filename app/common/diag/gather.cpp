// The report's sections: plans and why, the catalog's identity, fresh verify results,
// recent launches, the environment difference and the doctor's findings. Each is plain
// JSON; collect() redacts the whole report before anything is written.

#include "app/common/diag/bundle.h"
#include "app/common/diag/collect_parts.h"
#include "app/common/doctor/doctor.h"
#include "core/paths.h"
#include "core/select/select.h"
#include "core/select/workload_overrides.h"
#include "installers/prefix_store.h"
#include "installers/sha256.h"

#include <algorithm>
#include <cstdlib>

namespace fs = std::filesystem;

namespace sp::diag {

CatalogIdentity shippedCatalogIdentity()
{
    // The shipped catalog has no version field: its digest says which one it is.
    const fs::path dir = paths::shippedDataDir() / "catalog";
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && it->is_regular_file(ec))
            files.push_back(it->path());
    std::sort(files.begin(), files.end());
    CatalogIdentity id;
    id.files = nlohmann::json::array();
    std::string all;
    for (const auto& f : files) {
        const auto sha = Sha256::ofFile(f);
        const std::string name = paths::toUtf8(f.filename());
        const std::string hex = sha ? *sha : "unreadable";
        id.files.push_back({{"name", name}, {"sha256", hex}});
        all += name + " " + hex + "\n";
    }
    id.digest = Sha256::ofBytes(all.data(), all.size());
    return id;
}

} // namespace sp::diag

namespace sp::diag::detail {

Plans makePlans(const HardwareSnapshot& snap, const Catalog& catalog, const Settings& settings)
{
    const SelectSettings base = hostSelectSettings(snap); // as plan does
    Plans out;
    for (const auto& w : catalog.workloads) {
        out.order.push_back(w.id);
        auto plan = makePlan(snap, catalog, w.id, selectSettingsFor(settings, w.id, base));
        if (!plan) {
            out.json[w.id] = {{"error", plan.error().message}};
            continue;
        }
        out.json[w.id] = toJson(*plan);
        out.byWorkload.emplace(w.id, std::move(*plan));
    }
    return out;
}

nlohmann::json catalogJson(const LoadedCatalog* loaded, const std::string& error,
                           const std::vector<std::string>& overrides)
{
    const CatalogIdentity shipped = shippedCatalogIdentity();
    nlohmann::json j = {
        {"digest", shipped.digest}, {"files", shipped.files}, {"user_overrides", overrides}};
    if (loaded) {
        j["warnings"] = loaded->warnings;
        j["notices"] = loaded->notices;
        j["counts"] = {{"runtimes", loaded->catalog.runtimes.size()},
                       {"workloads", loaded->catalog.workloads.size()},
                       {"profiles", loaded->catalog.profiles.size()},
                       {"known_issues", loaded->catalog.knownIssues.size()}};
    }
    if (!error.empty())
        j["error"] = error;
    return j;
}

nlohmann::json hardwareJson(const HardwareSnapshot& snap)
{
    nlohmann::json j = toJson(snap);
    if (j.contains("probes") && j["probes"].is_array())
        for (auto& p : j["probes"])
            if (p.is_object())
                p.erase("elapsed_ms");
    return j;
}

nlohmann::json verifyRuntime(const fs::path& root, const std::string& id)
{
    const PrefixStore store(root);
    nlohmann::json j = {{"id", id}};
    auto receipt = store.receipt(id);
    if (!receipt) {
        j["verify"] = "unreadable receipt";
        j["error"] = receipt.error().message;
        return j;
    }
    j["kind"] = receipt->kind;
    j["version"] = receipt->version;
    j["installed_at"] = receipt->installedAt;
    j["files"] = receipt->files.size();
    const auto problems = verifyTree(store.runtimeDir(id), *receipt);
    j["verify"] = problems.empty() ? "ok" : "damaged";
    j["problem_count"] = problems.size();
    nlohmann::json listed = nlohmann::json::array();
    for (std::size_t i = 0; i < problems.size() && i < kVerifyProblemsListed; ++i)
        listed.push_back({{"path", problems[i].path},
                          {"issue", problems[i].issue},
                          {"detail", problems[i].detail}});
    j["problems"] = listed;
    return j;
}

nlohmann::json launchesJson(const std::vector<LaunchRecord>& newestFirst, const Catalog* catalog)
{
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t i = 0; i < newestFirst.size() && i < kRecentLaunches; ++i) {
        nlohmann::json j = toJson(newestFirst[i]);
        nlohmann::json titles = nlohmann::json::object();
        for (const auto& id : newestFirst[i].knownIssues)
            if (const KnownIssue* k = catalog ? catalog->knownIssue(id) : nullptr)
                titles[id] = k->title;
        j["known_issue_titles"] = titles;
        out.push_back(std::move(j));
    }
    return out;
}

nlohmann::json environmentJson(const Plan& plan, const EnvMap& env, const std::string& os)
{
    const ComposedLaunch composed = composeLaunch(plan, env, os);
    nlohmann::json changes = nlohmann::json::array();
    for (const auto& c : composed.changes)
        changes.push_back({{"name", c.name},
                           {"change", toString(c.kind)},
                           {"before", c.before},
                           {"after", c.after},
                           {"reason", c.reason}});
    return {{"workload", plan.workload},
            {"profile", plan.profile},
            {"argv", composed.argv},
            {"cwd", composed.cwd},
            {"changes", changes}};
}

nlohmann::json doctorJson(const HardwareSnapshot& snap, const Catalog& catalog, const Plan* plan,
                          const EnvMap& env, bool thisMachine)
{
    doctor::DoctorInput in;
    in.snapshot = &snap;
    in.catalog = &catalog;
    in.plan = plan;
    in.dataDir = paths::dataDir();
    in.runtimesDir = PrefixStore::defaultRoot();
    in.env = env;
    doctor::fillFromHost(in);
    in.thisMachine = thisMachine;
    return doctor::toJson(doctor::runAllChecks(in)).at("findings");
}

} // namespace sp::diag::detail
