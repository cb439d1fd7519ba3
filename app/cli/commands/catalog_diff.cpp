// stackpilot-cli catalog diff [URL|DIR]: which plans of this machine a new catalog would
// change, in plain words. The new catalog is a feed (URL, or a folder with
// manifest.json: verified as `catalog verify` does; without an argument, the feed
// `catalog update` would take) or a plain catalog folder (a maintainer's, before
// `catalog publish`). Both sides plan with this machine's snapshot (or --hardware), the
// user's catalog.d, --catalog-dir and settings.json, as `plan` does.

#include "app/cli/commands/catalog_common.h"
#include "app/cli/commands/catalog_verbs.h"
#include "app/cli/commands/machine_options.h"
#include "core/catalog/feed/held_folder.h"
#include "core/ownership.h"
#include "core/paths.h"
#include "core/select/select.h"
#include "core/select/workload_overrides.h"
#include "core/settings.h"
#include "installers/feed_http_source.h"

#include <QDir>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>

namespace sp::cli {

namespace {

namespace fs = std::filesystem;

struct PlanChange
{
    std::string workload, before, after; // profile ids, "" = none fits
    std::string sentence;
};

std::string kindName(const std::string& kind)
{
    static const std::map<std::string, std::string> names = {
        {"hip-sdk", "HIP SDK"},         {"zluda", "ZLUDA"},
        {"rocblas-library", "rocBLAS"}, {"rocm", "ROCm"},
        {"torch-wheels", "PyTorch"},    {"llama-cpp", "llama.cpp"},
        {"llamafile", "llamafile"},     {"cuda", "CUDA"}};
    auto it = names.find(kind);
    return it == names.end() ? kind : it->second;
}

// "HIP SDK 5.7.1 + ZLUDA 3.9.5 + rocBLAS 5.7.1": the runtimes that make the stack
// (not the Python, git or the workload's own source).
std::string stackOf(const Plan& p)
{
    std::string out;
    for (const auto& rt : p.runtimes) {
        if (rt.kind == "python" || rt.kind == "git" || rt.kind == "source")
            continue;
        out += (out.empty() ? "" : " + ") + kindName(rt.kind) + " " + rt.version;
    }
    return out.empty() ? "its own runtimes" : out;
}

std::optional<Plan> planOf(const HardwareSnapshot& snap, const Catalog& catalog,
                           const std::string& workload, const Settings& settings)
{
    if (!catalog.workload(workload))
        return std::nullopt;
    auto plan = makePlan(snap, catalog, workload,
                         selectSettingsFor(settings, workload, hostSelectSettings(snap)));
    if (!plan || plan->profile.empty())
        return std::nullopt;
    return std::move(*plan);
}

std::vector<std::string> planRuntimeIds(const Plan& p)
{
    std::vector<std::string> v;
    for (const auto& rt : p.runtimes)
        v.push_back(rt.id);
    return v;
}

// What else changes for the same profile and runtimes: variables and arguments.
std::string settingsChange(const Plan& a, const Plan& b)
{
    std::set<std::string> vars;
    for (const auto& [k, v] : a.env)
        if (auto it = b.env.find(k); it == b.env.end() || it->second != v)
            vars.insert(k);
    for (const auto& [k, v] : b.env)
        if (!a.env.count(k))
            vars.insert(k);
    std::string out;
    for (const auto& v : vars)
        out += (out.empty() ? "" : ", ") + v;
    if (a.args != b.args)
        out += std::string(out.empty() ? "" : "; ") + "its arguments";
    return out;
}

std::optional<PlanChange> changeOf(const std::string& name, const std::optional<Plan>& a,
                                   const std::optional<Plan>& b)
{
    PlanChange c{{}, a ? a->profile : "", b ? b->profile : "", {}};
    if (!a && !b)
        return std::nullopt;
    if (!a)
        c.sentence = name + " would run here with " + stackOf(*b) + " (" + b->profile +
                     "); today no profile fits this machine";
    else if (!b)
        c.sentence = name +
                     " would no longer run here: no profile of the new catalog fits this "
                     "machine (today " +
                     stackOf(*a) + ", " + a->profile + ")";
    else if (a->profile != b->profile)
        c.sentence = name + " would move from " + stackOf(*a) + " (" + a->profile + ") to " +
                     stackOf(*b) + " (" + b->profile + ")";
    else if (planRuntimeIds(*a) != planRuntimeIds(*b))
        c.sentence = name + " keeps " + a->profile + ", but its stack would change from " +
                     stackOf(*a) + " to " + stackOf(*b);
    else if (auto s = settingsChange(*a, *b); !s.empty())
        c.sentence = name + " keeps " + a->profile + " (" + stackOf(*a) +
                     "); its settings would change: " + s;
    else
        return std::nullopt;
    return c;
}

std::vector<PlanChange> diffPlans(const HardwareSnapshot& snap, const Catalog& before,
                                  const Catalog& after, const Settings& settings)
{
    std::vector<std::string> ids;
    std::set<std::string> seen;
    for (const auto* c : {&before, &after})
        for (const auto& w : c->workloads)
            if (seen.insert(w.id).second)
                ids.push_back(w.id);
    std::vector<PlanChange> out;
    for (const auto& id : ids) {
        const Workload* w = after.workload(id) ? after.workload(id) : before.workload(id);
        auto change = changeOf(w->name.empty() ? id : w->name, planOf(snap, before, id, settings),
                               planOf(snap, after, id, settings));
        if (change) {
            change->workload = id;
            out.push_back(std::move(*change));
        }
    }
    return out;
}

// A profile whose status the new catalog changes (a ledger proposal, a maintainer's
// edit), with the users' results behind it when the profile carries a proof.
struct StatusChange
{
    std::string profile, before, after, proof;
};

std::string proofWords(const std::optional<ProfileProof>& p)
{
    if (!p)
        return "";
    return "passed on " + std::to_string(p->passedInstalls) + " PC(s), " +
           std::to_string(p->failedInstalls) + " failed, " + std::to_string(p->installs) +
           " install(s) within " + std::to_string(p->windowDays) +
           " days (last: " + p->lastSeen.substr(0, 10) + ")";
}

std::vector<StatusChange> statusChanges(const Catalog& before, const Catalog& after)
{
    std::vector<StatusChange> out;
    for (const Profile& now : after.profiles) {
        const Profile* was = before.profile(now.id);
        if (!was || was->status == now.status)
            continue;
        out.push_back({now.id, toString(was->status), toString(now.status), proofWords(now.proof)});
    }
    return out;
}

void printStatusChanges(const std::vector<StatusChange>& changes, Io& io)
{
    if (changes.empty())
        return;
    io.out << "Status changes:\n";
    for (const auto& c : changes)
        io.out << "  " << c.profile << ": " << c.before << " -> " << c.after
               << (c.proof.empty() ? "" : " (" + c.proof + ")") << "\n";
}

// The new catalog's folder: DIR itself when it is a plain catalog folder, else the
// feed verified into `tmp`. Sets `what` to how the output names it.
Expected<fs::path> newCatalogDir(const QCommandLineParser& p, const std::string& where,
                                 const Expected<fs::path>& tmp, std::string& what)
{
    std::error_code ec;
    if (!where.empty() && !isFeedUrl(where) && fs::is_directory(paths::fromUtf8(where), ec) &&
        !fs::exists(paths::fromUtf8(where) / "manifest.json", ec)) {
        what = "the catalog in " + where;
        return paths::fromUtf8(where);
    }
    if (!tmp)
        return tmp.error();
    const fs::path dir = *tmp;
    auto r = verifyFeedForDiff(p, where, dir);
    if (!r)
        return r.error();
    if (r->outcome == feed::Outcome::Skipped)
        return Error::runtime(r->message);
    what = "feed " + std::to_string(r->manifest.version) + " (" + r->manifest.feed +
           ", published " + r->manifest.published + ")";
    return dir / "catalog";
}

void printChanges(const std::vector<PlanChange>& changes, const std::vector<StatusChange>& statuses,
                  const std::string& what, bool json, Io& io)
{
    if (json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& c : changes)
            list.push_back({{"workload", c.workload},
                            {"before", c.before},
                            {"after", c.after},
                            {"change", c.sentence}});
        nlohmann::json status = nlohmann::json::array();
        for (const auto& c : statuses)
            status.push_back({{"profile", c.profile},
                              {"before", c.before},
                              {"after", c.after},
                              {"proof", c.proof}});
        io.out << nlohmann::json{{"compared_with", what},
                                 {"changes", list},
                                 {"status_changes", status}}
                      .dump(2)
               << "\n";
        return;
    }
    io.out << "With " << what << ":\n";
    for (const auto& c : changes)
        io.out << "  " << c.sentence << "\n";
    if (changes.empty())
        io.out << "  no plan on this machine would change\n";
    else
        io.out << changes.size() << " plan(s) on this machine would change\n";
    printStatusChanges(statuses, io);
}

} // namespace

