#include "app/gui/controllers/launch_runner.h"

#include "app/common/diag/log_filter.h"
#include "core/paths.h"

#include <QMetaObject>

namespace sp::gui {

LaunchRunner::LaunchRunner(QObject* parent) : QObject(parent)
{
    m_thread.setObjectName(QStringLiteral("launch"));
    m_worker = new QObject;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

LaunchRunner::~LaunchRunner()
{
    // The session's destructor ends the tree; it must run on the thread that owns it.
    QMetaObject::invokeMethod(
        m_worker,
        [this] {
            delete m_session;
            m_session = nullptr;
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void LaunchRunner::start(LaunchSetup setup, std::shared_ptr<const LoadedCatalog> catalog,
                         bool rerunSteps)
{
    if (m_running)
        return;
    m_running = true;
    QMetaObject::invokeMethod(m_worker, [this, setup = std::move(setup), catalog, rerunSteps] {
        auto request = prepareLaunch(setup);
        if (!request) {
            QMetaObject::invokeMethod(
                this, [this, why = QString::fromStdString(request.error().message)] {
                    m_running = false;
                    emit startFailed(why);
                });
            return;
        }
        request->rerunSteps = rerunSteps;
        diag::redactLaunchLog(*request, setup); // no secret in the log on disk
        delete m_session;
        m_session =
            new LaunchSession(std::move(*request), [this](const LaunchEvent& e) { push(e); });
        connect(m_session, &LaunchSession::finished, m_worker, [this] {
            const LaunchRecord record = m_session->record();
            const bool ok = m_session->succeeded();
            m_session->deleteLater();
            m_session = nullptr;
            QMetaObject::invokeMethod(this, [this, ok, record] {
                flush();
                m_running = false;
                emit finished(ok, record);
            });
        });
        std::string error;
        if (!m_session->start(error)) {
            delete m_session;
            m_session = nullptr;
            QMetaObject::invokeMethod(this, [this, why = QString::fromStdString(error)] {
                m_running = false;
                emit startFailed(why);
            });
            return;
        }
        const QString log = QString::fromStdString(paths::toUtf8(m_session->files().log));
        QMetaObject::invokeMethod(this, [this, log] {
            m_logPath = log;
            emit started(log);
        });
    });
}

void LaunchRunner::stop()
{
    QMetaObject::invokeMethod(m_worker, [this] {
        if (m_session)
            m_session->stop();
    });
}

void LaunchRunner::kill()
{
    QMetaObject::invokeMethod(m_worker, [this] {
        if (m_session)
            m_session->kill();
    });
}

void LaunchRunner::push(const LaunchEvent& e)
{
    bool first = false;
    {
        std::lock_guard lock(m_mutex);
        first = m_pending.empty();
        m_pending.push_back(e);
    }
    // One queued call per batch: later events join the batch until the GUI takes it.
    if (first)
        QMetaObject::invokeMethod(this, &LaunchRunner::flush, Qt::QueuedConnection);
}

void LaunchRunner::flush()
{
    std::vector<LaunchEvent> batch;
    {
        std::lock_guard lock(m_mutex);
        batch.swap(m_pending);
    }
    if (!batch.empty())
        emit eventsArrived(batch);
}

} // namespace sp::gui
