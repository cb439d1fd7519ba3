#include "app/gui/controllers/install_job.h"

#include "app/common/session/session.h"

#include <QMetaObject>

namespace sp::gui {

namespace {

std::uint64_t declared(const Runtime& r)
{
    std::uint64_t n = 0;
    for (const auto& a : r.artifacts)
        n += a.size.value_or(0);
    return n;
}

} // namespace

InstallJob::InstallJob(QObject* parent) : QObject(parent)
{
    m_tick.setInterval(100);
    connect(&m_tick, &QTimer::timeout, this, &InstallJob::progress);
}

InstallJob::~InstallJob()
{
    cancelSession();
    if (m_worker.joinable())
        m_worker.join();
}

void InstallJob::start(Request request)
{
    if (m_running)
        return;
    if (m_worker.joinable())
        m_worker.join();
    m_cancel = CancelToken();
    m_userCancelled = false;
    {
        std::lock_guard lock(m_mutex);
        m_state = InstallSnapshot{};
        m_state.runtimes = int(request.runtimes.size());
        m_order.clear();
        for (const Runtime& r : request.runtimes) {
            m_order << QString::fromStdString(r.id);
            m_state.total += declared(r);
            for (const auto& a : r.artifacts)
                m_state.artifacts.push_back({QString::fromStdString(r.id),
                                             QString::fromStdString(a.displayName()), 0,
                                             a.size.value_or(0), 0, false});
        }
    }
    m_running = true;
    m_tick.start();
    m_worker =
        std::thread([this, request = std::move(request)]() mutable { run(std::move(request)); });
}

void InstallJob::cancel()
{
    m_userCancelled = true;
    cancelSession();
}

void InstallJob::cancelSession()
{
    std::lock_guard lock(m_mutex);
    m_cancel.cancel();
    if (m_session)
        m_session->cancel();
}

InstallSnapshot InstallJob::snapshot() const
{
    std::lock_guard lock(m_mutex);
    return m_state;
}

void InstallJob::onEvent(const session::Event& e)
{
    QMetaObject::invokeMethod(
        this, [this, e] { emit sessionEvent(e); }, Qt::QueuedConnection);
    std::lock_guard lock(m_mutex);
    if (const auto* s = std::get_if<session::RuntimeStarted>(&e)) {
        m_state.current = QString::fromStdString(s->runtime);
        m_state.doneRuntimes = s->index - 1;
    } else if (const auto* n = std::get_if<session::Notice>(&e)) {
        const QString text = n->runtime.empty()
                                 ? QString::fromStdString(n->text)
                                 : QString::fromStdString(n->runtime + ": " + n->text);
        QMetaObject::invokeMethod(
            this, [this, text] { emit message(text); }, Qt::QueuedConnection);
    } else {
        onProgress(std::get_if<session::ArtifactProgress>(&e),
                   std::get_if<session::ArtifactDone>(&e));
    }
}

// One artifact's row (its index among its runtime's rows), then the totals; m_mutex held.
void InstallJob::onProgress(const session::ArtifactProgress* p, const session::ArtifactDone* d)
{
    if (!p && !d)
        return;
    const QString rt = QString::fromStdString(p ? p->runtime : d->runtime);
    const int artifact = p ? p->artifact : d->artifact;
    int seen = 0;
    for (ArtifactProgress& a : m_state.artifacts) {
        if (a.runtime != rt || seen++ != artifact)
            continue;
        if (d) {
            a.done = true;
            if (a.total)
                a.received = a.total;
        } else {
            a.received = p->received;
            if (p->total)
                a.total = *p->total;
            a.bytesPerSecond = p->bytesPerSecond;
        }
        break;
    }
    quint64 received = 0;
    double rate = 0;
    for (const ArtifactProgress& a : m_state.artifacts) {
        received += a.received;
        rate += a.done ? 0 : a.bytesPerSecond;
    }
    m_state.received = received;
    m_state.bytesPerSecond = rate;
    m_state.etaSeconds =
        rate > 0 && m_state.total > received ? double(m_state.total - received) / rate : -1;
}

void InstallJob::run(Request request)
{
    // The journal only lets a restart offer to resume: an install goes on without it.
    if (!request.journal.empty())
        if (auto w = writePendingInstall(request.journal, request.pending); !w) {
            const QString why = QString::fromStdString(w.error().message);
            QMetaObject::invokeMethod(
                this, [this, why] { emit message(why); }, Qt::QueuedConnection);
        }
    session::Context context;
    context.catalog = request.catalog ? &request.catalog->catalog : nullptr;
    auto session = std::make_shared<session::Session>(
        std::move(context), [this](const session::Event& e) { onEvent(e); });
    {
        // cancel() reaches the session from the GUI thread; one pressed before it
        // existed is passed on here.
        std::lock_guard lock(m_mutex);
        m_session = session;
        if (m_cancel.cancelled())
            session->cancel();
    }
    std::vector<const Runtime*> runtimes;
    for (const Runtime& rt : request.runtimes)
        runtimes.push_back(&rt);
    // Every download is checked before any byte is written, as `run` does.
    const Preflight checked =
        session->preflight(runtimes, request.options, request.pending.profile);
    auto installed = checked.firstMissing()
                         ? Expected<std::vector<InstallResult>>(
                               Error::runtime("a download is missing: " + checked.missingReason())
                                   .withCause(Cause::NotFound))
                         : session->install(runtimes, request.options);
    if (installed && !request.repair.empty())
        if (auto repaired =
                session->completeRepair(request.repair, request.pending.workload, request.dataDir);
            !repaired)
            installed = repaired.error();
    {
        std::lock_guard lock(m_mutex);
        m_session.reset();
    }
    const bool cancelled = !installed && m_cancel.cancelled();
    // A cancel is the user's choice: nothing to resume later. StackPilot closing
    // mid-install keeps the journal, so the next start offers to resume.
    if (!request.journal.empty() && (installed || (cancelled && m_userCancelled)))
        clearPendingInstall(request.journal);
    const QString why = installed ? QString() : QString::fromStdString(installed.error().message);
    const Cause cause = installed ? Cause::Unknown : installed.error().cause;
    const bool ok = bool(installed);
    QMetaObject::invokeMethod(
        this, [this, ok, cancelled, why, cause] { done(ok, cancelled, why, cause); },
        Qt::QueuedConnection);
}

void InstallJob::done(bool ok, bool cancelled, const QString& error, Cause cause)
{
    if (m_worker.joinable())
        m_worker.join();
    m_running = false;
    m_tick.stop();
    emit progress();
    emit finished(ok, cancelled, error, cause);
}

} // namespace sp::gui
