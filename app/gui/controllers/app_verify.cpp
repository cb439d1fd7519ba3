// The window's side of self-verifying stacks (docs/VERIFY.md): when a stack fails its
// smoke test before a launch, say so on the console's banner and offer the next stack
// with one button, which makes it the workload's choice and launches it.

#include "app/common/session/session.h"
#include "app/gui/controllers/app_controller.h"
#include "app/gui/controllers/background.h"
#include "core/qt_text.h"
#include "core/select/select.h"

#include <utility>

namespace sp::gui {

QString AppController::gpuName() const
{
    const HardwareSnapshot& snap = m_gpus.snapshot();
    const auto gpu = chooseGpu(snap);
    return gpu ? qs(snap.gpus[std::size_t(*gpu)].name) : tr("PC");
}

void AppController::onStackFailed(const QString& profile, const QString& rawReason,
                                  const QString& issue)
{
    // A known problem is said in its user words; the raw reason goes to the log.
    const QString reason =
        issue.isEmpty() ? tr("its check did not pass") : issueTitle(toStd(issue));
    m_running.clear();
    m_runningProfile.clear();
    emit stepChanged(QString(), false); // "Checking that ..." is over
    setPhase(Phase::Ready);
    logEvent("smoke test of " + toStd(profile) + " failed: " + toStd(rawReason));
    // The failure is recorded: planned again, the stack ranks last and the next leads.
    replan([this, profile, reason, rawReason] {
        const PlanView* v = currentPlan();
        QString next = v && v->profile != profile ? v->profile : QString();
        if (next.isEmpty() && v && v->plan)
            for (const auto& a : v->plan->alternatives)
                if (a.verdict == "available" && qs(a.profile) != profile) {
                    next = qs(a.profile);
                    break;
                }
        auto title = [this](const QString& p) {
            return catalog() ? stackTitle(*catalog(), toStd(p)) : p;
        };
        KnownIssueNotice n;
        n.excerpt = rawReason;
        n.title = tr("%1 failed its check on your %2").arg(title(profile), gpuName());
        n.remedy = next.isEmpty() ? tr("%1. No other stack fits this PC.").arg(reason)
                                  : tr("%1. StackPilot can switch to %2.").arg(reason, title(next));
        n.buttonText = next.isEmpty() ? QString() : tr("Switch and launch");
        n.switchTo = next;
        emit knownIssue(n);
    });
}

void AppController::rollbackStack()
{
    const QString workload = m_workload;
    const session::Context context = session::contextFor(catalog(), m_gpus.snapshot());
    // On the writer thread: the session changes settings.json under its lock.
    auto work = [context, catalog = m_catalog, id = toStd(workload)] {
        session::Session s(context, {});
        auto back = s.rollback(id);
        return std::make_pair(std::move(back), s.settings());
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
    runInBackground(this, std::move(work), std::move(then), &m_writer);
}

void AppController::switchStack(const QString& profile)
{
    m_launchAfterPlan = true;
    chooseProfile(m_workload, profile, false);
}

} // namespace sp::gui
