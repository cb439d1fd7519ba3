#pragma once
// Hands received chunks to one worker thread, so the network thread keeps reading
// while the worker writes the partial file, hashes and feeds the sink (download ∥
// verify ∥ extract). Chunks keep their order; at most `capacity` bytes wait.

#include "core/expected.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace sp {

class BytePipe
{
public:
    using Consumer = std::function<Expected<void>(const char*, std::size_t)>;

    BytePipe(Consumer consumer, std::size_t capacity = std::size_t{8} << 20);
    ~BytePipe(); // drains, then stops the worker
    BytePipe(const BytePipe&) = delete;
    BytePipe& operator=(const BytePipe&) = delete;

    // Queues a copy; blocks while the queue is full. Returns the worker's first
    // error, after which nothing more is consumed.
    Expected<void> push(const char* data, std::size_t size);
    // Waits until every queued chunk was consumed; returns the worker's first error.
    Expected<void> drain();

private:
    void run();

    Consumer m_consume;
    std::size_t m_capacity;
    std::size_t m_batch; // the worker wakes for this much queued data, or a drain
    std::mutex m_mutex;
    std::condition_variable m_toWorker;
    std::condition_variable m_toProducer; // the producer and drain() wait here
    // A vector's resize() would zero each buffer before the copy overwrites it.
    struct Chunk
    {
        std::unique_ptr<char[]> data;
        std::size_t size = 0;
        std::size_t capacity = 0;
    };
    std::deque<Chunk> m_queue;
    std::vector<Chunk> m_free; // reused buffers: no page faults per chunk
    std::size_t m_queued = 0;
    bool m_busy = false;
    bool m_stop = false;
    bool m_workerWaiting = false;
    bool m_producerWaiting = false;
    int m_draining = 0;
    std::optional<Error> m_error;
    std::thread m_thread;
};

} // namespace sp
