#pragma once
// The install panel's figures, made from the session's events on the GUI thread: one row
// per artifact, the totals, the rate and the time left. The session sends an artifact's
// progress at most about 20 times a second, so every event may repaint.

#include "app/common/session/events.h"
#include "core/catalog/types.h"

#include <QObject>
#include <QStringList>
#include <QVector>

namespace sp::gui {

struct ArtifactRow
{
    QString runtime;
    QString name;
    quint64 received = 0;
    quint64 total = 0; // 0: unknown
    double bytesPerSecond = 0;
    bool done = false;
};

// The totals are honest about sizes nobody knows before a download (a git checkout, a
// file with no published size): `total` adds only the sizes known so far (a download's
// own length counts once it starts), `unsized` counts the parts still without one, and
// there is a time left only when every size is known.
struct InstallSnapshot
{
    QVector<ArtifactRow> artifacts;
    quint64 received = 0;      // every byte so far
    quint64 total = 0;         // the sizes known so far
    quint64 knownReceived = 0; // bytes of the parts whose size is known (the bar's share)
    int unsized = 0;           // parts not done whose size is not known yet
    double bytesPerSecond = 0;
    double etaSeconds = -1;
    QString current; // runtime being installed
    int doneRuntimes = 0;
    int runtimes = 0;
};

class InstallProgress : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // A new install of `runtimes` (their artifacts, with the catalog's sizes).
    void reset(const std::vector<const Runtime*>& runtimes);
    // The session's install events; the others are ignored.
    void onEvent(const session::Event& e);
    const InstallSnapshot& snapshot() const { return m_state; }
    // Whether an install is under way (the panel's Cancel).
    bool isRunning() const { return m_running; }
    void setRunning(bool running);

signals:
    void progress();

private:
    void onArtifact(const QString& runtime, int artifact, const session::ArtifactProgress* p);
    void sumUp();
    InstallSnapshot m_state;
    bool m_running = false;
};

} // namespace sp::gui
