#include "app/gui/controllers/install_progress.h"

#include "core/qt_text.h"

namespace sp::gui {

void InstallProgress::reset(const std::vector<const Runtime*>& runtimes)
{
    m_state = InstallSnapshot{};
    m_running = true;
    m_state.runtimes = int(runtimes.size());
    for (const Runtime* r : runtimes)
        for (const auto& a : r->artifacts) {
            m_state.total += a.size.value_or(0);
            m_state.artifacts.push_back(
                {qs(r->id), qs(a.displayName()), 0, a.size.value_or(0), 0, false});
        }
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
    quint64 received = 0;
    double rate = 0;
    for (const ArtifactRow& a : m_state.artifacts) {
        received += a.received;
        rate += a.done ? 0 : a.bytesPerSecond;
    }
    m_state.received = received;
    m_state.bytesPerSecond = rate;
    m_state.etaSeconds =
        rate > 0 && m_state.total > received ? double(m_state.total - received) / rate : -1;
}

} // namespace sp::gui

namespace sp::gui {

void InstallProgress::setRunning(bool running)
{
    m_running = running;
    emit progress();
}

} // namespace sp::gui
