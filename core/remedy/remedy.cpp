#include "core/remedy/remedy.h"

#include "core/remedy/remedy_support.h"
#include "core/select/workload_overrides.h"
#include "core/strings.h"

#include <algorithm>
#include <ctime>

namespace sp {

namespace {

Expected<std::string> resolveWorkload(const Catalog& c, const KnownIssue& issue,
                                      const std::string& workload)
{
    if (!workload.empty()) {
        if (!c.workload(workload))
            return Error::usage("unknown workload '" + workload + "'");
        return workload;
    }
    const auto& listed = issue.applies.workloads;
    if (listed.size() == 1)
        return listed.front();
    return Error::usage("known issue '" + issue.id + "' applies to " +
                        (listed.empty() ? std::string("any workload")
                                        : std::to_string(listed.size()) + " workloads") +
                        "; name one with --workload");
}

// Everything an action needs while it changes one workload's overrides.
struct ApplyContext
{
    const Catalog& catalog;
    const HardwareSnapshot& snap;
    const Settings& settings; // as before the change
    const SelectSettings& base;
    const std::string& workload;
    const Remedy& remedy;
    const Plan& current;
};

Expected<std::string> nextBestProfile(const ApplyContext& x)
{
    if (x.current.profile.empty())
        return Error::runtime("no profile of '" + x.workload +
                              "' fits this machine now, so there is none to switch from");
    SelectSettings st = selectSettingsFor(x.settings, x.workload, x.base);
    st.profile.clear();
    st.excludeProfiles.push_back(x.current.profile);
    auto other = makePlan(x.snap, x.catalog, x.workload, st);
    if (!other)
        return other.error();
    if (other->profile.empty())
        return Error::runtime("no profile of '" + x.workload + "' other than '" +
                              x.current.profile + "' fits this machine");
    return other->profile;
}

Expected<void> switchProfile(const ApplyContext& x, WorkloadOverrides& w, RemedyBefore& before,
                             std::vector<std::string>& details)
{
    std::string target = x.remedy.profile;
    if (target.empty()) {
        auto next = nextBestProfile(x);
        if (!next)
            return next.error();
        target = *next;
    }
    const Profile* p = x.catalog.profile(target);
    if (!p || p->workload != x.workload)
        return Error::usage("the remedy's profile '" + target + "' is not a profile of '" +
                            x.workload + "'");
    before.profile = w.profile;
    w.profile = target;
    details.push_back("profile: " + target + " (was " +
                      (x.current.profile.empty() ? "none" : x.current.profile) + ")");
    return {};
}

void setEnv(const Remedy& r, WorkloadOverrides& w, RemedyBefore& before,
            std::vector<std::string>& details)
{
    for (const auto& [name, value] : r.env) {
        const auto it = w.env.find(name);
        if (it != w.env.end() && it->second == value)
            continue;
        before.env[name] = it == w.env.end() ? std::nullopt : std::optional(it->second);
        w.env[name] = value;
        details.push_back("env: " + name + "=" + value);
    }
}

void addToList(const std::vector<std::string>& items, std::vector<std::string>& list,
               std::map<std::string, bool>& before, std::vector<std::string>& details,
               const std::string& what)
{
    for (const auto& item : items) {
        const bool present = contains(list, item);
        before[item] = present;
        if (!present) {
            list.push_back(item);
            details.push_back(what + item);
        }
    }
}

Expected<std::string> repairTarget(const ApplyContext& x)
{
    if (!x.remedy.runtime.empty())
        return x.remedy.runtime;
    for (const auto& r : x.current.runtimes)
        if (r.kind == x.remedy.runtimeKind)
            return r.id;
    return Error::runtime("the plan for '" + x.workload + "' (profile " +
                          (x.current.profile.empty() ? "none" : x.current.profile) +
                          ") has no runtime of kind '" + x.remedy.runtimeKind + "' to repair");
}

Expected<void> applyAction(const ApplyContext& x, WorkloadOverrides& w, RemedyBefore& before,
                           std::vector<std::string>& details)
{
    switch (x.remedy.action) {
    case RemedyAction::SwitchProfile:
        return switchProfile(x, w, before, details);
    case RemedyAction::SetEnv:
        setEnv(x.remedy, w, before, details);
        return {};
    case RemedyAction::AddArgs:
        addToList(x.remedy.args, w.args, before.args, details, "args: + ");
        return {};
    case RemedyAction::RelocateCaches:
        before.relocateCaches = w.relocateCaches;
        w.relocateCaches = true;
        details.push_back("relocate_caches: true (caches go to a local disk)");
        return {};
    case RemedyAction::RepairRuntime: {
        auto id = repairTarget(x);
        if (!id)
            return id.error();
        addToList({*id}, w.repair, before.repair, details, "repair: + ");
        return {};
    }
    case RemedyAction::Info:
        break;
    }
    return Error::usage("the remedy is advice only: " + x.remedy.text);
}

RemedyChange alreadyApplied(const AppliedRemedy& r, const std::string& workload)
{
    RemedyChange change;
    change.issue = r.issue;
    change.workload = workload;
    change.action = r.action;
    change.message = "the remedy for '" + r.issue + "' was already applied to '" + workload +
                     "' at " + r.appliedAt + "; nothing changed";
    return change;
}

} // namespace

Expected<RemedyChange> applyRemedy(Settings& s, const Catalog& c, const HardwareSnapshot& snap,
                                   const std::string& issueId, const std::string& workloadArg,
                                   const SelectSettings& base, const Clock& clock)
{
    const KnownIssue* issue = c.knownIssue(issueId);
    if (!issue)
        return Error::usage("unknown known issue '" + issueId + "'");
    if (issue->remedy.action == RemedyAction::Info)
        return Error::usage("the remedy for '" + issueId +
                            "' is advice only, nothing to apply: " + issue->remedy.text);
    const auto workload = resolveWorkload(c, *issue, workloadArg);
    if (!workload)
        return workload.error();
    if (const auto* r = remedy_support::findApplied(s, *workload, issueId))
        return alreadyApplied(*r, *workload);

    auto current = makePlan(snap, c, *workload, selectSettingsFor(s, *workload, base));
    if (!current)
        return current.error();
    Settings next = s;
    AppliedRemedy record{issueId, issue->remedy.action, isoTime(clock.now()), {}};
    RemedyChange change;
    const ApplyContext x{c, snap, s, base, *workload, issue->remedy, *current};
    if (auto ok = applyAction(x, next.workloads[*workload], record.before, change.details); !ok)
        return ok.error();
    next.workloads[*workload].remedies.push_back(record);

    auto after = makePlan(snap, c, *workload, selectSettingsFor(next, *workload, base));
    if (!after)
        return after.error();
    change.issue = issueId;
    change.workload = *workload;
    change.action = issue->remedy.action;
    change.changed = true;
    change.message = "applied the remedy for '" + issueId + "' (" + toString(change.action) +
                     ") to '" + *workload + "'";
    change.planned = true;
    change.planBefore = summarize(*current);
    change.planAfter = summarize(*after);
    s = std::move(next);
    return change;
}

} // namespace sp
