#include "installers/downloader.h"

#include "core/paths.h"
#include "installers/byte_pipe.h"
#include "installers/fetcher.h"
#include "installers/partial_file.h"
#include "installers/sha256.h"

#include <QLockFile>
#include <QString>
#include <algorithm>
#include <cctype>
#include <curl/curl.h>
#include <mutex>
#include <thread>

#ifndef CURL_WRITEFUNC_ERROR // before 7.87 any count other than the one passed aborts
#define CURL_WRITEFUNC_ERROR 0xFFFFFFFF
#endif

namespace sp {

namespace {

void initCurl()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool isPlainHttp(const std::string& url)
{
    return lower(url.substr(0, 7)) == "http://";
}

bool isTlsError(CURLcode c)
{
    switch (c) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
        return true;
    default:
        return false;
    }
}

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

private:
    static size_t onHeader(char* p, size_t size, size_t n, void* self);
    static size_t onWrite(char* p, size_t size, size_t n, void* self);
    static int onXfer(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
    bool decide(); // first body bytes of a response: check status and range

    Stream& m_stream;
    ProgressReporter& m_reporter;
    const CancelToken& m_cancel;
    std::string m_url;
    CURL* m_curl = nullptr;
    bool m_decided = false;
    std::string m_contentRange;
    std::optional<Error> m_failure;
    bool m_fatal = false;
};

size_t Attempt::onHeader(char* p, size_t size, size_t n, void* self)
{
    auto* a = static_cast<Attempt*>(self);
    const std::string line(p, size * n);
    if (line.rfind("HTTP/", 0) == 0) { // a new response (after a redirect, say)
        a->m_decided = false;
        a->m_contentRange.clear();
    } else if (lower(line.substr(0, 14)) == "content-range:") {
        a->m_contentRange = line.substr(14);
    }
    return size * n;
}

bool Attempt::decide()
{
    m_decided = true;
    long code = 0;
    curl_easy_getinfo(m_curl, CURLINFO_RESPONSE_CODE, &code);
    curl_off_t length = -1;
    curl_easy_getinfo(m_curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    const auto& want = m_stream.expectedSize;
    if (code == 206) {
        unsigned long long first = 0, last = 0, full = 0;
        if (std::sscanf(m_contentRange.c_str(), " bytes %llu-%llu/%llu", &first, &last, &full) <
                2 ||
            first != m_stream.offset) {
            m_failure = Error::runtime(m_url + ": server answered a different range (" +
                                       m_contentRange + ")");
            return false;
        }
        if (full)
            m_stream.total = full;
    } else if (code == 200) {
        if (m_stream.offset > 0) { // Range ignored: the body starts again from byte 0
            if (auto r = m_stream.startOver(); !r) {
                m_failure = r.error();
                m_fatal = true;
                return false;
            }
        }
        if (length >= 0)
            m_stream.total = static_cast<std::uint64_t>(length);
    } else {
        m_failure = Error::runtime(m_url + ": unexpected HTTP status " + std::to_string(code));
        return false;
    }
    if (want && m_stream.total && *m_stream.total > *want) {
        m_failure = Error::invalid(m_url + ": server declares " + std::to_string(*m_stream.total) +
                                   " bytes, the catalog says " + std::to_string(*want));
        m_fatal = true;
        return false;
    }
    return true;
}

size_t Attempt::onWrite(char* p, size_t size, size_t n, void* self)
{
    auto* a = static_cast<Attempt*>(self);
    const size_t len = size * n;
    if (!a->m_decided && !a->decide())
        return CURL_WRITEFUNC_ERROR;
    if (a->m_cancel.cancelled()) {
        a->m_failure = Error::cancelled();
        return CURL_WRITEFUNC_ERROR;
    }
    Stream& s = a->m_stream;
    // The transport-level size guard: never take more than the catalog declared.
    if (s.expectedSize && s.offset + len > *s.expectedSize) {
        a->m_failure = Error::invalid(a->m_url + ": server sent more than the declared " +
                                      std::to_string(*s.expectedSize) + " bytes");
        a->m_fatal = true;
        return CURL_WRITEFUNC_ERROR;
    }
    if (auto r = s.deliver(p, len); !r) {
        a->m_failure = r.error();
        a->m_fatal = true;
        return CURL_WRITEFUNC_ERROR;
    }
    s.networkBytes += len;
    a->m_reporter.report(a->m_url, false);
    return len;
}

int Attempt::onXfer(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    return static_cast<Attempt*>(self)->m_cancel.cancelled() ? 1 : 0;
}

Outcome Attempt::run(const DownloaderOptions& o, bool pinned, std::string& reason)
{
    m_curl = curl_easy_init();
    if (!m_curl) {
        reason = "cannot create a curl handle";
        return Outcome::Fatal;
    }
    char errbuf[CURL_ERROR_SIZE] = {};
    const std::string ua = Downloader::userAgent();
    const std::string range = std::to_string(m_stream.offset) + "-";
    curl_easy_setopt(m_curl, CURLOPT_URL, m_url.c_str());
    curl_easy_setopt(m_curl, CURLOPT_USERAGENT, ua.c_str());
    curl_easy_setopt(m_curl, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(m_curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(m_curl, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(m_curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(m_curl, CURLOPT_MAXREDIRS, 10L);
#if LIBCURL_VERSION_NUM >= 0x075500 // 7.85: the string form; the bitmask is deprecated
    curl_easy_setopt(m_curl, CURLOPT_PROTOCOLS_STR, "http,https");
    // An unpinned artifact only ever travels over TLS, redirects included.
    curl_easy_setopt(m_curl, CURLOPT_REDIR_PROTOCOLS_STR, pinned ? "http,https" : "https");
#else // Ubuntu 22.04 ships 7.81
    curl_easy_setopt(m_curl, CURLOPT_PROTOCOLS,
                     static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl_easy_setopt(
        m_curl, CURLOPT_REDIR_PROTOCOLS,
        static_cast<long>(pinned ? CURLPROTO_HTTP | CURLPROTO_HTTPS : CURLPROTO_HTTPS));
#endif
#ifdef _WIN32
    curl_easy_setopt(m_curl, CURLOPT_SSL_OPTIONS, static_cast<long>(CURLSSLOPT_NATIVE_CA));
#endif
    const std::string ca = paths::toUtf8(o.caFile);
    if (!ca.empty())
        curl_easy_setopt(m_curl, CURLOPT_CAINFO, ca.c_str());
    if (o.proxy && !o.proxy->empty())
        curl_easy_setopt(m_curl, CURLOPT_PROXY, o.proxy->c_str());
    curl_easy_setopt(m_curl, CURLOPT_CONNECTTIMEOUT, static_cast<long>(o.connectTimeout.count()));
    curl_easy_setopt(m_curl, CURLOPT_LOW_SPEED_LIMIT, o.lowSpeedLimit);
    curl_easy_setopt(m_curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(o.lowSpeedTime.count()));
    curl_easy_setopt(m_curl, CURLOPT_BUFFERSIZE, 512L * 1024);
    if (m_stream.offset > 0)
        curl_easy_setopt(m_curl, CURLOPT_RANGE, range.c_str());
    curl_easy_setopt(m_curl, CURLOPT_HEADERFUNCTION, &Attempt::onHeader);
    curl_easy_setopt(m_curl, CURLOPT_HEADERDATA, this);
    curl_easy_setopt(m_curl, CURLOPT_WRITEFUNCTION, &Attempt::onWrite);
    curl_easy_setopt(m_curl, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(m_curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(m_curl, CURLOPT_XFERINFOFUNCTION, &Attempt::onXfer);
    curl_easy_setopt(m_curl, CURLOPT_XFERINFODATA, this);

    const CURLcode rc = curl_easy_perform(m_curl);
    // Everything accepted must be on disk and in the sink before the next decision.
    if (auto settled = m_stream.settle(); !settled && !m_fatal) {
        m_failure = settled.error();
        m_fatal = true;
    }
    long code = 0;
    curl_easy_getinfo(m_curl, CURLINFO_RESPONSE_CODE, &code);
    // An empty 200 body never reaches the write callback.
    if (rc == CURLE_OK && !m_decided && !m_failure)
        decide();
    curl_easy_cleanup(m_curl);
    m_curl = nullptr;

    if (m_cancel.cancelled() || (m_failure && m_failure->code == ErrorCode::Cancelled)) {
        reason = "cancelled";
        return Outcome::Cancelled;
    }
    if (m_failure) {
        reason = m_failure->message;
        return m_fatal ? Outcome::Fatal : Outcome::Retry;
    }
    const std::string detail = errbuf[0] ? errbuf : curl_easy_strerror(rc);
    const auto& want = m_stream.expectedSize;
    if (rc == CURLE_OK) {
        if (want && m_stream.offset < *want) {
            reason = "the transfer ended after " + std::to_string(m_stream.offset) + " of " +
                     std::to_string(*want) + " bytes";
            return Outcome::Retry;
        }
        return Outcome::Complete;
    }
    if (rc == CURLE_HTTP_RETURNED_ERROR) {
        reason = "HTTP " + std::to_string(code);
        if (code == 416 && m_stream.offset > 0) {
            // Everything was already here (a drop right at the end), or the resource
            // shrank: verify, or start over.
            if (!want || m_stream.offset == *want)
                return Outcome::Complete;
            if (auto r = m_stream.startOver(); !r) {
                reason = r.error().message;
                return Outcome::Fatal;
            }
            return Outcome::Retry;
        }
        return code >= 500 || code == 408 || code == 429 ? Outcome::Retry : Outcome::NextUrl;
    }
    if (rc == CURLE_UNSUPPORTED_PROTOCOL && !pinned) {
        reason = "redirect to plain http refused (the artifact has no pinned sha256): " + detail;
        return Outcome::NextUrl;
    }
    if (isTlsError(rc)) {
        reason = "TLS verification failed: " + detail;
        return Outcome::NextUrl;
    }
    if (rc == CURLE_TOO_MANY_REDIRECTS || rc == CURLE_UNSUPPORTED_PROTOCOL ||
        rc == CURLE_URL_MALFORMAT) {
        reason = detail;
        return Outcome::NextUrl;
    }
    reason = rc == CURLE_OPERATION_TIMEDOUT ? "stalled: " + detail : detail;
    return Outcome::Retry;
}

void sleepUnlessCancelled(std::chrono::milliseconds d, const CancelToken& cancel)
{
    const auto end = std::chrono::steady_clock::now() + d;
    while (!cancel.cancelled() && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(
            std::min<std::chrono::milliseconds>(d, std::chrono::milliseconds(20)));
}

} // namespace

Downloader::Downloader(DownloaderOptions options) : m_options(std::move(options))
{
    initCurl();
}

std::string Downloader::userAgent()
{
    return std::string("StackPilot/") + STACKPILOT_VERSION;
}

std::filesystem::path Downloader::cacheDir() const
{
    return m_options.cacheDir.empty() ? paths::cacheDir() : m_options.cacheDir;
}

std::filesystem::path Downloader::cachedFile(const std::string& sha256) const
{
    return cacheDir() / "downloads" / sha256;
}

Expected<DownloadResult> Downloader::fetch(const DownloadRequest& request, ByteSink& sink,
                                           const ProgressFn& progress,
                                           const CancelToken& cancel) const
{
    const bool pinned = request.sha256.has_value();
    std::vector<std::string> urls;
    std::string refused;
    for (const auto& u : request.urls) {
        if (isPlainHttp(u) && !pinned)
            refused += (refused.empty() ? "" : ", ") + u;
        else
            urls.push_back(u);
    }
    if (urls.empty()) {
        sink.abort();
        if (!refused.empty())
            return Error::invalid("refusing plain http for an artifact without a pinned sha256: " +
                                  refused);
        return Error::usage("no URL to download from");
    }
    const std::string expectedSha = pinned ? lower(*request.sha256) : std::string{};

    std::filesystem::path partialPath = request.partialFile;
    if (partialPath.empty())
        partialPath =
            cacheDir() / "downloads" / "partial" /
            ((pinned ? expectedSha : Sha256::ofBytes(urls[0].data(), urls[0].size())) + ".part");
    // One writer per partial file, across threads and processes. Whoever waited
    // may find the artifact already in the cache.
    std::error_code dirError;
    std::filesystem::create_directories(partialPath.parent_path(), dirError);
    QLockFile lock(QString::fromStdU16String(partialPath.u16string() + u".lock"));
    lock.setStaleLockTime(0); // only a dead owner makes it stale, however long it runs
    bool waited = false;
    while (!lock.tryLock(100)) {
        if (lock.error() != QLockFile::LockFailedError) {
            sink.abort();
            return Error::runtime("cannot lock " + paths::toUtf8(partialPath) + ".lock");
        }
        waited = true;
        if (cancel.cancelled()) {
            sink.abort();
            return Error::cancelled("download cancelled while waiting for " +
                                    paths::toUtf8(partialPath));
        }
    }
    if (waited && pinned) {
        const auto cached = cachedFile(expectedSha);
        std::error_code ec;
        if (std::filesystem::is_regular_file(cached, ec)) {
            auto fed = feedFile(cached, sink, request.size, cancel, progress);
            if (fed && fed->sha256 == expectedSha) {
                if (auto r = sink.finish(); !r) {
                    sink.abort();
                    return r.error();
                }
                DownloadResult done;
                done.sha256 = fed->sha256;
                done.size = fed->size;
                done.url = urls[0];
                done.file = cached;
                return done;
            }
            if (fed) {
                if (auto r = sink.restart(); !r) {
                    sink.abort();
                    return r.error();
                }
            } else {
                sink.abort();
                return fed.error();
            }
        }
    }
    PartialFile partial(partialPath);
    Stream stream(sink, partial);
    stream.expectedSize = request.size;
    ProgressReporter reporter(progress, stream);
    DownloadResult result;

    auto fail = [&](Error e) -> Expected<DownloadResult> {
        partial.remove();
        sink.abort();
        return e;
    };
    if (auto r = partial.open(); !r) {
        sink.abort();
        return r.error();
    }
    if (auto r = sink.begin(request.size); !r)
        return fail(r.error());
    if (request.size && partial.size() > *request.size) {
        if (auto r = partial.truncate(); !r)
            return fail(r.error());
    }
    // Bytes from an earlier run go through the sink and the hash like new ones.
    if (auto r = partial.replay([&](const char* p, std::size_t n) -> Expected<void> {
            if (cancel.cancelled())
                return Error::cancelled("download cancelled: " + urls[0]);
            stream.hasher.update(p, n);
            stream.offset += n;
            reporter.report(urls[0], false);
            return sink.write(p, n);
        });
        !r) {
        if (r.error().code == ErrorCode::Cancelled) { // keep the partial file
            partial.close();
            sink.abort();
            return r.error();
        }
        return fail(r.error());
    }
    result.replayedBytes = stream.offset;
    stream.replayedFromDisk = stream.offset > 0;
    bool retriedFromScratch = false;
    if (m_options.pipelined)
        stream.pipe = std::make_unique<BytePipe>(
            [&stream](const char* p, std::size_t n) { return stream.consume(p, n); });

    std::string errors;
    auto note = [&](const std::string& url, const std::string& why) {
        errors += (errors.empty() ? "" : "; ") + url + ": " + why;
    };
    if (!refused.empty())
        note(refused, "plain http refused without a pinned sha256");

    for (std::size_t u = 0; u < urls.size(); ++u) {
        const std::string& url = urls[u];
        Outcome outcome = Outcome::NextUrl;
        std::string reason;
        for (int attempt = 0; attempt < std::max(1, m_options.maxTriesPerUrl); ++attempt) {
            if (attempt > 0) {
                const std::chrono::milliseconds delay = std::min<std::chrono::milliseconds>(
                    m_options.backoffBase * (1LL << std::min(attempt - 1, 20)),
                    m_options.backoffMax);
                if (m_options.sleep)
                    m_options.sleep(delay);
                else
                    sleepUnlessCancelled(delay, cancel);
            }
            if (cancel.cancelled()) {
                outcome = Outcome::Cancelled;
                break;
            }
            ++result.requests;
            Attempt a(stream, reporter, cancel, url);
            outcome = a.run(m_options, pinned, reason);
            if (outcome != Outcome::Retry)
                break;
        }
        if (outcome == Outcome::Cancelled) {
            (void)partial.flush();
            partial.close();
            sink.abort();
            return Error::cancelled("download cancelled: " + url);
        }
        if (outcome == Outcome::Fatal)
            return fail(Error::runtime(reason.rfind(url, 0) == 0 ? reason : url + ": " + reason));
        if (outcome != Outcome::Complete) {
            note(url, reason);
            continue;
        }

        const std::string got = stream.hasher.hexDigest();
        std::string bad;
        if (request.size && stream.offset != *request.size)
            bad = "size mismatch: expected " + std::to_string(*request.size) + " bytes, got " +
                  std::to_string(stream.offset);
        else if (pinned && got != expectedSha)
            bad = "SHA-256 mismatch: expected " + expectedSha + ", got " + got;
        if (!bad.empty()) {
            if (stream.replayedFromDisk && !retriedFromScratch) {
                // The bytes from an earlier run may be what is wrong (a server
                // that changed, a corrupted disk): start over once on this URL.
                retriedFromScratch = true;
                stream.replayedFromDisk = false;
                note(url, bad + " (with " + std::to_string(result.replayedBytes) +
                              " bytes from an earlier run; starting over)");
                if (auto r = stream.startOver(); !r)
                    return fail(r.error());
                --u; // unsigned wrap-around is well defined; the loop's ++u undoes it
                continue;
            }
            if (u + 1 == urls.size())
                return fail(Error::invalid(url + ": " + bad));
            // Another mirror may have the right bytes; the hash decides.
            note(url, bad);
            if (auto r = stream.startOver(); !r)
                return fail(r.error());
            continue;
        }

        if (auto r = partial.flush(); !r)
            return fail(r.error());
        partial.close();
        const auto cached = cachedFile(got);
        std::error_code ec;
        std::filesystem::create_directories(cached.parent_path(), ec);
        std::filesystem::rename(partialPath, cached, ec);
        if (ec) { // another volume: copy, then drop the partial file
            std::filesystem::copy_file(partialPath, cached,
                                       std::filesystem::copy_options::overwrite_existing, ec);
            if (ec)
                return fail(
                    Error::runtime("cannot store " + paths::toUtf8(cached) + ": " + ec.message()));
            std::filesystem::remove(partialPath, ec);
        }
        reporter.report(url, true);
        result.sha256 = got;
        result.size = stream.offset;
        result.url = url;
        result.file = cached;
        result.networkBytes = stream.networkBytes;
        result.restarts = stream.restarts;
        if (auto r = sink.finish(); !r) {
            sink.abort();
            return r.error();
        }
        return result;
    }
    // Every URL failed in a way that may pass later: keep the partial file to resume.
    (void)partial.flush();
    partial.close();
    sink.abort();
    return Error::runtime("download failed: " + errors);
}

std::vector<Expected<DownloadResult>>
Downloader::fetchAll(const std::vector<Job>& jobs, int parallel, const CancelToken& cancel) const
{
    std::vector<std::optional<Expected<DownloadResult>>> outcomes(jobs.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i; (i = next++) < jobs.size();)
            outcomes[i] = fetch(jobs[i].request, *jobs[i].sink, jobs[i].progress, cancel);
    };
    const auto n = std::clamp<std::size_t>(static_cast<std::size_t>(std::max(parallel, 1)), 1,
                                           std::max<std::size_t>(jobs.size(), 1));
    std::vector<std::thread> threads;
    for (std::size_t t = 1; t < n; ++t)
        threads.emplace_back(worker);
    worker();
    for (auto& t : threads)
        t.join();
    std::vector<Expected<DownloadResult>> out;
    out.reserve(jobs.size());
    for (auto& s : outcomes)
        out.push_back(std::move(*s));
    return out;
}

} // namespace sp
