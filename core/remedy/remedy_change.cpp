// RemedyChange: the plan summaries and the JSON that `remedy --json` prints.

#include "core/remedy/remedy.h"
#include "core/remedy/remedy_support.h"

#include <algorithm>

namespace sp {

namespace {

nlohmann::json toJson(const PlanSummary& p)
{
    return {{"profile", p.profile.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.profile)},
            {"env", p.env},
            {"args", p.args},
            {"repair", p.repair}};
}

} // namespace

PlanSummary summarize(const Plan& plan)
{
    return {plan.profile, plan.env, plan.args, plan.repair};
}

std::map<std::string, std::string> RemedyChange::envAdded() const
{
    std::map<std::string, std::string> out;
    for (const auto& [k, v] : planAfter.env) {
        const auto it = planBefore.env.find(k);
        if (it == planBefore.env.end() || it->second != v)
            out[k] = v;
    }
    return out;
}

std::vector<std::string> RemedyChange::argsAdded() const
{
    // What lies between the common start and the common end: a flag keeps its value
    // ("--fixed yes" stays whole even when the user's args already hold a "yes").
    const auto& b = planBefore.args;
    const auto& a = planAfter.args;
    std::size_t head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head])
        ++head;
    std::size_t tail = 0;
    while (tail < a.size() - head && tail < b.size() - head &&
           a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
        ++tail;
    return {a.begin() + static_cast<std::ptrdiff_t>(head),
            a.end() - static_cast<std::ptrdiff_t>(tail)};
}

nlohmann::json toJson(const RemedyChange& change)
{
    nlohmann::json j{{"issue", change.issue},
                     {"workload", change.workload},
                     {"action", toString(change.action)},
                     {"changed", change.changed},
                     {"message", change.message},
                     {"details", change.details}};
    if (change.planned) {
        j["plan_before"] = toJson(change.planBefore);
        j["plan_after"] = toJson(change.planAfter);
        j["env_added"] = change.envAdded();
        j["args_added"] = change.argsAdded();
    }
    return j;
}

namespace remedy_support {

const AppliedRemedy* findApplied(const Settings& s, const std::string& workload,
                                 const std::string& issue)
{
    const auto w = s.workloads.find(workload);
    if (w == s.workloads.end())
        return nullptr;
    for (const auto& r : w->second.remedies)
        if (r.issue == issue)
            return &r;
    return nullptr;
}

} // namespace remedy_support

} // namespace sp
