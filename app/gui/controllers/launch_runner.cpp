#include "app/gui/controllers/launch_runner.h"

#include "app/common/diag/log_filter.h"
#include "core/paths.h"
#include "core/qt_text.h"

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

bool LaunchRunner::passesSmokeTest(const LaunchRequest& request, const LaunchSetup& setup)
{
    session::Session check(session::contextFor(setup.catalog, setup.snapshot, setup.userEnv), {});
    if (!check.needsVerify(request, false))
        return true;
    const QString profile = qs(request.plan.profile);
    QMetaObject::invokeMethod(this, [this, profile] { emit verifying(profile); });
    {
        std::lock_guard lock(m_mutex);
        m_verifying = &check;
    }
    auto v = check.verify(request);
    {
        std::lock_guard lock(m_mutex);
        m_verifying = nullptr;
    }
    if (v && v->passed)
        return true;
    if (check.cancelled()) {
        QMetaObject::invokeMethod(this, [this] {
            m_running = false;
            emit startFailed(tr("The check of the stack was stopped; nothing was launched."));
        });
        return false;
    }
    const QString why = v ? qs(v->reason) : qs(v.error().message);
    const QString issue = v ? qs(v->knownIssue) : QString();
    QMetaObject::invokeMethod(this, [this, profile, why, issue] {
        m_running = false;
        emit stackFailed(profile, why, issue);
    });
    return false;
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
        if (!passesSmokeTest(*request, setup))
            return;
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
        const QString log = qpath(m_session->files().log);
        QMetaObject::invokeMethod(this, [this, log] {
            m_logPath = log;
            emit started(log);
        });
    });
}

void LaunchRunner::stop()
{
    {
        // A smoke test runs in its own session: cancel() is safe from any thread.
        std::lock_guard lock(m_mutex);
        if (m_verifying)
            m_verifying->cancel();
    }
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
