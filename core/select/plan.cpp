#include "core/select/plan.h"

#include <algorithm>

namespace sp {

nlohmann::json toJson(const Plan& plan)
{
    using json = nlohmann::json;
    json j;
    j["workload"] = plan.workload;
    j["profile"] = plan.profile.empty()
                       ? json(nullptr)
                       : json{{"id", plan.profile}, {"status", toString(plan.status)}};
    j["gpu"] = plan.gpu ? json(*plan.gpu) : json(nullptr);
    if (plan.card)
        j["gpu_card"] = {{"name", plan.card->name},
                         {"pci_bus", plan.card->pciBus},
                         {"pci_id", plan.card->pciId},
                         {"target", plan.card->target},
                         {"memory_mb", plan.card->memoryMb ? json(*plan.card->memoryMb) : json()},
                         {"integrated", plan.card->integrated},
                         {"chosen_by", plan.card->chosenBy}};
    j["runtimes"] = json::array();
    for (const auto& r : plan.runtimes) {
        json rj{{"id", r.id}, {"kind", r.kind}, {"version", r.version}, {"dir", r.dir}};
        if (r.system)
            rj["system"] = true;
        if (r.unpinned)
            rj["unpinned"] = true;
        if (r.urlUnverified)
            rj["url_unverified"] = true;
        if (std::any_of(r.pins.begin(), r.pins.end(), [](const auto& p) { return p != "catalog"; }))
            rj["pins"] = r.pins;
        j["runtimes"].push_back(std::move(rj));
    }
    j["env"] = plan.env;
    j["env_why"] = plan.envWhy;
    j["env_unset"] = plan.envUnset;
    j["path"] = plan.path;
    j["command"] = plan.command;
    j["cwd"] = plan.cwd;
    j["args"] = plan.args;
    j["args_why"] = nlohmann::json::array();
    for (const auto& n : plan.argsNotes)
        j["args_why"].push_back({{"args", n.args}, {"why", n.why.en}});
    j["steps"] = plan.steps;
    j["verify"] = plan.verify;
    if (!plan.localEvidence.empty())
        j["local_evidence"] = plan.localEvidence;
    if (!plan.sharedEvidence.empty())
        j["shared_evidence"] = plan.sharedEvidence;
    if (!plan.venv.empty())
        j["venv"] = plan.venv;
    j["warnings"] = plan.warnings;
    j["repair"] = plan.repair;
    j["alternatives"] = json::array();
    for (const auto& a : plan.alternatives) {
        json aj{{"profile", a.profile}, {"verdict", a.verdict}, {"reasons", json::array()}};
        if (a.failedHere)
            aj["failed_here"] = true;
        for (const auto& r : a.reasons)
            aj["reasons"].push_back(
                {{"text", r.text},
                 {"known_issue", r.knownIssue.empty() ? json(nullptr) : json(r.knownIssue)}});
        j["alternatives"].push_back(std::move(aj));
    }
    j["references"] = plan.references;
    return j;
}

AlternativeGroups groupAlternatives(const Plan& plan)
{
    AlternativeGroups out;
    for (const auto& a : plan.alternatives) {
        const bool cited = std::any_of(a.reasons.begin(), a.reasons.end(),
                                       [](const PlanReason& r) { return !r.knownIssue.empty(); });
        if (a.verdict == "rejected" && !cited)
            out.otherMachine.push_back(a.profile);
        else
            out.explained.push_back(&a);
    }
    return out;
}

} // namespace sp
