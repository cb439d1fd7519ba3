// Undo: restore exactly what an applied remedy recorded in `before`, then forget it.

#include "core/remedy/remedy.h"
#include "core/remedy/remedy_support.h"
#include "core/select/workload_overrides.h"

#include <algorithm>

namespace sp {

namespace {

Expected<std::string> appliedWorkload(const Settings& s, const std::string& issue)
{
    std::vector<std::string> found;
    for (const auto& [id, w] : s.workloads)
        if (remedy_support::findApplied(s, id, issue))
            found.push_back(id);
    if (found.empty())
        return Error::runtime("the remedy for '" + issue + "' is not applied");
    if (found.size() > 1)
        return Error::usage("the remedy for '" + issue +
                            "' is applied to several workloads; name one with --workload");
    return found.front();
}

template <class Map> bool sharesKey(const Map& a, const Map& b)
{
    for (const auto& [k, v] : a)
        if (b.count(k))
            return true;
    return false;
}

// Two records that replaced the same setting: undoing the older one first would
// restore a value the newer one's record does not expect.
bool overlaps(const RemedyBefore& a, const RemedyBefore& b)
{
    return (a.profile && b.profile) || (a.relocateCaches && b.relocateCaches) ||
           sharesKey(a.env, b.env) || sharesKey(a.args, b.args) || sharesKey(a.repair, b.repair);
}

void removeAdded(std::vector<std::string>& list, const std::map<std::string, bool>& before)
{
    for (const auto& [item, wasThere] : before)
        if (!wasThere)
            list.erase(std::remove(list.begin(), list.end(), item), list.end());
}

void restore(WorkloadOverrides& w, const RemedyBefore& b, std::vector<std::string>& details)
{
    if (b.profile) {
        details.push_back("profile: " + (b.profile->empty() ? "the best one" : *b.profile));
        w.profile = *b.profile;
    }
    for (const auto& [name, old] : b.env) {
        details.push_back("env: " + name + (old ? "=" + *old : " removed"));
        if (old)
            w.env[name] = *old;
        else
            w.env.erase(name);
    }
    for (const auto& [arg, wasThere] : b.args)
        if (!wasThere)
            details.push_back("args: - " + arg);
    removeAdded(w.args, b.args);
    for (const auto& [id, wasThere] : b.repair)
        if (!wasThere)
            details.push_back("repair: - " + id);
    removeAdded(w.repair, b.repair);
    if (b.relocateCaches) {
        details.push_back(std::string("relocate_caches: ") +
                          (*b.relocateCaches ? "true" : "false"));
        w.relocateCaches = *b.relocateCaches;
    }
}

bool isEmpty(const WorkloadOverrides& w)
{
    return w.profile.empty() && w.env.empty() && w.args.empty() && !w.relocateCaches &&
           w.repair.empty() && w.remedies.empty();
}

} // namespace

Expected<RemedyChange> undoRemedy(Settings& s, const std::string& issueId,
                                  const std::string& workloadArg)
{
    auto workload =
        workloadArg.empty() ? appliedWorkload(s, issueId) : Expected<std::string>(workloadArg);
    if (!workload)
        return workload.error();
    if (!remedy_support::findApplied(s, *workload, issueId))
        return Error::runtime("the remedy for '" + issueId + "' is not applied to '" + *workload +
                              "'");
    Settings next = s;
    WorkloadOverrides& w = next.workloads[*workload];
    const auto it = std::find_if(w.remedies.begin(), w.remedies.end(),
                                 [&](const AppliedRemedy& r) { return r.issue == issueId; });
    for (auto later = it + 1; later != w.remedies.end(); ++later)
        if (overlaps(it->before, later->before))
            return Error::runtime("the remedy for '" + later->issue +
                                  "' changed the same setting later; undo it first");
    RemedyChange change;
    change.issue = issueId;
    change.workload = *workload;
    change.action = it->action;
    change.changed = true;
    restore(w, it->before, change.details);
    w.remedies.erase(it);
    // The entry a first remedy created goes with the last one, so apply + undo leaves
    // settings.json as it was.
    if (isEmpty(w))
        next.workloads.erase(*workload);
    change.message = "undid the remedy for '" + issueId + "' (" + toString(change.action) +
                     ") on '" + *workload + "'";
    s = std::move(next);
    return change;
}

Expected<RemedyChange> undoRemedy(Settings& s, const Catalog& c, const HardwareSnapshot& snap,
                                  const std::string& issueId, const std::string& workload,
                                  const SelectSettings& base)
{
    Settings next = s;
    auto change = undoRemedy(next, issueId, workload);
    if (!change)
        return change;
    auto before = makePlan(snap, c, change->workload, selectSettingsFor(s, change->workload, base));
    auto after =
        makePlan(snap, c, change->workload, selectSettingsFor(next, change->workload, base));
    if (!after)
        return after.error();
    // The plan before may fail (the override no longer fits): the undo is what fixes it.
    if (before)
        change->planBefore = summarize(*before);
    change->planAfter = summarize(*after);
    change->planned = true;
    s = std::move(next);
    return change;
}

std::vector<std::string> completeRepairs(Settings& s, const std::string& workload)
{
    std::vector<std::string> issues;
    const auto it = s.workloads.find(workload);
    if (it == s.workloads.end())
        return issues;
    for (const AppliedRemedy& r : it->second.remedies)
        if (r.action == RemedyAction::RepairRuntime)
            issues.push_back(r.issue);
    // Newest first, so each undo finds its own change on top.
    for (auto i = issues.rbegin(); i != issues.rend(); ++i)
        (void)undoRemedy(s, *i, workload);
    return issues;
}

} // namespace sp
