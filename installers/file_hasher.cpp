#include "installers/file_hasher.h"

#include "installers/sha256.h"

#include <algorithm>
#include <cstring>

namespace sp {

FileHasher::FileHasher(std::size_t bufferBytes, std::size_t buffers)
    : m_bufferBytes(std::max<std::size_t>(bufferBytes, 4096))
{
    for (std::size_t i = 0; i < std::max<std::size_t>(buffers, 2); ++i)
        m_free.push_back(std::make_unique_for_overwrite<char[]>(m_bufferBytes));
    m_thread = std::thread([this] { run(); });
}

FileHasher::~FileHasher()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_toWorker.notify_one();
    m_thread.join();
}

std::size_t FileHasher::begin()
{
    m_filled = 0;
    return m_nextTicket++;
}

void FileHasher::hand(bool end)
{
    std::unique_lock lock(m_mutex);
    Job job;
    job.data = std::move(m_filling);
    job.size = m_filled;
    job.end = end;
    m_queue.push_back(std::move(job));
    if (end)
        ++m_ended;
    m_filled = 0;
    const bool wake = m_workerWaiting;
    lock.unlock();
    if (wake)
        m_toWorker.notify_one();
}

void FileHasher::update(const void* data, std::size_t size)
{
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        if (!m_filling) {
            std::unique_lock lock(m_mutex);
            if (m_free.empty()) {
                m_producerWaiting = true;
                m_toProducer.wait(lock, [this] { return !m_free.empty(); });
                m_producerWaiting = false;
            }
            m_filling = std::move(m_free.back());
            m_free.pop_back();
        }
        const std::size_t n = std::min(size, m_bufferBytes - m_filled);
        std::memcpy(m_filling.get() + m_filled, p, n);
        m_filled += n;
        p += n;
        size -= n;
        if (m_filled == m_bufferBytes)
            hand(false);
    }
}

void FileHasher::end()
{
    hand(true); // with no buffer filling, an empty end marker
}

void FileHasher::wait()
{
    std::unique_lock lock(m_mutex);
    if (m_done == m_ended)
        return;
    m_producerWaiting = true;
    m_toProducer.wait(lock, [this] { return m_done == m_ended; });
    m_producerWaiting = false;
}

void FileHasher::run()
{
    Sha256 sha;
    std::unique_lock lock(m_mutex);
    auto ready = [this] { return m_stop || !m_queue.empty(); };
    for (;;) {
        if (!ready()) {
            m_workerWaiting = true;
            m_toWorker.wait(lock, ready);
            m_workerWaiting = false;
        }
        if (m_stop)
            return;
        Job job = std::move(m_queue.front());
        m_queue.pop_front();
        lock.unlock();
        if (job.size)
            sha.update(job.data.get(), job.size);
        std::string digest = job.end ? sha.hexDigest() : std::string(); // hexDigest() resets
        lock.lock();
        if (job.data)
            m_free.push_back(std::move(job.data));
        if (job.end) {
            m_digests.push_back(std::move(digest)); // ticket m_done
            ++m_done;
        }
        if (m_producerWaiting)
            m_toProducer.notify_one();
    }
}

} // namespace sp
