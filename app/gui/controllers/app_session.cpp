// The controller's one link to the session (app/common/session): it makes the session,
// starts its jobs, answers its confirmation, and shows each of its events. Every event
// type has its handler here (std::visit over an overload set: a new event does not
// compile until it has one). The window sequences no step of the workflow itself.

#include "app/common/session/session.h"
#include "app/gui/controllers/app_controller.h"
#include "app/gui/models/plain_words.h"
#include "core/launch/env_composer.h"
#include "core/overloads.h"
#include "core/paths.h"
#include "core/qt_text.h"

namespace sp::gui {

namespace {

QString stepWords(session::StepState state)
{
    switch (state) {
    case session::StepState::Started:
        return AppController::tr("running");
    case session::StepState::Done:
        return AppController::tr("done");
    case session::StepState::Skipped:
        return AppController::tr("done before, skipped");
    case session::StepState::Failed:
        return AppController::tr("failed");
    case session::StepState::Stopped:
        return AppController::tr("stopped");
    case session::StepState::Warning:
        break;
    }
    return AppController::tr("warning");
}

} // namespace

void AppController::makeSession()
{
    if (!m_catalog || !m_haveSnapshot || (m_session && m_session->busy()))
        return;
    session::Context context = session::contextFor(
        catalog(), m_gpus.snapshot(), recordedMachine() ? EnvMap{} : currentEnvironment());
    context.recorded = recordedMachine();
    // Events and ends are routed by the session's serial: one moved to the background
    // keeps running with its own (app_runs.cpp).
    const int serial = ++m_serial;
    m_session = std::make_unique<session::Session>(
        std::move(context), [this, serial](const session::Event& e) { routeEvent(serial, e); });
    connect(m_session.get(), &session::Session::finished, this,
            [this, serial] { routeFinished(serial); });
}

void AppController::launch()
{
    const PlanView* v = currentPlan();
    const bool beside = launchesBeside();
    if ((m_phase != Phase::Ready && !beside) || recordedMachine() || !v || !v->plan ||
        v->profile.isEmpty())
        return;
    if (beside) {
        detachForeground();
        makeSession();
    }
    if (!m_session)
        return;
    session::RunOptions options;
    options.workload = toStd(m_workload);
    options.confirm = true;
    options.rerunSteps = std::exchange(m_rerunSteps, false);
    // The model chosen on the card, else the one that fits: pulled after the checklist
    // when it is not in the vault yet (session_pull.cpp).
    options.model = toStd(modelFor(m_workload));
    options.journal = pendingInstallFile(paths::dataDir());
    options.install.prefixRoot = paths::dataDir() / "runtimes";
    m_console.clear();
    m_url.clear();
    m_lastExit.clear();
    m_seenIssue.clear();
    m_exit.reset();
    m_launched = false;
    m_smokeTest = false;
    m_pending.reset();
    clearFailure();
    m_running = m_workload;
    m_runningProfile = v->profile;
    std::vector<const Runtime*> runtimes;
    for (const QString& id : v->toInstall)
        if (const Runtime* rt = catalog()->runtime(toStd(id)))
            runtimes.push_back(rt);
    m_progress.reset(runtimes);
    logEvent("run " + options.workload + " on " + toStd(v->profile));
    if (m_session->startRun(std::move(options)))
        setPhase(Phase::Preparing);
    emit runsChanged();
}

// An interrupted install, again: the same runtimes, journalled, then plans again.
void AppController::startInstall(const PendingInstall& p)
{
    session::InstallWork work;
    std::vector<const Runtime*> runtimes;
    for (const std::string& id : p.runtimes)
        if (const Runtime* rt = catalog()->runtime(id)) {
            work.runtimes.push_back(*rt);
            runtimes.push_back(rt);
        }
    work.options.prefixRoot = paths::dataDir() / "runtimes";
    work.preflight = true;
    work.workload = p.workload;
    work.profile = p.profile;
    work.journal = pendingInstallFile(paths::dataDir());
    m_pending.reset();
    clearFailure();
    m_progress.reset(runtimes);
    logEvent("install " + p.profile);
    if (m_session->startInstall(std::move(work)))
        setPhase(Phase::Installing);
}

void AppController::answerInstall(bool yes)
{
    if (m_session)
        m_session->confirm(yes);
}

void AppController::onSessionEvent(const session::Event& e)
{
    // Lines before the other events, so that a banner's line is in the console.
    if (!std::holds_alternative<session::ConsoleLine>(e)) {
        flushLines();
        addNote(e);
    }
    std::visit(Overloads{
                   [this](const session::ConsoleLine& l) { takeLine(l); },
                   [this](const session::RuntimeStarted&) { setPhase(Phase::Installing); },
                   [](const session::ArtifactProgress&) {},
                   [](const session::ArtifactDone&) {},
                   [](const session::RuntimeInstalled&) {},
                   [](const session::PreflightChecked&) {},
                   [this](const session::Notice& n) {
                       if (n.stage == session::Stage::Recover || n.stage == session::Stage::Plan)
                           emit notice(qs(n.runtime.empty() ? n.text : n.runtime + ": " + n.text),
                                       false);
                   },
                   [this](const session::StepChanged& s) { onStep(s); },
                   [this](const session::UrlAnnounced& u) {
                       m_url = qs(u.url);
                       emit urlAnnounced(m_url);
                   },
                   [this](const session::KnownIssueSeen& k) {
                       m_console.markIssue(k.line);
                       if (m_smokeTest)
                           return; // the smoke test's verdict says it, with the way forward
                       const KnownIssueNotice n = noticeFor(k);
                       m_seenIssue = n.title + QLatin1Char('.') + QLatin1Char(' ') + n.remedy;
                       emit knownIssue(n);
                   },
                   [this](const session::WorkloadExited& x) { onExited(x); },
                   [this](const session::Failed& f) { onFailed(f); },
                   [this](const session::StackVerified& v) {
                       m_verified = v;
                       m_smokeTest = false;
                       maybeOfferShare(v.profile, EvidenceKind::Verify);
                   },
                   [this](const session::ProfileSwitched& s) { onSwitched(s); },
                   [this](const session::ConfirmInstall& c) { onConfirm(c); },
                   [this](const session::LaunchStarted& l) { onLaunchStarted(l); },
                   [this](const session::SharedGpu& s) { onSharedGpu(s); },
               },
               e);
    m_progress.onEvent(e);
    if (!std::holds_alternative<session::ConsoleLine>(e))
        emit sessionEvent(e);
}

// Lines are taken in batches: one console update per turn of the loop, and of a flood
// only what the console keeps is converted.
void AppController::takeLine(const session::ConsoleLine& l)
{
    if (m_lines.isEmpty())
        QMetaObject::invokeMethod(this, &AppController::flushLines, Qt::QueuedConnection);
    if (m_lines.size() >= m_console.maxLines()) {
        m_lines.removeFirst();
        ++m_linesDropped;
    }
    m_lines.push_back({QString::fromStdString(l.text), l.isStderr});
}

void AppController::flushLines()
{
    if (m_lines.isEmpty())
        return;
    m_console.append(m_lines, std::exchange(m_linesDropped, 0));
    m_lines.clear();
}

void AppController::onLaunchStarted(const session::LaunchStarted& l)
{
    m_smokeTest = l.smokeTest;
    if (l.smokeTest) {
        emit stepChanged(
            tr("Checking that %1 computes on your %2…")
                .arg(catalog() ? stackTitle(*catalog(), l.profile) : qs(l.profile), gpuName()),
            true);
        setPhase(Phase::Launching);
        return;
    }
    emit stepChanged(QString(), false);
    m_launched = true;
    m_runningProfile = qs(l.profile);
    m_logPath = qpath(l.log);
    setPhase(Phase::Running);
    emit launchStarted(m_logPath);
}

void AppController::onConfirm(const session::ConfirmInstall& c)
{
    const PlanView* v = plan(qs(c.workload));
    const QString name = workloadName(qs(c.workload));
    emit confirmInstall(tr("Before StackPilot installs %1").arg(name),
                        v ? v->headline : stackTitle(*catalog(), c.profile),
                        checklistFor(c, *catalog(), v ? v->warnings : QStringList()));
}

void AppController::onStep(const session::StepChanged& s)
{
    setPhase(Phase::Launching);
    const bool last = s.index == s.of;
    const bool running =
        s.state == session::StepState::Started || (s.state == session::StepState::Done && !last);
    const QString words = stepWords(s.state);
    emit stepChanged(s.index > 0 ? tr("Setup step %1 of %2: %3").arg(s.index).arg(s.of).arg(words)
                                 : tr("Setup steps: %1").arg(words),
                     running);
}

void AppController::onExited(const session::WorkloadExited& x)
{
    m_lastExit = qs(x.end.text);
    if (m_launched)
        m_exit = x;
}

} // namespace sp::gui
