#include "installers/byte_pipe.h"

#include <cstring>

namespace sp {

BytePipe::BytePipe(Consumer consumer, std::size_t capacity)
    : m_consume(std::move(consumer)), m_capacity(capacity), m_thread([this] { run(); })
{}

BytePipe::~BytePipe()
{
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return (m_queue.empty() && !m_busy) || m_error; });
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
}

Expected<void> BytePipe::push(const char* data, std::size_t size)
{
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [&] { return m_queued == 0 || m_queued + size <= m_capacity || m_error; });
    if (m_error)
        return *m_error;
    std::vector<char> buf;
    if (!m_free.empty()) {
        buf = std::move(m_free.back());
        m_free.pop_back();
    }
    buf.resize(size);
    std::memcpy(buf.data(), data, size);
    m_queue.push_back(std::move(buf));
    m_queued += size;
    lock.unlock();
    m_cv.notify_all();
    return {};
}

Expected<void> BytePipe::drain()
{
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [this] { return (m_queue.empty() && !m_busy) || m_error; });
    if (m_error)
        return *m_error;
    return {};
}

void BytePipe::run()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_cv.wait(lock, [this] { return !m_queue.empty() || m_stop; });
        if (m_queue.empty())
            return;
        std::vector<char> buf = std::move(m_queue.front());
        m_queue.pop_front();
        m_busy = true;
        lock.unlock();
        auto r = m_consume(buf.data(), buf.size());
        lock.lock();
        m_busy = false;
        m_queued -= buf.size();
        if (m_free.size() < 8)
            m_free.push_back(std::move(buf));
        if (!r && !m_error) {
            m_error = r.error();
            m_queue.clear();
            m_queued = 0;
        }
        m_cv.notify_all();
    }
}

} // namespace sp
