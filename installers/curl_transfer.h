#pragma once
// One HTTP request of a download (Attempt) and the state every attempt shares
// (Stream): the partial file, the running SHA-256, the sink and the byte pipe.
// Private to the downloader; split out to keep each file readable.

#include "core/strings.h"
#include "installers/byte_pipe.h"
#include "installers/downloader.h"
#include "installers/partial_file.h"
#include "installers/sha256.h"

#include <chrono>
#include <curl/curl.h>
#include <memory>
#include <optional>
#include <string>

namespace sp::transfer {

using sp::lower; // core/strings.h

// The options every request of StackPilot's shares, downloads and URL probes alike:
// protocols, redirects (https only for an unpinned artifact), TLS store, proxy,
// connect timeout. The strings must outlive the transfer.
void setTransportOptions(CURL* curl, const DownloaderOptions& o, bool pinned, char* errbuf,
                         const std::string& ua, const std::string& ca);

// Ends a request (CURLE_ABORTED_BY_CALLBACK) as soon as `cancel` is cancelled: libcurl
// asks about every second and while data flows. The token must outlive the transfer.
void abortWhenCancelled(CURL* curl, const CancelToken& cancel);

// What one transfer attempt tells the retry loop to do next.
enum class Outcome
{
    Complete,
    Retry,
    NextUrl,
    Fatal,
    Cancelled
};

// The whole-download state, shared by every attempt on every URL.
struct Stream
{
    ByteSink& sink;
    PartialFile& partial;
    Sha256 hasher;
    std::uint64_t offset = 0; // bytes delivered to sink, hasher and partial file
    std::optional<std::uint64_t> expectedSize;
    std::optional<std::uint64_t> total;
    std::uint64_t networkBytes = 0;
    int restarts = 0;
    std::unique_ptr<BytePipe> pipe; // set once the partial file was replayed
    bool replayedFromDisk = false;  // the stream still starts with an earlier run's bytes

    Stream(ByteSink& s, PartialFile& p) : sink(s), partial(p) {}

    // Worker side: the partial file, the hash and the sink, in arrival order.
    Expected<void> consume(const char* data, std::size_t n)
    {
        if (auto r = partial.append(data, n); !r)
            return r;
        hasher.update(data, n);
        return sink.write(data, n);
    }

    // Network side: `offset` counts bytes accepted into the stream; the pipe's
    // worker catches up at settle().
    Expected<void> deliver(const char* data, std::size_t n)
    {
        if (auto r = pipe ? pipe->push(data, n) : consume(data, n); !r)
            return r;
        offset += n;
        return {};
    }

    Expected<void> settle() { return pipe ? pipe->drain() : Expected<void>{}; }

    Expected<void> startOver()
    {
        if (auto r = settle(); !r)
            return r;
        if (auto r = partial.truncate(); !r)
            return r;
        hasher.reset();
        offset = 0;
        replayedFromDisk = false;
        ++restarts;
        if (auto r = sink.restart(); !r)
            return r;
        return sink.begin(expectedSize);
    }
};

// Rate over a sliding window, reported at most every 100 ms.
class ProgressReporter
{
public:
    using Clock = std::chrono::steady_clock;
    ProgressReporter(const ProgressFn& fn, Stream& s) : m_fn(fn), m_stream(s) {}

    void report(const std::string& url, bool force)
    {
        if (!m_fn)
            return;
        const auto now = Clock::now();
        if (!force && now - m_last < std::chrono::milliseconds(100))
            return;
        m_last = now;
        const double dt = std::chrono::duration<double>(now - m_windowStart).count();
        if (dt >= 0.5) {
            const double rate = (m_stream.networkBytes - m_windowBytes) / dt;
            m_rate = m_rate == 0 ? rate : 0.5 * m_rate + 0.5 * rate;
            m_windowStart = now;
            m_windowBytes = m_stream.networkBytes;
        } else if (m_rate == 0 && dt > 0) {
            m_rate = (m_stream.networkBytes - m_windowBytes) / dt;
        }
        DownloadProgress p;
        p.url = url;
        p.received = m_stream.offset;
        p.total = m_stream.expectedSize ? m_stream.expectedSize : m_stream.total;
        p.bytesPerSecond = m_rate;
        if (p.total && m_rate > 0 && *p.total >= p.received)
            p.etaSeconds = static_cast<double>(*p.total - p.received) / m_rate;
        m_fn(p);
    }

private:
    const ProgressFn& m_fn;
    Stream& m_stream;
    Clock::time_point m_last{};
    Clock::time_point m_windowStart = Clock::now();
    std::uint64_t m_windowBytes = 0;
    double m_rate = 0;
};

// One HTTP request on one URL, continuing the stream from its current offset.
class Attempt
{
public:
    Attempt(Stream& s, ProgressReporter& r, const CancelToken& c, const std::string& url)
        : m_stream(s), m_reporter(r), m_cancel(c), m_url(url)
    {}

    Outcome run(const DownloaderOptions& o, bool pinned, std::string& reason);
    // Why the attempt did not complete (set with the reason; Unknown when it did).
    Cause cause() const { return m_cause; }

private:
    static size_t onHeader(char* p, size_t size, size_t n, void* self);
    static size_t onWrite(char* p, size_t size, size_t n, void* self);
    static int onXfer(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
    bool decide(); // first body bytes of a response: check status and range
    // Sets every option of the easy handle; the strings must outlive the transfer.
    void configure(const DownloaderOptions& o, bool pinned, char* errbuf, const std::string& ua,
                   const std::string& range, const std::string& ca);
    // What a finished transfer means for the next step, with the reason in words.
    Outcome classify(CURLcode rc, long httpCode, const char* errbuf, bool pinned,
                     std::string& reason);

    Stream& m_stream;
    ProgressReporter& m_reporter;
    const CancelToken& m_cancel;
    std::string m_url;
    CURL* m_curl = nullptr;
    struct curl_slist* m_headers = nullptr; // the bearer token, for its own host only
    bool m_decided = false;
    std::string m_contentRange;
    std::optional<Error> m_failure;
    Cause m_cause = Cause::Unknown;
    bool m_fatal = false;
    bool m_feedTransport = false; // DownloaderOptions::feedTransport
};

} // namespace sp::transfer
