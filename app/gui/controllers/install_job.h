#pragma once
// Installs a plan's missing runtimes through the session (app/common/session, the same
// install the CLI runs: leftovers recovered first) on a worker thread. The
// workers' progress goes into a shared state that the GUI thread reads ten times a
// second (never per chunk), so a fast download cannot flood the event loop. Cancel
// stops the transfers; the installer removes its staging folder. While it runs, a
// pending-install journal says what it is doing, so a restart after a crash can
// offer to resume.

#include "app/common/session/events.h"
#include "core/catalog/loader.h"
#include "core/catalog/types.h"
#include "installers/install_journal.h"
#include "installers/installer.h"

#include <QObject>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

namespace sp::session {
class Session;
}

namespace sp::gui {

struct ArtifactProgress
{
    QString runtime;
    QString name;
    quint64 received = 0;
    quint64 total = 0; // 0: unknown
    double bytesPerSecond = 0;
    bool done = false;
};

struct InstallSnapshot
{
    QVector<ArtifactProgress> artifacts;
    quint64 received = 0;
    quint64 total = 0;
    double bytesPerSecond = 0;
    double etaSeconds = -1;
    QString current; // runtime being installed
    int doneRuntimes = 0;
    int runtimes = 0;
};

class InstallJob : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        std::vector<Runtime> runtimes; // copies: the worker never touches the catalog
        InstallOptions options;        // prefix root, force, offline folder
        std::filesystem::path journal; // the pending-install file; empty: none
        PendingInstall pending;
        // Runtimes a repair remedy asked for (among `runtimes`): once installed, the
        // session completes the repair for `pending.workload` (session.h).
        std::vector<std::string> repair;
        std::shared_ptr<const LoadedCatalog> catalog; // for the repair's step receipts
        std::filesystem::path dataDir;
    };

    explicit InstallJob(QObject* parent = nullptr);
    ~InstallJob() override; // cancels and waits for the worker

    void start(Request request);
    void cancel();
    bool isRunning() const { return m_running; }
    InstallSnapshot snapshot() const;

signals:
    void progress(); // at most ten times a second while running
    void message(const QString& text);
    // Every event of the session, in order, on the GUI thread (tests compare them with
    // `run --json`'s).
    void sessionEvent(const sp::session::Event& e);
    void finished(bool ok, bool cancelled, const QString& error, sp::Cause cause);

private:
    void run(Request request);
    void cancelSession();
    void onEvent(const session::Event& e);
    void onProgress(const session::ArtifactProgress* p, const session::ArtifactDone* d);
    void done(bool ok, bool cancelled, const QString& error, Cause cause);

    mutable std::mutex m_mutex;
    InstallSnapshot m_state;
    QStringList m_order; // runtime ids, in install order
    std::thread m_worker;
    CancelToken m_cancel;                        // set by cancel() (m_mutex)
    std::shared_ptr<session::Session> m_session; // while installing (m_mutex)
    std::atomic<bool> m_userCancelled{false};    // vs. StackPilot closing mid-install
    QTimer m_tick;
    bool m_running = false;
};

} // namespace sp::gui
