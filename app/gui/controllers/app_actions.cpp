// AppController's actions: install, launch, stop, remedies and profile switching.
#include "app/common/session/session.h"
#include "app/gui/controllers/app_controller.h"
#include "app/gui/controllers/background.h"
#include "app/gui/models/plain_words.h"
#include "core/app_log.h"
#include "core/clock.h"
#include "core/launch/launch_prep.h"
#include "core/launch/step_receipt.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "core/remedy/remedy.h"

#include <QCoreApplication>
#include <QThreadPool>
#include <atomic>

namespace sp::gui {

// StackPilot's own log (core/app_log.h), appended off the GUI thread by one thread, so
// the lines keep the events' order (the application waits for it when it quits).
namespace {
std::atomic<bool> g_eventLog{true};
}

void setEventLog(bool on)
{
    g_eventLog = on;
}

void logEvent(std::string text)
{
    if (!g_eventLog)
        return;
    orderedPool()->start([text = std::move(text)] { applog::write("gui", text); });
}

QString AppController::primaryText() const
{
    if (m_background.count(m_workload))
        return m_background.at(m_workload).stopping ? tr("Stopping…") : tr("Stop");
    switch (launchesBeside() ? Phase::Ready : m_phase) {
    case Phase::Detecting:
        return tr("Detecting…");
    case Phase::Preparing:
        return tr("Cancel");
    case Phase::Installing:
        return tr("Cancel install");
    case Phase::Launching:
    case Phase::Running:
        return tr("Stop");
    case Phase::Stopping:
        return tr("Stopping…");
    case Phase::Ready:
        break;
    }
    if (m_pending)
        return pendingFailed() ? tr("Retry install") : tr("Resume install");
    const PlanView* v = currentPlan();
    if (!v || v->profile.isEmpty())
        return tr("Launch");
    return v->toInstall.isEmpty() ? tr("Launch") : tr("Install and launch");
}

QStringList AppController::primaryTexts()
{
    return {tr("Stopping…"),      tr("Stop"),           tr("Detecting…"),
            tr("Cancel"),         tr("Cancel install"), tr("Retry install"),
            tr("Resume install"), tr("Launch"),         tr("Install and launch")};
}

bool AppController::primaryEnabled() const
{
    if (m_background.count(m_workload))
        return !m_background.at(m_workload).stopping;
    if (m_phase == Phase::Detecting || m_phase == Phase::Stopping)
        return false;
    if (m_phase != Phase::Ready && !launchesBeside())
        return true;
    if (recordedMachine())
        return false;
    const PlanView* v = currentPlan();
    return m_pending || (v && !v->profile.isEmpty() && v->plan);
}

QString AppController::primaryToolTip() const
{
    if (recordedMachine())
        return tr("This is a recorded PC: StackPilot shows its plan and "
                  "installs or launches nothing.");
    const PlanView* v = currentPlan();
    if (m_phase == Phase::Ready && v && !v->error.isEmpty())
        return v->error;
    return {};
}

void AppController::primary()
{
    if (m_background.count(m_workload))
        return stopWorkload(m_workload);
    if (launchesBeside())
        return launch();
    switch (m_phase) {
    case Phase::Ready:
        m_pending ? resumeInstall() : launch();
        break;
    case Phase::Preparing:
    case Phase::Installing:
        cancelInstall();
        break;
    case Phase::Launching:
    case Phase::Running:
        stop();
        break;
    default:
        break;
    }
}

void AppController::resumeInstall()
{
    if (!m_pending || m_phase != Phase::Ready || !m_session)
        return;
    const PendingInstall p = *m_pending;
    m_workload = qs(p.workload);
    emit plansChanged();
    startInstall(p);
}

// Discard removes the journal and the install's partial downloads (StackPilot's own
// names only); what the installer staged was removed when it failed.
void AppController::discardPendingInstall()
{
    if (!m_pending || m_phase != Phase::Ready)
        return;
    std::vector<std::filesystem::path> partials;
    const auto dir = paths::cacheDir() / "downloads" / "partial";
    for (const std::string& id : m_pending->runtimes)
        if (const Runtime* rt = catalog() ? catalog()->runtime(id) : nullptr)
            for (const Artifact& a : rt->artifacts)
                if (a.sha256)
                    partials.push_back(dir / (*a.sha256 + ".part"));
    m_pending.reset();
    clearFailure();
    const auto journal = pendingInstallFile(paths::dataDir());
    runInBackground(
        this, [journal, partials] { return sp::discardPendingInstall(journal, partials); },
        [this](std::size_t removed) {
            logEvent("discarded a pending install: " + std::to_string(removed) + " partial files");
            emit notice(tr("The unfinished install was discarded."), false);
            replan();
        },
        orderedPool());
    emit phaseChanged();
}

void AppController::cancelInstall()
{
    if ((m_phase == Phase::Installing || m_phase == Phase::Preparing) && m_session)
        m_session->cancel();
}

void AppController::stop()
{
    if (m_phase != Phase::Launching && m_phase != Phase::Running)
        return;
    setPhase(Phase::Stopping);
    m_session->cancel();
}

void AppController::onFailed(const session::Failed& f)
{
    m_failed = f;
}

void AppController::onSwitched(const session::ProfileSwitched& s)
{
    m_switch = s;
    if (s.switched)
        emit notice(
            tr("%1 cannot be used here (%2); StackPilot tries %3.")
                .arg(stackTitle(*catalog(), s.from), qs(s.reason), stackTitle(*catalog(), s.to)),
            false);
}

// How the session's job ended, in the window's words.
void AppController::onSessionFinished()
{
    flushLines();
    const session::Outcome& o = m_session->outcome();
    const QString workload = m_running.isEmpty() ? m_workload : m_running;
    const QString profile = m_runningProfile;
    const bool launched = std::exchange(m_launched, false);
    auto failed = std::exchange(m_failed, std::nullopt);
    auto switched = std::exchange(m_switch, std::nullopt);
    m_running.clear();
    m_runningProfile.clear();
    m_url.clear(); // nothing serves it any more
    m_progress.setRunning(false);
    emit runsChanged();
    refreshModels(); // a run may have pulled its model
    emit stepChanged(QString(), false);
    setPhase(Phase::Ready);
    if (launched)
        return onLaunchEnded(workload, profile, o.result);
    if (o.result) {
        emit notice(tr("Installed."), false);
        logEvent("install done");
        return replan();
    }
    const Error& e = o.result.error();
    logEvent("run of " + toStd(workload) + " ended (cause " + std::string(toString(e.cause)) +
             "): " + e.message);
    if (e.code == ErrorCode::Cancelled) {
        emit notice(tr("Cancelled; nothing half-installed was kept."), false);
        return replan();
    }
    const auto stage = failed ? failed->stage : session::Stage::Launch;
    if (e.cause == Cause::Internal)
        reportInternalFailure(qs(e.message));
    else if (stage == session::Stage::Verify && switched)
        offerSwitch(*switched);
    // A download gone for every profile ends the run at the plan, as not found.
    else if (stage == session::Stage::Install || stage == session::Stage::Repair ||
             stage == session::Stage::Preflight || stage == session::Stage::Recover ||
             (stage == session::Stage::Plan && e.cause == Cause::NotFound))
        reportInstallFailure(qs(e.message),
                             stage == session::Stage::Preflight ? Cause::NotFound : e.cause,
                             switched ? qs(switched->to) : QString());
    else
        emit notice(tr("Could not launch: %1").arg(qs(e.message)), true);
    // A failed install's journal says so now: the window offers Retry and Discard.
    readPending();
}

void AppController::onLaunchEnded(const QString& workload, const QString& profile,
                                  const Expected<bool>& result)
{
    const bool ok = result && *result;
    const auto exit = std::exchange(m_exit, std::nullopt);
    const bool byItself = !exit || exit->byItself();
    logEvent("launch " + toStd(profile) + " ended: " + toStd(m_lastExit));
    emit notice(ok || !byItself ? tr("%1 ended.").arg(workloadName(workload))
                                : tr("%1 ended with an error.").arg(workloadName(workload)),
                !ok && byItself);
    // A crash is not a Stop: it gets its card, with the way forward. After an end that is
    // not a crash, the launch's result is offered for sharing (the session recorded it).
    if (!ok && byItself && !m_relaunch)
        reportCrash(workload, profile, m_lastExit, exit && exit->crashed());
    else if (!m_relaunch)
        maybeOfferShare(toStd(profile), EvidenceKind::Launch);
    replan([this] {
        if (std::exchange(m_relaunch, false))
            launch();
    });
}

KnownIssueNotice AppController::noticeFor(const session::KnownIssueSeen& k) const
{
    KnownIssueNotice n;
    n.id = qs(k.id);
    n.title = issueTitle(k.id);
    if (n.title.isEmpty())
        n.title = qs(k.title);
    n.line = k.line;
    n.excerpt = qs(k.excerpt);
    n.remedy = issueFix(k.id, k.remedy);
    n.buttonText = remedyButtonText(k.id);
    if (const KnownIssue* issue = catalog()->knownIssue(k.id))
        for (const auto& r : issue->references)
            n.references << qs(r);
    return n;
}

QString AppController::remedyButtonText(const std::string& issueId) const
{
    const KnownIssue* k = catalog() ? catalog()->knownIssue(issueId) : nullptr;
    if (!k)
        return {};
    switch (k->remedy.action) {
    case RemedyAction::Info:
        return {};
    case RemedyAction::SwitchProfile: {
        // What the switch would choose: the remedy applied to a copy of the settings.
        Settings copy = m_settings;
        auto change = session::remedyPreview(
            m_session->context(), copy, issueId,
            m_running.isEmpty() ? m_workload.toStdString() : m_running.toStdString(), m_base);
        if (!change || !change->planned || change->planAfter.profile.empty())
            return tr("Switch stack and relaunch");
        QString target = stackTitle(*catalog(), change->planAfter.profile);
        const Profile* after = catalog()->profile(change->planAfter.profile);
        if (after && !after->ui.route.empty() &&
            target == stackTitle(*catalog(), change->planBefore.profile))
            target += QStringLiteral(" (%1)").arg(userText(after->ui.route));
        return tr("Switch to %1 and relaunch").arg(target);
    }
    case RemedyAction::RepairRuntime:
        return tr("Repair and relaunch");
    default:
        return tr("Apply the fix and relaunch");
    }
}

void AppController::applyRemedy(const QString& issueId)
{
    const QString workload = m_running.isEmpty() ? m_workload : m_running;
    m_workload = workload;
    const bool running = m_phase == Phase::Running || m_phase == Phase::Launching;
    auto then = [this, running, issueId](Expected<RemedyChange> change,
                                         Expected<Settings> settings) {
        if (!change) {
            emit notice(qs(change.error().message), true);
            return;
        }
        emit notice(qs(change->message), false);
        logEvent("remedy " + issueId.toStdString() + ": " + change->message);
        takeSettings(std::move(settings), [this, running](const QString& error) {
            if (!error.isEmpty() || recordedMachine())
                return;
            if (running) {
                m_relaunch = true; // the launch's end plans again, then launches
                stop();
            } else {
                replan([this] { launch(); });
            }
        });
    };
    if (recordedMachine()) { // a recorded PC's settings live in the window only
        Settings copy = m_settings;
        auto change = session::remedyPreview(m_session->context(), copy, toStd(issueId),
                                             toStd(workload), m_base);
        return then(std::move(change), Expected<Settings>(std::move(copy)));
    }
    // The session applies it to the file as it is when written (the CLI may have
    // changed it meanwhile), on its worker.
    session::Session* s = m_session.get();
    s->call(
        [s, issue = toStd(issueId), id = toStd(workload)] {
            auto change = s->applyRemedy(issue, id);
            return std::make_pair(std::move(change), s->settings());
        },
        [then](auto result) { then(std::move(result.first), std::move(result.second)); });
}

void AppController::chooseProfile(const QString& workload, const QString& profile,
                                  bool acceptRejected)
{
    m_workload = workload;
    auto choose = [id = workload.toStdString(), p = profile.toStdString(),
                   accept = !profile.isEmpty() && acceptRejected](Settings& s) {
        auto& w = s.workloads[id];
        w.profile = p;
        w.acceptRejected = accept;
        return Expected<void>();
    };
    updateSettings(choose, [this, workload, profile](const QString& error) {
        if (error.isEmpty())
            emit notice(profile.isEmpty()
                            ? tr("%1 uses the recommended stack again.").arg(workloadName(workload))
                            : tr("%1 now uses %2.")
                                  .arg(workloadName(workload),
                                       catalog() ? stackTitle(*catalog(), profile.toStdString())
                                                 : QString()),
                        false);
    });
}

std::optional<ComposedLaunch> AppController::composedEnvironment() const
{
    const PlanView* v = currentPlan();
    if (!v || !v->plan || v->profile.isEmpty())
        return std::nullopt;
    return composeLaunch(*v->plan, currentEnvironment(), m_gpus.snapshot().os.family);
}

} // namespace sp::gui