int runCatalogDiff(const QCommandLineParser& p, Io& io, const std::string& where)
{
    int rc = 0;
    auto current = loadCatalogForCli(p, io, "catalog", &rc);
    if (!current)
        return rc;
    // A held folder (core/catalog/feed/held_folder.h): an interrupted diff leaves
    // nothing for good.
    const auto tmp = feed::createHeldFolderIn(toPath(QDir::tempPath()), feed::kFeedTempPrefix,
                                              "a catalog feed being compared");
    struct Remove
    {
        const Expected<fs::path>& dir;
        ~Remove()
        {
            if (dir)
                (void)ownership::removeOwned(*dir);
        }
    } remove{tmp};
    std::string what;
    auto dir = newCatalogDir(p, where, tmp, what);
    if (!dir) {
        io.err << "stackpilot-cli catalog: " << dir.error().message << "\n";
        return exitCodeFor(dir.error());
    }
    CatalogLoadOptions o;
    o.builtinDir = *dir;
    for (const auto& extra : p.values(QStringLiteral("catalog-dir")))
        o.extraDirs.push_back(toPath(extra));
    auto next = loadCatalog(o);
    if (!next) {
        io.err << "stackpilot-cli catalog: the new catalog does not load: " << next.error().message
               << "\n";
        return exitCodeFor(next.error());
    }
    auto machine = machineForCli(p, io, &rc);
    if (!machine)
        return rc;
    auto settings = Settings::load();
    if (!settings) {
        io.err << "stackpilot-cli catalog: " << settings.error().message << "\n";
        return exitCodeFor(settings.error());
    }
    printChanges(diffPlans(*machine, current->catalog, next->catalog, *settings),
                 statusChanges(current->catalog, next->catalog), what,
                 p.isSet(QStringLiteral("json")), io);
    return 0;
}

} // namespace sp::cli
