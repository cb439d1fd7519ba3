// Several workloads at once, each on the GPU the user chose for it (issue 31). The window
// follows one run in the foreground: its console, its steps, its failures. Launching
// another workload while one runs moves the running one to the background, where its
// session goes on with its own worker, port and launch lock; the window keeps only what the
// card, the menus and Stop need, and its output goes to its log file.

#include "app/common/session/session.h"
#include "app/gui/controllers/app_controller.h"
#include "core/gpu_identity.h"
#include "core/qt_text.h"
#include "core/select/gpu_choice.h"

#include <QLocale>

namespace sp::gui {

namespace {

std::optional<int> plannedGpuOf(const PlanView* v)
{
    return v && v->plan ? v->plan->gpu : std::nullopt;
}

} // namespace

void AppController::routeEvent(int serial, const session::Event& e)
{
    if (serial == m_serial)
        return onSessionEvent(e);
    for (auto& [workload, run] : m_background) {
        if (run.serial != serial)
            continue;
        // The background keeps only what the menus show: where it serves.
        if (const auto* u = std::get_if<session::UrlAnnounced>(&e)) {
            run.url = qs(u->url);
            emit runsChanged();
        }
        return;
    }
}

void AppController::routeFinished(int serial)
{
    if (serial == m_serial)
        return onSessionFinished();
    onBackgroundFinished(serial);
}

void AppController::onBackgroundFinished(int serial)
{
    for (auto it = m_background.begin(); it != m_background.end(); ++it) {
        if (it->second.serial != serial)
            continue;
        const QString workload = it->first;
        const Expected<bool> result = it->second.session->outcome().result;
        const bool asked = it->second.stopping;
        logEvent("launch " + toStd(it->second.profile) + " ended in the background");
        // The session emitted this from its own signal: it is destroyed after it returns.
        it->second.session.release()->deleteLater();
        m_background.erase(it);
        const bool ok = asked || (result && *result);
        emit notice(
            ok ? tr("%1 ended.").arg(workloadName(workload))
               : tr("%1 ended with an error; its log has the details.").arg(workloadName(workload)),
            !ok);
        emit runsChanged();
        emit phaseChanged();
        return;
    }
}

bool AppController::launchesBeside() const
{
    return m_phase == Phase::Running && !m_running.isEmpty() && m_running != m_workload &&
           !m_background.count(m_workload) && !recordedMachine();
}

// The running workload goes on in the background; the window turns to the current one.
void AppController::detachForeground()
{
    flushLines();
    BackgroundRun run;
    run.serial = m_serial;
    run.session = std::move(m_session);
    run.profile = m_runningProfile;
    run.url = m_url;
    run.gpu = plannedGpuOf(plan(m_running));
    logEvent("launch " + toStd(m_runningProfile) + " goes on in the background");
    m_background[m_running] = std::move(run);
    m_running.clear();
    m_runningProfile.clear();
    m_url.clear();
    m_launched = false;
    m_exit.reset();
    setPhase(Phase::Ready);
}

// The session found another workload on the card this one starts on: allowed, said with
// the memory both need, as far as the catalog says it.
void AppController::onSharedGpu(const session::SharedGpu& s)
{
    auto size = [](const std::optional<std::int64_t>& mb, const QString& otherwise) {
        return mb ? QLocale().formattedDataSize(*mb << 20, 1) : otherwise;
    };
    const QString unstated = tr("an amount the catalog does not state");
    emit notice(tr("%1 already runs on %2 (%3 of memory). Both share it: %1 needs at least "
                   "%4, %5 at least %6.")
                    .arg(workloadName(qs(s.other)), qs(s.gpu), size(s.memoryMb, tr("unknown")),
                         size(s.otherNeedMb, unstated), workloadName(qs(s.workload)),
                         size(s.needMb, unstated)),
                false);
}

QStringList AppController::runningWorkloads() const
{
    QStringList out;
    if (!m_running.isEmpty())
        out << m_running;
    for (const auto& [workload, run] : m_background)
        out << workload;
    return out;
}

bool AppController::isRunning(const QString& workload) const
{
    return runningWorkloads().contains(workload);
}

void AppController::stopWorkload(const QString& workload)
{
    if (workload == m_running)
        return stop();
    const auto it = m_background.find(workload);
    if (it == m_background.end() || it->second.stopping)
        return;
    it->second.stopping = true;
    it->second.session->cancel();
    emit runsChanged();
    emit phaseChanged();
}

void AppController::stopAll()
{
    for (const QString& w : runningWorkloads())
        stopWorkload(w);
}

QString AppController::runningGpu(const QString& workload) const
{
    const auto it = m_background.find(workload);
    const auto gpu = it != m_background.end() ? it->second.gpu : plannedGpuOf(plan(workload));
    const Catalog* c = catalog();
    const QString profile = it != m_background.end() ? it->second.profile : m_runningProfile;
    const Profile* p = c ? c->profile(toStd(profile)) : nullptr;
    if (!gpu || (p && p->fallback) || std::size_t(*gpu) >= m_gpus.snapshot().gpus.size())
        return {};
    return qs(m_gpus.snapshot().gpus[std::size_t(*gpu)].name);
}

int AppController::gpuChoiceOf(const QString& workload) const
{
    const auto it = m_settings.workloads.find(toStd(workload));
    if (it == m_settings.workloads.end() || !it->second.gpu)
        return -1;
    return findGpu(m_gpus.snapshot(), *it->second.gpu).value_or(-1);
}

void AppController::setGpuFor(const QString& workload, int gpu)
{
    const auto& gpus = m_gpus.snapshot().gpus;
    if (gpu >= int(gpus.size()) || gpu == gpuChoiceOf(workload))
        return;
    std::optional<GpuIdentity> id;
    if (gpu >= 0)
        id = identityOf(gpus[std::size_t(gpu)]);
    logEvent("gpu of " + toStd(workload) + ": " + (id ? describeGpu(*id) : "the default rule"));
    updateSettings([w = toStd(workload), id](Settings& s) -> Expected<void> {
        s.workloads[w].gpu = id;
        return {};
    });
}

} // namespace sp::gui
