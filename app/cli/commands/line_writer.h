#pragma once
// Writes a launch's output to stdout on a thread of its own, so that a stdout nobody
// reads (`launch … | sleep 25`, a stuck terminal) never blocks the session's event
// loop: Ctrl-C and SIGTERM are honoured within the loop's 50 ms. The queue is bounded:
// while it is full, a line waits up to 100 ms for the writer to take the queue (a file
// or a terminal that is being read always does: a 50 MB line into a file loses
// nothing); a stdout that took nothing in that time is not being read, and lines are
// dropped, without waiting, until it takes something again, then summarised in one line.
// A single line larger than the bound is queued when the queue is empty.
//
// StderrDeadline gives std::cerr a deadline for the same reason: with `2>&1` into a
// pipe nobody reads, a message must not hold the launcher after its tree has stopped.

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
        std::condition_variable drained; // a batch was written, or the queue taken
        std::deque<Item> queue;
        std::size_t queuedBytes = 0;
        bool writing = false;
        bool closing = false;
        bool stalled = false; // took nothing within the wait: drop without waiting
    };
    bool fits(std::size_t bytes) const;
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

// While it lives, and when `err` is std::cerr, every write to std::cerr goes to file
// descriptor 2 with a deadline of `deadlineMs`: poll() for room, then writes no larger
// than the room poll() promises (a pipe's PIPE_BUF), never O_NONBLOCK on a descriptor
// shared with the shell. What is not taken in time is dropped, and later writes do not
// wait until one is taken again; that one first says how many bytes were dropped.
// Nothing on Windows.
class StderrDeadline
{
public:
    explicit StderrDeadline(std::ostream& err, int deadlineMs = 1000);
    ~StderrDeadline();
    StderrDeadline(const StderrDeadline&) = delete;
    StderrDeadline& operator=(const StderrDeadline&) = delete;

private:
    std::ostream* m_err = nullptr; // null: nothing replaced
    std::streambuf* m_old = nullptr;
    std::unique_ptr<std::streambuf> m_buf;
};

} // namespace sp::cli
