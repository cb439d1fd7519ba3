// The window's side of self-verifying stacks (docs/VERIFY.md): when a stack fails its
// smoke test before a launch, say so on the console's banner and offer the next stack
// with one button, which makes it the workload's choice and launches it.

#include "app/common/session/session.h"
#include "app/gui/controllers/app_controller.h"
#include "app/gui/models/plain_words.h"
#include "core/qt_text.h"
#include "core/select/select.h"

#include <utility>

namespace sp::gui {

QString AppController::gpuName() const
{
    // The card the run's plan is for (the one chosen for the workload, else the rule's).
    const HardwareSnapshot& snap = m_gpus.snapshot();
    const PlanView* v = plan(m_running.isEmpty() ? m_workload : m_running);
    const auto gpu = v && v->plan && v->plan->gpu ? v->plan->gpu : chooseGpu(snap);
    return gpu && std::size_t(*gpu) < snap.gpus.size() ? qs(snap.gpus[std::size_t(*gpu)].name)
                                                       : tr("PC");
}

void AppController::offerSwitch(const session::ProfileSwitched& s)
{
    const QString profile = qs(s.from);
    const auto verified = std::exchange(m_verified, std::nullopt);
    const QString issue = verified ? qs(verified->knownIssue) : QString();
    // A known problem is said in its user words; the raw reason goes to the log.
    const QString reason =
        issue.isEmpty() ? tr("its check did not pass") : issueTitle(toStd(issue));
    logEvent("smoke test of " + s.from + " failed: " + s.reason);
    const QString next = qs(s.to);
    auto title = [this](const QString& p) {
        return catalog() ? stackTitle(*catalog(), toStd(p)) : p;
    };
    KnownIssueNotice n;
    n.excerpt = verified ? qs(verified->reason) : qs(s.reason);
    n.title = tr("%1 failed its check on your %2").arg(title(profile), gpuName());
    n.remedy = next.isEmpty() ? tr("%1. No other stack fits this PC.").arg(reason)
                              : tr("%1. StackPilot can switch to %2.").arg(reason, title(next));
    n.buttonText = next.isEmpty() ? QString() : tr("Switch and launch");
    n.switchTo = next;
    // The failure is recorded: planned again, the stack ranks last and the next leads.
    replan([this, n] { emit knownIssue(n); });
}

void AppController::rollbackStack()
{
    const QString workload = m_workload;
    if (!m_session || recordedMachine())
        return;
    // On the session's worker: it changes settings.json under its lock.
    session::Session* s = m_session.get();
    auto work = [s, id = toStd(workload)] {
        auto back = s->rollback(id);
        return std::make_pair(std::move(back), s->settings());
    };
    auto then = [this, workload](auto result) {
        auto& [back, settings] = result;
        if (!back) {
            emit notice(qs(back.error().message), true);
            return;
        }
        const QString title = catalog() ? stackTitle(*catalog(), back->profile) : qs(back->profile);
        emit notice(tr("%1 is back on %2, which passed its check on this PC on %3.")
                        .arg(workloadName(workload), title, qs(back->passedAt.substr(0, 10))),
                    false);
        logEvent("rollback " + toStd(workload) + " to " + back->profile);
        takeSettings(std::move(settings), {});
    };
    s->call(std::move(work), std::move(then));
}

void AppController::switchStack(const QString& profile)
{
    m_launchAfterPlan = true;
    chooseProfile(m_workload, profile, false);
}

} // namespace sp::gui
