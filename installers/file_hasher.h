#pragma once
// SHA-256 of extracted files on a thread of its own, so the extraction thread only
// decompresses and writes (on two cores hashing inline made it the slowest stage).
// Bytes are copied into a few large buffers; files are hashed in the order they
// were begun, and a digest is ready once wait() returns.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sp {

class FileHasher
{
public:
    explicit FileHasher(std::size_t bufferBytes = std::size_t{1} << 20, std::size_t buffers = 6);
    ~FileHasher(); // drops whatever is still queued
    FileHasher(const FileHasher&) = delete;
    FileHasher& operator=(const FileHasher&) = delete;

    // Starts the next file and returns its ticket; end() closes it. One file at a time.
    std::size_t begin();
    void update(const void* data, std::size_t size); // blocks while every buffer is queued
    void end();
    // Waits until every ended file is hashed; the lower-case hex digest of ticket t.
    void wait();
    const std::string& digest(std::size_t ticket) const { return m_digests[ticket]; }

private:
    struct Job
    {
        std::unique_ptr<char[]> data;
        std::size_t size = 0;
        bool end = false;
    };
    void hand(bool end); // queues the filling buffer
    void run();

    std::size_t m_bufferBytes;
    std::unique_ptr<char[]> m_filling;
    std::size_t m_filled = 0;
    std::size_t m_nextTicket = 0;

    std::mutex m_mutex;
    std::condition_variable m_toWorker;
    std::condition_variable m_toProducer;
    std::deque<Job> m_queue;
    std::vector<std::unique_ptr<char[]>> m_free;
    std::vector<std::string> m_digests; // by ticket; grows under the lock, read after wait()
    std::size_t m_done = 0;             // files finished by the thread
    std::size_t m_ended = 0;
    bool m_workerWaiting = false;
    bool m_producerWaiting = false;
    bool m_stop = false;
    std::thread m_thread;
};

} // namespace sp
