#include "app/gui/controllers/install_progress.h"

#include "core/qt_text.h"

#include <algorithm>

namespace sp::gui {

void InstallProgress::reset(const std::vector<const Runtime*>& runtimes)
{
    m_state = InstallSnapshot{};
    m_running = true;
    m_state.runtimes = int(runtimes.size());
    for (const Runtime* r : runtimes)
        for (const auto& a : r->artifacts)
            m_state.artifacts.push_back(
                {qs(r->id), qs(a.displayName()), 0, a.expectedSize().value_or(0), 0, false});
    sumUp();
    emit progress();
}

void InstallProgress::onEvent(const session::Event& e)
{
    if (const auto* s = std::get_if<session::RuntimeStarted>(&e)) {
        m_state.current = qs(s->runtime);
        m_state.doneRuntimes = s->index - 1;
        m_state.runtimes = std::max(m_state.runtimes, s->count);
    } else if (const auto* p = std::get_if<session::ArtifactProgress>(&e)) {
        onArtifact(qs(p->runtime), p->artifact, p);
    } else if (const auto* d = std::get_if<session::ArtifactDone>(&e)) {
        onArtifact(qs(d->runtime), d->artifact, nullptr);
    } else if (std::holds_alternative<session::RuntimeInstalled>(e)) {
        ++m_state.doneRuntimes;
    } else {
        return;
    }
    emit progress();
}

// One artifact's row (its index among its runtime's rows), then the totals; `p` null
// when the artifact is done.
void InstallProgress::onArtifact(const QString& runtime, int artifact,
                                 const session::ArtifactProgress* p)
{
    int seen = 0;
    for (ArtifactRow& a : m_state.artifacts) {
        if (a.runtime != runtime || seen++ != artifact)
            continue;
        if (!p) {
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
    sumUp();
}

void InstallProgress::sumUp()
{
    InstallSnapshot& s = m_state;
    s.received = s.total = s.knownReceived = 0;
    s.unsized = 0;
    s.bytesPerSecond = 0;
    for (const ArtifactRow& a : s.artifacts) {
        s.received += a.received;
        s.bytesPerSecond += a.done ? 0 : a.bytesPerSecond;
        if (a.total || a.done) { // a finished download's size is what arrived
            const quint64 size = a.total ? a.total : a.received;
            s.total += size;
            s.knownReceived += std::min(a.received, size);
        } else {
            ++s.unsized;
        }
    }
    s.etaSeconds = s.unsized == 0 && s.bytesPerSecond > 0 && s.total > s.knownReceived
                       ? double(s.total - s.knownReceived) / s.bytesPerSecond
                       : -1;
}

} // namespace sp::gui

namespace sp::gui {

void InstallProgress::setRunning(bool running)
{
    m_running = running;
    emit progress();
}

} // namespace sp::gui
