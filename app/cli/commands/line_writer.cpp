#include "app/cli/commands/line_writer.h"

#include <chrono>

namespace sp::cli {

namespace {

std::atomic<bool> g_abandoned{false};

} // namespace

bool abandonedStdout() noexcept
{
    return g_abandoned.load();
}

LineWriter::LineWriter(std::ostream& out, std::ostream& err, std::size_t maxQueuedBytes)
    : m_err(err), m_errTie(err.tie()), m_max(maxQueuedBytes), m_shared(std::make_shared<Shared>())
{
    if (m_errTie == &out)
        m_err.tie(nullptr);
    m_thread = std::thread([shared = m_shared, &out] {
        for (;;) {
            std::deque<Item> batch;
            {
                std::unique_lock lock(shared->mutex);
                shared->wake.wait(lock, [&] { return shared->closing || !shared->queue.empty(); });
                if (shared->queue.empty())
                    return;
                batch.swap(shared->queue);
                shared->queuedBytes = 0;
                shared->writing = true;
            }
            for (const Item& item : batch) {
                if (item.dropped)
                    out << "[stackpilot: " << item.dropped
                        << " line(s) not shown: the output was not being read]\n";
                else
                    out << item.text;
            }
            out.flush();
            std::lock_guard lock(shared->mutex);
            shared->writing = false;
            shared->drained.notify_all();
        }
    });
}

LineWriter::~LineWriter()
{
    bool drained = false;
    {
        std::unique_lock lock(m_shared->mutex);
        m_shared->closing = true;
        m_shared->wake.notify_all();
        drained = m_shared->drained.wait_for(lock, std::chrono::seconds(1), [&] {
            return m_shared->queue.empty() && !m_shared->writing;
        });
    }
    if (drained) {
        m_thread.join();
        m_err.tie(m_errTie);
        return;
    }
    // Blocked in a write to a stdout nobody reads: leave it there.
    g_abandoned.store(true);
    m_thread.detach();
}

void LineWriter::write(std::string text)
{
    std::lock_guard lock(m_shared->mutex);
    auto& q = m_shared->queue;
    if (m_shared->queuedBytes + text.size() > m_max) {
        if (q.empty() || q.back().dropped == 0)
            q.push_back({{}, 0});
        ++q.back().dropped;
    } else {
        m_shared->queuedBytes += text.size();
        q.push_back({std::move(text), 0});
    }
    m_shared->wake.notify_one();
}

} // namespace sp::cli
