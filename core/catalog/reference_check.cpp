#include "core/catalog/reference_check.h"

#include "core/catalog/placeholders.h"
#include "core/catalog/position_index.h"
#include "core/strings.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace sp {

namespace {

using Templates = std::vector<std::pair<std::string, std::string>>; // (pointer, text)

std::string missingRuntimeRef(const Catalog& cat, const std::string& text)
{
    for (const auto& ph : findPlaceholders(text))
        if (ph.rfind("runtime:", 0) == 0 && !cat.runtime(ph.substr(8)))
            return ph;
    return {};
}

std::string checkRuntime(const Catalog& cat, const Runtime& r, const CatalogLocator& at)
{
    const std::string key = "runtime:" + r.id;
    for (std::size_t i = 0; i < r.requires_.size(); ++i)
        if (!cat.runtime(r.requires_[i]))
            return at(key, "/requires/" + std::to_string(i)) + ": runtime '" + r.id +
                   "' requires runtime '" + r.requires_[i] + "', which does not exist";
    // An install_dir never names another runtime's folder: such a chain (or a cycle)
    // could not be expanded, and a plan must never print a placeholder.
    for (const auto& ph : findPlaceholders(r.installDir))
        if (ph.rfind("runtime:", 0) == 0 || ph == "python" || ph == "base_python" || ph == "venv")
            return at(key, "/install_dir") + ": install_dir may not use {" + ph +
                   "} (another runtime's or a profile's folder)";
    Templates templ{{"/install_dir", r.installDir}};
    for (const auto& [k, v] : r.env)
        templ.emplace_back("/env/" + PositionIndex::escapeToken(k), v);
    for (const auto& [sub, s] : templ)
        if (auto ph = missingRuntimeRef(cat, s); !ph.empty())
            return at(key, sub) + ": placeholder {" + ph + "} names a runtime that does not exist";
    return {};
}

Templates workloadTemplates(const Workload& w)
{
    Templates templ{{"/cwd", w.cwd}};
    for (std::size_t i = 0; i < w.command.size(); ++i)
        templ.emplace_back("/command/" + std::to_string(i), w.command[i]);
    for (const auto& [os, cmd] : w.commandByOs)
        for (std::size_t i = 0; i < cmd.size(); ++i)
            templ.emplace_back("/command_by_os/" + os + "/" + std::to_string(i), cmd[i]);
    for (const auto& [k, v] : w.env)
        templ.emplace_back("/env/" + PositionIndex::escapeToken(k), v);
    for (std::size_t i = 0; i < w.verify.size(); ++i)
        templ.emplace_back("/verify/" + std::to_string(i), w.verify[i]);
    return templ;
}

Templates profileTemplates(const Profile& p)
{
    Templates templ{{"/python", p.python}, {"/cwd", p.cwd}};
    for (std::size_t i = 0; i < p.args.size(); ++i)
        templ.emplace_back("/args/" + std::to_string(i), p.args[i]);
    for (std::size_t i = 0; i < p.command.size(); ++i)
        templ.emplace_back("/command/" + std::to_string(i), p.command[i]);
    for (std::size_t s = 0; s < p.steps.size(); ++s)
        for (std::size_t i = 0; i < p.steps[s].size(); ++i)
            templ.emplace_back("/steps/" + std::to_string(s) + "/" + std::to_string(i),
                               p.steps[s][i]);
    for (const auto& [k, v] : p.env)
        templ.emplace_back("/env/" + PositionIndex::escapeToken(k), v);
    for (std::size_t i = 0; i < p.verify.size(); ++i)
        templ.emplace_back("/verify/" + std::to_string(i), p.verify[i]);
    return templ;
}

// What the profile runs of its workload: its command unless the profile has its own,
// its cwd unless the profile sets one, and its env.
std::vector<std::string> inheritedTemplates(const Profile& p, const Workload& w)
{
    std::vector<std::string> out;
    for (const auto& [sub, s] : workloadTemplates(w)) {
        const bool command = sub.rfind("/command", 0) == 0;
        const bool verify = sub.rfind("/verify", 0) == 0;
        if ((command && !p.command.empty()) || (sub == "/cwd" && !p.cwd.empty()) ||
            (verify && !p.verify.empty()))
            continue;
        out.push_back(s);
    }
    return out;
}

bool hasPythonRuntime(const Catalog& cat, const Profile& p)
{
    return std::any_of(p.runtimes.begin(), p.runtimes.end(), [&](const std::string& id) {
        const Runtime* r = cat.runtime(id);
        return r && r->kind == "python";
    });
}

// Why a template of profile p cannot be expanded, or empty.
std::string unresolvable(const Catalog& cat, const Profile& p, const std::string& text)
{
    for (const auto& ph : findPlaceholders(text)) {
        if (ph.rfind("runtime:", 0) == 0 && !contains(p.runtimes, ph.substr(8)))
            return "uses {" + ph + "}, but does not list runtime '" + ph.substr(8) + "'";
        if (ph == "venv" && !p.venv)
            return "uses {venv}, but has no \"venv\": true";
        const bool needsBase = ph == "base_python" || (ph == "python" && p.python.empty());
        if (needsBase && !hasPythonRuntime(cat, p))
            return "uses {" + ph + "}, but lists no runtime of kind 'python' (no plan runs a " +
                   "bare system python)";
    }
    return {};
}

std::string checkProfileRuntimes(const Catalog& cat, const Profile& p, const CatalogLocator& at)
{
    const std::string key = "profile:" + p.id;
    for (std::size_t i = 0; i < p.runtimes.size(); ++i) {
        const Runtime* r = cat.runtime(p.runtimes[i]);
        const auto sub = "/runtimes/" + std::to_string(i);
        if (!r)
            return at(key, sub) + ": profile '" + p.id + "' names runtime '" + p.runtimes[i] +
                   "', which does not exist";
        if (p.status == ProfileStatus::Tested && r->hasUnpinnedArtifact())
            return at(key, "/status") + ": profile '" + p.id + "' is 'tested' but runtime '" +
                   r->id + "' has an unpinned artifact (no sha256)";
        for (const auto& req : r->requires_)
            if (!contains(p.runtimes, req))
                return at(key, sub) + ": runtime '" + r->id + "' is built for '" + req +
                       "', which profile '" + p.id + "' does not include";
    }
    return {};
}

std::string checkProfileReferences(const Catalog& cat, const Profile& p, const CatalogLocator& at)
{
    const std::string key = "profile:" + p.id;
    const Workload* w = cat.workload(p.workload);
    if (!w)
        return at(key, "/workload") + ": profile '" + p.id + "' names workload '" + p.workload +
               "', which does not exist";
    if (auto e = checkProfileRuntimes(cat, p, at); !e.empty())
        return e;
    const auto templ = profileTemplates(p);
    for (const auto& [sub, s] : templ)
        if (auto ph = missingRuntimeRef(cat, s); !ph.empty())
            return at(key, sub) + ": placeholder {" + ph + "} names a runtime that does not exist";
    // A plan must not point at a folder it does not install, nor at a Python it lacks.
    for (const auto& [sub, s] : templ)
        if (auto why = unresolvable(cat, p, s); !why.empty())
            return at(key, sub) + ": profile '" + p.id + "' " + why;
    for (const auto& s : inheritedTemplates(p, *w))
        if (auto why = unresolvable(cat, p, s); !why.empty())
            return at(key, "/runtimes") + ": profile '" + p.id + "' runs workload '" + w->id +
                   "', which " + why;
    return {};
}

// A remedy that names a profile or runtime must name one that exists, or applying it
// would write a dangling override into the user's settings.
std::string checkRemedy(const Catalog& cat, const KnownIssue& k, const CatalogLocator& at)
{
    const std::string key = "known issue:" + k.id;
    const Remedy& r = k.remedy;
    if (!r.profile.empty() && !cat.profile(r.profile))
        return at(key, "/remedy/profile") + ": remedy of '" + k.id + "' names profile '" +
               r.profile + "', which does not exist";
    if (!r.runtime.empty() && !cat.runtime(r.runtime))
        return at(key, "/remedy/runtime") + ": remedy of '" + k.id + "' names runtime '" +
               r.runtime + "', which does not exist";
    // A cause that outranks a missing issue would silently outrank nothing.
    for (std::size_t c = 0; c < k.causes.size(); ++c)
        for (std::size_t i = 0; i < k.causes[c].over.size(); ++i)
            if (!cat.knownIssue(k.causes[c].over[i]))
                return at(key, "/causes/" + std::to_string(c) + "/over/" + std::to_string(i)) +
                       ": cause of '" + k.id + "' outranks known issue '" + k.causes[c].over[i] +
                       "', which does not exist";
    return {};
}

} // namespace

std::string checkCatalogReferences(const Catalog& cat, const CatalogLocator& at)
{
    for (const auto& r : cat.runtimes)
        if (auto e = checkRuntime(cat, r, at); !e.empty())
            return e;
    for (const auto& w : cat.workloads)
        for (const auto& [sub, s] : workloadTemplates(w))
            if (auto ph = missingRuntimeRef(cat, s); !ph.empty())
                return at("workload:" + w.id, sub) + ": placeholder {" + ph +
                       "} names a runtime that does not exist";
    for (const auto& p : cat.profiles)
        if (auto e = checkProfileReferences(cat, p, at); !e.empty())
            return e;
    for (const auto& k : cat.knownIssues)
        if (auto e = checkRemedy(cat, k, at); !e.empty())
            return e;
    for (const auto& m : cat.models)
        for (std::size_t i = 0; i < m.workloads.size(); ++i)
            if (!cat.workload(m.workloads[i]))
                return at("model:" + m.id, "/workloads/" + std::to_string(i)) + ": workload '" +
                       m.workloads[i] + "' does not exist";
    return {};
}

} // namespace sp
