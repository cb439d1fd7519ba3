#pragma once
// Installs a plan's missing runtimes with the real Installer on a worker thread (from
// the installer module, install_module.h, loaded there at the first install). The
// workers' progress goes into a shared state that the GUI thread reads ten times a
// second (never per chunk), so a fast download cannot flood the event loop. Cancel
// stops the transfers; the installer removes its staging folder. While it runs, a
// pending-install journal says what it is doing, so a restart after a crash can
// offer to resume.

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
        InstallOptions options;        // prefix root, settings, offline folder
        std::filesystem::path journal; // the pending-install file; empty: none
        PendingInstall pending;
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
    void finished(bool ok, bool cancelled, const QString& error);

private:
    void run(Request request);
    void onEvent(const InstallEvent& e);
    void done(bool ok, bool cancelled, const QString& error);

    mutable std::mutex m_mutex;
    InstallSnapshot m_state;
    QStringList m_order; // runtime ids, in install order
    std::thread m_worker;
    CancelToken m_cancel;
    std::atomic<bool> m_userCancelled{false}; // vs. StackPilot closing mid-install
    QTimer m_tick;
    bool m_running = false;
};

} // namespace sp::gui
