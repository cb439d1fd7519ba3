// What a workload's own launch leaves as evidence when it ends (kind "launch",
// docs/LEDGER.md): the result the window offers to share after a launch, as it does after
// a smoke test. Selection does not rank by it; only smoke tests make verdicts.

#include "app/common/session/session.h"

#include <chrono>

namespace sp::session {

namespace {

// What the launch's events said, gathered as they pass to the front end.
struct LaunchWatch
{
    bool served = false; // it announced its address
    std::string issue, issueTitle;
    std::optional<WorkloadExited> exit;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

// Passed: it served, or it ended by itself with exit code 0. Failed: its log matched a
// known issue, or it ended by itself otherwise. Nothing: stopped before it served with no
// known issue, which says nothing about the stack.
std::optional<StackVerified> launchVerdict(const std::string& profile, const LaunchWatch& w)
{
    StackVerified v;
    v.profile = profile;
    v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - w.start).count();
    const bool byItself = w.exit && w.exit->byItself();
    const bool exitedWell =
        byItself && w.exit->end.kind == ProcessEnd::Exited && w.exit->end.value == 0;
    if (!w.issue.empty()) {
        v.knownIssue = w.issue;
        v.reason = "its log matched a known issue: " + w.issueTitle;
    } else if (byItself && !exitedWell && !w.served) {
        v.reason = "the workload " + w.exit->end.text;
    } else if (byItself && !exitedWell) {
        v.reason = "the workload " + w.exit->end.text + " after it served";
    } else if (w.served || exitedWell) {
        v.passed = true;
        v.reason = w.served ? "it served" : "it exited normally";
    } else {
        return std::nullopt;
    }
    return v;
}

} // namespace

void Session::launchWorkload(LaunchRequest request)
{
    auto watch = std::make_shared<LaunchWatch>();
    auto recorded = std::make_shared<LaunchRequest>(request);
    launchThen(
        std::move(request),
        [this, watch](Event&& e) {
            if (std::holds_alternative<UrlAnnounced>(e))
                watch->served = true;
            if (const auto* k = std::get_if<KnownIssueSeen>(&e); k && watch->issue.empty()) {
                watch->issue = k->id;
                watch->issueTitle = k->title;
            }
            if (const auto* x = std::get_if<WorkloadExited>(&e))
                watch->exit = *x;
            send(std::move(e));
        },
        [this, watch, recorded](LaunchEnd end) {
            // Written before the job finishes, so a front end that reads the evidence when
            // it learns of the end finds it.
            if (end.ok)
                if (const auto v = launchVerdict(recorded->plan.profile, *watch))
                    record(*recorded, *v, EvidenceKind::Launch);
            finish(end.ok, end.log);
        });
}

} // namespace sp::session
