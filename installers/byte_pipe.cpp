#include "installers/byte_pipe.h"

#include <algorithm>
#include <cstring>

namespace sp {

BytePipe::BytePipe(Consumer consumer, std::size_t capacity)
    : m_consume(std::move(consumer)), m_capacity(std::max<std::size_t>(capacity, 1)),
      m_batch(
          std::min<std::size_t>(std::size_t{1} << 20, std::max<std::size_t>(m_capacity / 4, 1))),
      m_thread([this] { run(); })
{}

BytePipe::~BytePipe()
{
    (void)drain();
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_toWorker.notify_one();
    m_thread.join();
}

Expected<void> BytePipe::push(const char* data, std::size_t size)
{
    std::unique_lock lock(m_mutex);
    auto fits = [&] { return m_queued == 0 || m_queued + size <= m_capacity || m_error; };
    if (!fits()) {
        m_producerWaiting = true;
        m_toWorker.notify_one(); // it may be holding back for a batch
        m_toProducer.wait(lock, fits);
        m_producerWaiting = false;
    }
    if (m_error)
        return *m_error;
    Chunk buf;
    if (!m_free.empty()) {
        buf = std::move(m_free.back());
        m_free.pop_back();
    }
    if (buf.capacity < size) {
        buf.data = std::make_unique_for_overwrite<char[]>(size);
        buf.capacity = size;
    }
    buf.size = size;
    std::memcpy(buf.data.get(), data, size);
    m_queue.push_back(std::move(buf));
    m_queued += size;
    // Waking the worker for every small network read costs a futex round trip each;
    // it gets work a batch at a time (and everything at drain()).
    const bool wake = m_workerWaiting && m_queued >= m_batch;
    lock.unlock();
    if (wake)
        m_toWorker.notify_one();
    return {};
}

Expected<void> BytePipe::drain()
{
    std::unique_lock lock(m_mutex);
    ++m_draining;
    m_toWorker.notify_one();
    m_toProducer.wait(lock, [this] { return (m_queue.empty() && !m_busy) || m_error; });
    --m_draining;
    if (m_error)
        return *m_error;
    return {};
}

void BytePipe::run()
{
    std::unique_lock lock(m_mutex);
    auto ready = [this] {
        return m_stop ||
               (!m_queue.empty() && (m_queued >= m_batch || m_draining > 0 || m_producerWaiting));
    };
    for (;;) {
        if (!ready()) {
            m_workerWaiting = true;
            m_toWorker.wait(lock, ready);
            m_workerWaiting = false;
        }
        if (m_queue.empty())
            return; // stopping, nothing left
        Chunk buf = std::move(m_queue.front());
        m_queue.pop_front();
        m_busy = true;
        lock.unlock();
        auto r = m_consume(buf.data.get(), buf.size);
        lock.lock();
        m_busy = false;
        m_queued -= buf.size;
        if (m_free.size() < 16)
            m_free.push_back(std::move(buf));
        if (!r && !m_error) {
            m_error = r.error();
            m_queue.clear();
            m_queued = 0;
        }
        // Wake the producer once half the room is free, not for every chunk.
        if (m_error || (m_draining > 0 && m_queue.empty()) ||
            (m_producerWaiting && m_queued <= m_capacity / 2))
            m_toProducer.notify_all();
    }
}

} // namespace sp
