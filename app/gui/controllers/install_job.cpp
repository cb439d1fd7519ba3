#include "app/gui/controllers/install_job.h"

#include "app/gui/controllers/install_module.h"

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
    m_cancel.cancel();
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
    m_cancel.cancel();
}

InstallSnapshot InstallJob::snapshot() const
{
    std::lock_guard lock(m_mutex);
    return m_state;
}

void InstallJob::onEvent(const InstallEvent& e)
{
    std::lock_guard lock(m_mutex);
    const QString rt = QString::fromStdString(e.runtimeId);
    if (e.kind == InstallEvent::Kind::Message && e.text == "installing") {
        // The module's sign that the next runtime begins.
        m_state.current = rt;
        m_state.doneRuntimes = int(m_order.indexOf(rt));
        return;
    }
    if (e.kind == InstallEvent::Kind::Message) {
        const QString text = rt + QStringLiteral(": ") + QString::fromStdString(e.text);
        QMetaObject::invokeMethod(
            this, [this, text] { emit message(text); }, Qt::QueuedConnection);
        return;
    }
    // The artifact's row: its index among this runtime's rows.
    int seen = 0;
    for (ArtifactProgress& a : m_state.artifacts) {
        if (a.runtime != rt || seen++ != e.artifact)
            continue;
        if (e.kind == InstallEvent::Kind::ArtifactDone) {
            a.done = true;
            if (a.total)
                a.received = a.total;
        } else {
            a.received = e.progress.received;
            if (e.progress.total)
                a.total = *e.progress.total;
            a.bytesPerSecond = e.progress.bytesPerSecond;
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
    // The module first: an install that cannot start leaves no resume offer behind.
    const auto module = loadInstallModule();
    if (module && !request.journal.empty())
        writePendingInstall(request.journal, request.pending);
    if (!module) {
        const QString why = QString::fromStdString(module.error().message);
        QMetaObject::invokeMethod(
            this, [this, why] { done(false, false, why); }, Qt::QueuedConnection);
        return;
    }
    InstallOptions options = request.options;
    options.cancel = m_cancel;
    options.onEvent = [this](const InstallEvent& e) { onEvent(e); };
    std::string error;
    const int code = module->installAll(&request.runtimes, &options, &error);
    const bool cancelled = code != 0 && m_cancel.cancelled();
    // A cancel is the user's choice: nothing to resume later. StackPilot closing
    // mid-install keeps the journal, so the next start offers to resume.
    if (!request.journal.empty() && (code == 0 || (cancelled && m_userCancelled)))
        clearPendingInstall(request.journal);
    const QString why = QString::fromStdString(error);
    QMetaObject::invokeMethod(
        this, [this, code, cancelled, why] { done(code == 0, cancelled, why); },
        Qt::QueuedConnection);
}

void InstallJob::done(bool ok, bool cancelled, const QString& error)
{
    if (m_worker.joinable())
        m_worker.join();
    m_running = false;
    m_tick.stop();
    emit progress();
    emit finished(ok, cancelled, error);
}

} // namespace sp::gui
