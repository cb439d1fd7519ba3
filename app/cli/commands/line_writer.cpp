#include "app/cli/commands/line_writer.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <streambuf>
#include <string_view>

#ifndef _WIN32
#include <cerrno>
#include <climits>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace sp::cli {

namespace {

std::atomic<bool> g_abandoned{false};

#ifndef _WIN32
// An unbuffered streambuf over a descriptor whose writes have a deadline.
class DeadlineBuf final : public std::streambuf
{
public:
    DeadlineBuf(int fd, int deadlineMs) : m_fd(fd), m_deadline(deadlineMs)
    {
        struct stat st
        {};
        if (::fstat(fd, &st) == 0) {
            m_socket = S_ISSOCK(st.st_mode);
            // A regular file always has room; anything else is written no faster than
            // poll() promises room for (PIPE_BUF for a pipe; a terminal takes that too).
            m_chunk = S_ISREG(st.st_mode) ? std::size_t{1} << 20 : std::size_t{PIPE_BUF};
        }
    }

protected:
    int_type overflow(int_type ch) override
    {
        if (traits_type::eq_int_type(ch, traits_type::eof()))
            return traits_type::not_eof(ch);
        const char c = traits_type::to_char_type(ch);
        put(std::string_view(&c, 1));
        return ch;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override
    {
        put(std::string_view(s, static_cast<std::size_t>(n)));
        return n; // what is dropped is dropped: the stream stays good
    }

private:
    void put(std::string_view text)
    {
        std::lock_guard lock(m_mutex);
        if (m_dropped) {
            const std::string note = "[stackpilot: " + std::to_string(m_dropped) +
                                     " bytes of messages dropped: stderr was not being read]\n";
            std::string_view rest = note;
            if (!writeWithin(rest, m_stalled ? 0 : m_deadline))
                return drop(text);
            m_dropped = 0;
        }
        if (!writeWithin(text, m_stalled ? 0 : m_deadline))
            return drop(text);
        m_stalled = false;
    }

    void drop(std::string_view text)
    {
        m_stalled = true;
        m_dropped += text.size();
    }

    // Writes all of `text` within `ms`; false, with the rest in `text`, when it could not.
    bool writeWithin(std::string_view& text, int ms)
    {
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (!text.empty()) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                until - std::chrono::steady_clock::now());
            pollfd p{m_fd, POLLOUT, 0};
            const int r = ::poll(&p, 1, static_cast<int>(std::max<long long>(0, left.count())));
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0 || (p.revents & (POLLERR | POLLHUP | POLLNVAL)) != 0)
                return false;
            const std::size_t n = std::min(text.size(), m_chunk);
            const ssize_t w = m_socket ? ::send(m_fd, text.data(), n, MSG_DONTWAIT | MSG_NOSIGNAL)
                                       : ::write(m_fd, text.data(), n);
            if (w < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (w <= 0)
                return false;
            text.remove_prefix(static_cast<std::size_t>(w));
        }
        return true;
    }

    int m_fd;
    int m_deadline;
    bool m_socket = false;
    std::size_t m_chunk = PIPE_BUF;
    std::mutex m_mutex;
    bool m_stalled = false;
    std::size_t m_dropped = 0;
};
#endif

} // namespace

StderrDeadline::StderrDeadline(std::ostream& err, int deadlineMs)
{
#ifndef _WIN32
    if (&err != &std::cerr)
        return; // a test's string stream: nothing blocks
    std::cerr.flush();
    m_buf = std::make_unique<DeadlineBuf>(STDERR_FILENO, deadlineMs);
    m_old = std::cerr.rdbuf(m_buf.get());
    m_err = &std::cerr;
#else
    (void)err;
    (void)deadlineMs;
#endif
}

StderrDeadline::~StderrDeadline()
{
    if (m_err)
        m_err->rdbuf(m_old);
}

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
                shared->stalled = false; // it takes again
                shared->drained.notify_all();
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

bool LineWriter::fits(std::size_t bytes) const
{
    return m_shared->queue.empty() || m_shared->queuedBytes + bytes <= m_max;
}

void LineWriter::write(std::string text)
{
    std::unique_lock lock(m_shared->mutex);
    auto& q = m_shared->queue;
    if (!fits(text.size()) && !m_shared->stalled &&
        !m_shared->drained.wait_for(lock, std::chrono::milliseconds(100),
                                    [&] { return fits(text.size()); }))
        m_shared->stalled = true;
    if (!fits(text.size())) {
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
