#pragma once
// One launch at a time, for the window: the LaunchSession (steps, workload, output
// pipeline, log) lives on a worker thread with its own event loop, so reading a
// million lines never runs on the GUI thread. Its events queue up there and reach the
// GUI thread in batches: one queued call per batch, in order, lines and the other
// events interleaved as they happened.

#include "app/common/session/session.h"
#include "core/catalog/loader.h"
#include "core/launch/launch_prep.h"
#include "core/launch/launch_session.h"

#include <QObject>
#include <QThread>
#include <QVector>
#include <memory>
#include <mutex>
#include <vector>

namespace sp::gui {

class LaunchRunner : public QObject
{
    Q_OBJECT
public:
    explicit LaunchRunner(QObject* parent = nullptr);
    ~LaunchRunner() override; // ends the tree (the helper's grace is at most 1 s)

    // Prepares the launch (plan, environment, matcher) and runs it, all on the launch
    // thread; `catalog` keeps the setup's catalog alive meanwhile. A launch that cannot
    // be prepared or started ends in startFailed.
    void start(LaunchSetup setup, std::shared_ptr<const LoadedCatalog> catalog, bool rerunSteps);
    void stop(); // gracefully, then by force after the grace period
    void kill();
    bool isRunning() const { return m_running; }
    QString logPath() const { return m_logPath; }

signals:
    // The stack's smoke test runs first (docs/VERIFY.md): it began, or it failed and
    // nothing was launched (its result is recorded; the plan ranks the stack last now).
    void verifying(const QString& profile);
    void stackFailed(const QString& profile, const QString& reason, const QString& knownIssue);
    void started(const QString& logPath);
    void startFailed(const QString& error);
    void eventsArrived(const std::vector<sp::LaunchEvent>& batch); // GUI thread, in order
    void finished(bool succeeded, const sp::LaunchRecord& record);

private:
    // Worker thread: true when the stack may launch (no smoke test needed, or it passed).
    bool passesSmokeTest(const LaunchRequest& request, const LaunchSetup& setup);
    void push(const LaunchEvent& e); // worker thread
    void flush();                    // GUI thread

    QThread m_thread;
    QObject* m_worker = nullptr; // lives on m_thread; owns the session
    LaunchSession* m_session = nullptr;
    session::Session* m_verifying = nullptr; // while a smoke test runs; under m_mutex
    std::mutex m_mutex;
    std::vector<LaunchEvent> m_pending;
    bool m_running = false;
    QString m_logPath;
};

} // namespace sp::gui
