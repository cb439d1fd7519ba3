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

namespace sp::gui {

// StackPilot's own log (core/app_log.h), appended off the GUI thread by one thread, so
// the lines keep the events' order (the application waits for it when it quits).
void logEvent(std::string text)
{
    static QThreadPool* const writer = [] {
        auto* pool = new QThreadPool(QCoreApplication::instance());
        pool->setMaxThreadCount(1);
        return pool;
    }();
    writer->start([text = std::move(text)] { applog::write("gui", text); });
}

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

QString AppController::primaryText() const
{
    switch (m_phase) {
    case Phase::Detecting:
        return tr("Detecting…");
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
        return tr("Resume install");
    const PlanView* v = currentPlan();
    if (!v || v->profile.isEmpty())
        return tr("Launch");
    return v->toInstall.isEmpty() ? tr("Launch") : tr("Install and launch");
}

bool AppController::primaryEnabled() const
{
    if (m_phase == Phase::Detecting || m_phase == Phase::Stopping)
        return false;
    if (m_phase != Phase::Ready)
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
    switch (m_phase) {
    case Phase::Ready:
        m_pending ? resumeInstall() : launch();
        break;
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

void AppController::launch()
{
    const PlanView* v = currentPlan();
    if (m_phase != Phase::Ready || recordedMachine() || !v || !v->plan || v->profile.isEmpty())
        return;
    if (!v->toInstall.isEmpty()) {
        // A repair is completed by the install (the session); its steps then run again.
        const bool repairs = !v->plan->repair.empty();
        install(v->toInstall, [this, repairs] {
            m_rerunSteps = m_rerunSteps || repairs;
            replan([this] { startLaunch(); });
        });
        return;
    }
    startLaunch();
}

void AppController::install(const QStringList& runtimeIds, std::function<void()> then)
{
    InstallJob::Request req;
    for (const QString& id : runtimeIds)
        if (const Runtime* rt = catalog()->runtime(id.toStdString()))
            req.runtimes.push_back(*rt);
    req.options.prefixRoot = paths::dataDir() / "runtimes";
    req.options.force = !currentPlan()->plan->repair.empty();
    req.repair = currentPlan()->plan->repair;
    req.catalog = m_catalog;
    req.dataDir = paths::dataDir();
    req.journal = pendingInstallFile(paths::dataDir());
    req.pending.workload = m_workload.toStdString();
    req.pending.profile = currentPlan()->profile.toStdString();
    for (const QString& id : runtimeIds)
        req.pending.runtimes.push_back(id.toStdString());
    req.pending.started = isoTime(Clock::system().now());
    m_afterInstall = std::move(then);
    m_pending.reset();
    clearFailure();
    logEvent("install " + runtimeIds.join(QLatin1Char(' ')).toStdString());
    setPhase(Phase::Installing);
    m_install.start(std::move(req));
}

void AppController::resumeInstall()
{
    if (!m_pending || m_phase != Phase::Ready)
        return;
    const PendingInstall p = *m_pending;
    m_workload = qs(p.workload);
    emit plansChanged();
    QStringList ids;
    for (const auto& id : p.runtimes)
        ids << qs(id);
    install(ids, [this] { replan(); });
}

void AppController::discardPendingInstall()
{
    m_pending.reset();
    const auto journal = pendingInstallFile(paths::dataDir());
    runInBackground(
        this,
        [journal] {
            clearPendingInstall(journal);
            return true;
        },
        [](bool) {}, &m_writer);
    emit phaseChanged();
}

void AppController::cancelInstall()
{
    if (m_phase == Phase::Installing)
        m_install.cancel();
}

void AppController::onInstallFinished(bool ok, bool cancelled, const QString& error, Cause cause)
{
    setPhase(Phase::Ready);
    logEvent(ok          ? "install done"
             : cancelled ? "install cancelled"
                         : std::string("install failed (cause ") + toString(cause) +
                               "): " + error.toStdString());
    auto then = std::move(m_afterInstall);
    m_afterInstall = nullptr;
    if (!ok) {
        emit notice(cancelled ? tr("Install cancelled; nothing half-installed was kept.")
                              : tr("The install did not finish."),
                    !cancelled);
        if (!cancelled)
            reportInstallFailure(error, cause);
        replan();
        return;
    }
    emit notice(tr("Installed."), false);
    if (then)
        then();
    else
        replan();
}

void AppController::startLaunch()
{
    const PlanView* v = currentPlan();
    if (!v || v->profile.isEmpty() || !v->toInstall.isEmpty()) {
        emit notice(tr("Nothing to launch: %1").arg(v ? v->error : QString()), true);
        return;
    }
    LaunchSetup setup;
    setup.catalog = catalog();
    setup.snapshot = m_gpus.snapshot();
    setup.profile = v->profile.toStdString();
    setup.select = baseSettings();
    setup.settings = m_settings;
    setup.userEnv = currentEnvironment();
    setup.logsRoot = paths::logDir();
    setup.dataDir = paths::dataDir();
    // Planning, composing and compiling the matcher happen on the launch thread too.
    m_console.clear();
    m_url.clear();
    m_lastExit.clear();
    m_seenIssue.clear();
    clearFailure();
    m_running = m_workload;
    m_runningProfile = v->profile;
    setPhase(Phase::Launching);
    logEvent("launch " + setup.profile);
    m_runner.start(std::move(setup), m_catalog, std::exchange(m_rerunSteps, false));
}

void AppController::stop()
{
    if (m_phase != Phase::Launching && m_phase != Phase::Running)
        return;
    setPhase(Phase::Stopping);
    m_runner.stop();
}

void AppController::onEvents(const std::vector<LaunchEvent>& batch)
{
    // A run of lines longer than the console keeps is counted, and only its tail is
    // converted: a flood costs the GUI thread at most one console's worth of strings.
    std::vector<const LaunchEvent*> run;
    auto flushLines = [&] {
        const std::size_t keep = std::size_t(m_console.maxLines());
        const std::size_t skipped = run.size() > keep ? run.size() - keep : 0;
        QVector<ConsoleModel::Incoming> lines;
        lines.reserve(qsizetype(run.size() - skipped));
        for (std::size_t i = skipped; i < run.size(); ++i)
            lines.push_back({QString::fromStdString(run[i]->text),
                             std::string_view(run[i]->stream) == "stderr"});
        m_console.append(lines, qint64(skipped));
        run.clear();
    };
    for (const LaunchEvent& e : batch) {
        if (e.kind == LaunchEvent::Line) {
            run.push_back(&e);
            continue;
        }
        flushLines();
        onSessionEvent(session::fromLaunchEvent(e));
    }
    flushLines();
}

void AppController::onLaunchFinished(bool ok, const LaunchRecord& record)
{
    const QString workload = m_running;
    m_running.clear();
    m_runningProfile.clear();
    m_url.clear(); // nothing serves it any more
    if (m_lastExit.isEmpty())
        m_lastExit = qs(record.exit.value("text", ""));
    logEvent("launch " + record.profile + " ended: " + m_lastExit.toStdString());
    setPhase(Phase::Ready);
    const bool byItself = record.stoppedBy == "none";
    emit notice(ok || !byItself ? tr("%1 ended.").arg(workloadName(workload))
                                : tr("%1 ended with an error.").arg(workloadName(workload)),
                !ok && byItself);
    // A crash is not a Stop: it gets its card, with the way forward.
    if (!ok && byItself && !m_relaunch)
        reportCrash(workload, qs(record.profile), m_lastExit,
                    record.exit.contains("signal") || record.exit.contains("ntstatus"));
    replan([this] {
        if (std::exchange(m_relaunch, false))
            launch();
    });
}

// A launch's events other than its lines, typed (app/common/session/events.h).
void AppController::onSessionEvent(const session::Event& e)
{
    if (const auto* u = std::get_if<session::UrlAnnounced>(&e)) {
        m_url = qs(u->url);
        emit urlAnnounced(m_url);
    } else if (const auto* k = std::get_if<session::KnownIssueSeen>(&e)) {
        m_console.markIssue(k->line);
        const KnownIssueNotice n = noticeFor(*k);
        m_seenIssue = n.title + QLatin1Char('.') + QLatin1Char(' ') + n.remedy;
        emit knownIssue(n);
    } else if (const auto* s = std::get_if<session::StepChanged>(&e)) {
        onStep(*s);
    } else if (const auto* x = std::get_if<session::WorkloadExited>(&e)) {
        m_lastExit = qs(x->text);
    }
}

void AppController::onStep(const session::StepChanged& s)
{
    const bool last = s.index == s.of;
    const bool running =
        s.state == session::StepState::Started || (s.state == session::StepState::Done && !last);
    const QString words = stepWords(s.state);
    emit stepChanged(s.index > 0 ? tr("Setup step %1 of %2: %3").arg(s.index).arg(s.of).arg(words)
                                 : tr("Setup steps: %1").arg(words),
                     running);
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
        auto change = sp::applyRemedy(copy, *catalog(), m_gpus.snapshot(), issueId,
                                      m_running.isEmpty() ? m_workload.toStdString()
                                                          : m_running.toStdString(),
                                      baseSettings(), Clock::system());
        if (!change || !change->planned || change->planAfter.profile.empty())
            return tr("Switch profile and relaunch");
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
    // The session applies it to the file as it is when written (the CLI may have
    // changed it meanwhile), on the writer thread.
    const session::Context context = session::contextFor(catalog(), m_gpus.snapshot());
    auto work = [context, catalog = m_catalog, issue = issueId.toStdString(),
                 id = workload.toStdString()] {
        session::Session s(context, {});
        auto change = s.applyRemedy(issue, id);
        return std::make_pair(std::move(change), s.settings());
    };
    auto then = [this, running, issueId](auto result) {
        auto& [change, settings] = result;
        if (!change) {
            emit notice(qs(change.error().message), true);
            return;
        }
        emit notice(qs(change->message), false);
        logEvent("remedy " + issueId.toStdString() + ": " + change->message);
        takeSettings(std::move(settings), [this, running](const QString& error) {
            if (!error.isEmpty())
                return;
            if (running) {
                m_relaunch = true; // onLaunchFinished plans again, then launches
                stop();
            } else {
                replan([this] { launch(); });
            }
        });
    };
    runInBackground(this, std::move(work), std::move(then), &m_writer);
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
            emit notice(
                profile.isEmpty()
                    ? tr("%1 uses the recommended profile again.").arg(workloadName(workload))
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
