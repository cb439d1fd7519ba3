#pragma once
// Writes a launch's output to stdout on a thread of its own, so that a stdout nobody
// reads (`launch … | sleep 25`, a stuck terminal) never blocks the session's event
// loop: Ctrl-C and SIGTERM are honoured within the loop's 50 ms. The queue is bounded;
// while it is full, lines are dropped and then summarised in one line.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace sp::cli {

class LineWriter
{
public:
    // `err`, which the caller keeps writing to, is untied from `out` while this writer
    // lives (std::cerr is tied to std::cout: each write to it would flush std::cout on
    // the caller's thread, blocking it and racing with the writer's).
    LineWriter(std::ostream& out, std::ostream& err, std::size_t maxQueuedBytes = 1 << 20);
    // Waits up to a second for what is queued to be written; after that the writer is
    // left behind (stdout blocked) and abandonedStdout() says so.
    ~LineWriter();
    LineWriter(const LineWriter&) = delete;
    LineWriter& operator=(const LineWriter&) = delete;

    // Text ending in "\n"; never blocks on the output.
    void write(std::string text);

private:
    struct Item
    {
        std::string text;
        std::size_t dropped = 0; // a summary of lines dropped here instead of text
    };
    struct Shared
    {
        std::mutex mutex;
        std::condition_variable wake;
        std::condition_variable drained;
        std::deque<Item> queue;
        std::size_t queuedBytes = 0;
        bool writing = false;
        bool closing = false;
    };
    std::ostream& m_err;
    std::ostream* m_errTie;
    std::size_t m_max;
    // Shared with the thread, which outlives this object when it is left blocked.
    std::shared_ptr<Shared> m_shared;
    std::thread m_thread;
};

// True once a LineWriter was left blocked on stdout: main() then ends the process
// without flushing std::cout (which would block, or race with that thread).
bool abandonedStdout() noexcept;

} // namespace sp::cli
