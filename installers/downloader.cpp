#include "installers/downloader.h"

#include "core/catalog/feed/feed_list.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "core/stale_lock.h"
#include "installers/byte_pipe.h"
#include "installers/curl_transfer.h"
#include "installers/fetcher.h"
#include "installers/partial_file.h"
#include "installers/sha256.h"
#include "stackpilot_version.h"

#include <QLockFile>
#include <QString>
#include <algorithm>
#include <cctype>
#include <curl/curl.h>
#include <mutex>
#include <thread>

namespace sp {

using namespace transfer;

namespace {

void initCurl()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

bool isPlainHttp(const std::string& url)
{
    return lower(url.substr(0, 7)) == "http://";
}

void sleepUnlessCancelled(std::chrono::milliseconds d, const CancelToken& cancel)
{
    const auto end = std::chrono::steady_clock::now() + d;
    while (!cancel.cancelled() && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(
            std::min<std::chrono::milliseconds>(d, std::chrono::milliseconds(20)));
}

std::chrono::milliseconds backoff(const DownloaderOptions& o, int attempt)
{
    return std::min<std::chrono::milliseconds>(o.backoffBase * (1LL << std::min(attempt - 1, 20)),
                                               o.backoffMax);
}

// Of two URLs' failures, the one that tells the user more: a server that answered
// (wrong bytes, wrong size, no such file) shows that the way to it works, so its cause
// outranks a refused certificate, which outranks no answer at all. A mirror that sends
// the wrong file is reported as the wrong file, not as an unreachable server.
int telling(Cause c)
{
    switch (c) {
    case Cause::Checksum:
    case Cause::Size:
        return 4;
    case Cause::NotFound:
        return 3;
    case Cause::Tls:
        return 2;
    case Cause::Network:
        return 1;
    default:
        return 0;
    }
}

struct UsableUrls
{
    std::vector<std::string> urls; // in the request's order
    std::string refused;           // plain http:// URLs of an unpinned artifact, joined
};

// The request's URLs less plain http:// ones when the SHA-256 is not pinned.
Expected<UsableUrls> usableUrls(const DownloadRequest& request)
{
    UsableUrls out;
    for (const auto& u : request.urls) {
        if (isPlainHttp(u) && !request.sha256 &&
            !(request.loopbackHttpUnpinned && feed::isLoopbackHttp(u)))
            out.refused += (out.refused.empty() ? "" : ", ") + u;
        else
            out.urls.push_back(u);
    }
    if (!out.urls.empty())
        return out;
    if (!out.refused.empty())
        return Error::invalid("refusing plain http for an artifact without a pinned sha256: " +
                              out.refused)
            .withCause(Cause::Tls);
    return Error::usage("no URL to download from");
}

// Takes the lock that makes one writer per partial file, across threads and
// processes. Returns whether another holder had to be waited for.
Expected<bool> lockPartialFile(QLockFile& lock, const std::filesystem::path& partialPath,
                               const CancelToken& cancel)
{
    lock.setStaleLockTime(0); // only a dead owner makes it stale, however long it runs
    bool waited = false;
    const auto lockFile = paths::fromUtf8(paths::toUtf8(partialPath) + ".lock");
    removeHolderlessLock(lockFile);
    while (!lock.tryLock(100)) {
        removeHolderlessLock(lockFile); // a writer that died before writing its name
        if (lock.error() != QLockFile::LockFailedError)
            return Error::runtime("cannot lock " + paths::toUtf8(partialPath) + ".lock")
                .withCause(lock.error() == QLockFile::PermissionError ? Cause::Permission
                                                                      : Cause::Unknown);
        waited = true;
        if (cancel.cancelled())
            return Error::cancelled("download cancelled while waiting for " +
                                    paths::toUtf8(partialPath));
    }
    return waited;
}

// After waiting for the lock the artifact may be in the cache: feeds it to the sink
// and finishes it when its SHA-256 is the pinned one. Nothing when there is no
// cached file, or the sink was restarted because the cached bytes are wrong.
Expected<std::optional<DownloadResult>>
finishFromCache(const std::filesystem::path& cached, const std::string& expectedSha,
                const DownloadRequest& request, const std::string& url, ByteSink& sink,
                const ProgressFn& progress, const CancelToken& cancel)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(cached, ec))
        return std::optional<DownloadResult>{};
    auto fed = feedFile(cached, sink, request.size, cancel, progress);
    if (!fed)
        return fed.error();
    if (fed->sha256 != expectedSha) {
        if (auto r = sink.restart(); !r)
            return r.error();
        return std::optional<DownloadResult>{};
    }
    if (auto r = sink.finish(); !r)
        return r.error();
    DownloadResult done;
    done.sha256 = fed->sha256;
    done.size = fed->size;
    done.url = url;
    done.file = cached;
    return std::optional<DownloadResult>{std::move(done)};
}

// One download into one sink once the partial file is locked: replays the partial
// file, tries each URL (with retries), checks size and SHA-256 and moves the file
// into the cache. Leaves sink.abort() to the caller; removes the partial file on a
// failure that resuming would repeat, keeps it on cancellation or when every URL
// failed in a way that may pass later.
class FetchRun
{
public:
    FetchRun(const Downloader& downloader, const DownloadRequest& request, ByteSink& sink,
             const ProgressFn& progress, const CancelToken& cancel, UsableUrls urls,
             std::filesystem::path partialPath)
        : m_downloader(downloader), m_options(downloader.options()), m_request(request),
          m_sink(sink), m_cancel(cancel), m_urls(std::move(urls.urls)),
          m_pinned(request.sha256.has_value()),
          m_expectedSha(m_pinned ? lower(*request.sha256) : std::string{}),
          m_partialPath(std::move(partialPath)), m_partial(m_partialPath),
          m_stream(sink, m_partial), m_reporter(progress, m_stream)
    {
        m_stream.expectedSize = request.size;
        if (!urls.refused.empty())
            note(urls.refused, "plain http refused without a pinned sha256");
    }
    FetchRun(const FetchRun&) = delete;
    FetchRun& operator=(const FetchRun&) = delete;

    Expected<DownloadResult> run()
    {
        if (auto r = resume(); !r)
            return r.error();
        return tryUrls();
    }

private:
    Expected<void> resume();
    Expected<void> replay();
    Expected<DownloadResult> tryUrls();
    Outcome transfer(const std::string& url, std::string& reason, Cause& cause);
    std::string mismatch(const std::string& got, Cause& cause) const;
    Expected<DownloadResult> store(const std::string& url, const std::string& got);

    void note(const std::string& url, const std::string& why, Cause cause = Cause::Unknown)
    {
        m_errors += (m_errors.empty() ? "" : "; ") + url + ": " + why;
        if (telling(cause) > telling(m_cause))
            m_cause = cause;
    }
    // A failure that resuming would repeat: the partial file goes.
    Error removingPartial(Error e)
    {
        m_partial.remove();
        return e;
    }
    // Cancelled, or every URL failed for now: the partial file stays to resume from.
    // A failed flush only loses bytes that the next run fetches again.
    Error keepingPartial(Error e)
    {
        (void)m_partial.flush();
        m_partial.close();
        return e;
    }

    const Downloader& m_downloader;
    const DownloaderOptions& m_options;
    const DownloadRequest& m_request;
    ByteSink& m_sink;
    const CancelToken& m_cancel;
    const std::vector<std::string> m_urls;
    const bool m_pinned;
    const std::string m_expectedSha;
    const std::filesystem::path m_partialPath;
    PartialFile m_partial;
    Stream m_stream; // after m_partial, which its byte pipe writes until it is gone
    ProgressReporter m_reporter;
    DownloadResult m_result;
    std::string m_errors;
    Cause m_cause = Cause::Unknown; // the most telling of the failures noted
    bool m_retriedFromScratch = false;
};

// Opens the partial file and feeds its bytes from an earlier run to the sink.
Expected<void> FetchRun::resume()
{
    if (auto r = m_partial.open(); !r)
        return r;
    if (auto r = m_sink.begin(m_request.size); !r)
        return removingPartial(r.error());
    if (m_request.size && m_partial.size() > *m_request.size) {
        if (auto r = m_partial.truncate(); !r)
            return removingPartial(r.error());
    }
    if (auto r = replay(); !r) {
        if (r.error().code != ErrorCode::Cancelled)
            return removingPartial(r.error());
        m_partial.close(); // cancelled: keep the partial file
        return r;
    }
    m_result.replayedBytes = m_stream.offset;
    m_stream.replayedFromDisk = m_stream.offset > 0;
    if (m_options.pipelined)
        m_stream.pipe = std::make_unique<BytePipe>(
            [&stream = m_stream](const char* p, std::size_t n) { return stream.consume(p, n); });
    return {};
}

// Bytes from an earlier run go through the sink and the hash like new ones.
Expected<void> FetchRun::replay()
{
    return m_partial.replay([&](const char* p, std::size_t n) -> Expected<void> {
        if (m_cancel.cancelled())
            return Error::cancelled("download cancelled: " + m_urls[0]);
        m_stream.hasher.update(p, n);
        m_stream.offset += n;
        m_reporter.report(m_urls[0], false);
        return m_sink.write(p, n);
    });
}

Expected<DownloadResult> FetchRun::tryUrls()
{
    for (std::size_t u = 0; u < m_urls.size(); ++u) {
        const std::string& url = m_urls[u];
        std::string reason;
        Cause cause = Cause::Unknown;
        const Outcome outcome = transfer(url, reason, cause);
        if (outcome == Outcome::Cancelled)
            return keepingPartial(Error::cancelled("download cancelled: " + url));
        if (outcome == Outcome::Fatal) // a full disk, a size the catalog does not allow
            return removingPartial(
                Error::runtime(reason.rfind(url, 0) == 0 ? reason : url + ": " + reason)
                    .withCause(cause));
        if (outcome != Outcome::Complete) {
            note(url, reason, cause);
            continue;
        }
        const std::string got = m_stream.hasher.hexDigest();
        const std::string bad = mismatch(got, cause);
        if (bad.empty())
            return store(url, got);
        if (m_stream.replayedFromDisk && !m_retriedFromScratch) {
            // The bytes from an earlier run may be what is wrong (a server that
            // changed, a corrupted disk): start over once on this URL.
            m_retriedFromScratch = true;
            m_stream.replayedFromDisk = false;
            note(url, bad + " (with " + std::to_string(m_result.replayedBytes) +
                          " bytes from an earlier run; starting over)");
            --u; // unsigned wrap-around is well defined; the loop's ++u undoes it
        } else if (u + 1 == m_urls.size()) {
            note(url, bad, cause);
            return removingPartial(Error::invalid(url + ": " + bad).withCause(m_cause));
        } else {
            note(url, bad, cause); // another mirror may have the right bytes; the hash decides
        }
        if (auto r = m_stream.startOver(); !r)
            return removingPartial(r.error());
    }
    // Every URL failed in a way that may pass later: keep the partial file to resume.
    return keepingPartial(Error::runtime("download failed: " + m_errors).withCause(m_cause));
}

// Tries one URL up to maxTriesPerUrl times, waiting longer after each failure.
Outcome FetchRun::transfer(const std::string& url, std::string& reason, Cause& cause)
{
    Outcome outcome = Outcome::NextUrl;
    for (int attempt = 0; attempt < std::max(1, m_options.maxTriesPerUrl); ++attempt) {
        if (attempt > 0) {
            if (m_options.sleep)
                m_options.sleep(backoff(m_options, attempt));
            else
                sleepUnlessCancelled(backoff(m_options, attempt), m_cancel);
        }
        if (m_cancel.cancelled())
            return Outcome::Cancelled;
        ++m_result.requests;
        Attempt a(m_stream, m_reporter, m_cancel, url);
        outcome = a.run(m_options, m_pinned, reason);
        cause = a.cause(); // of the last try on this URL
        if (outcome != Outcome::Retry)
            break;
    }
    return outcome;
}

// What is wrong with a complete transfer whose SHA-256 is `got`; empty when nothing.
std::string FetchRun::mismatch(const std::string& got, Cause& cause) const
{
    if (m_request.size && m_stream.offset != *m_request.size) {
        cause = Cause::Size;
        return "size mismatch: expected " + std::to_string(*m_request.size) + " bytes, got " +
               std::to_string(m_stream.offset);
    }
    if (m_pinned && got != m_expectedSha) {
        cause = Cause::Checksum;
        return "SHA-256 mismatch: expected " + m_expectedSha + ", got " + got;
    }
    return {};
}

// Moves the verified partial file to <cacheDir>/downloads/<sha256> and finishes the sink.
Expected<DownloadResult> FetchRun::store(const std::string& url, const std::string& got)
{
    if (auto r = m_partial.flush(); !r)
        return removingPartial(r.error());
    m_partial.close();
    const auto cached = m_downloader.cachedFile(got);
    std::error_code ec;
    std::filesystem::create_directories(cached.parent_path(), ec);
    std::filesystem::rename(m_partialPath, cached, ec);
    if (ec) { // another volume: copy, then drop the partial file
        std::filesystem::copy_file(m_partialPath, cached,
                                   std::filesystem::copy_options::overwrite_existing, ec);
        if (ec)
            return removingPartial(
                Error::runtime("cannot store " + paths::toUtf8(cached) + ": " + ec.message())
                    .withCause(causeFromError(ec)));
        std::filesystem::remove(m_partialPath, ec);
    }
    m_reporter.report(url, true);
    m_result.sha256 = got;
    m_result.size = m_stream.offset;
    m_result.url = url;
    m_result.file = cached;
    m_result.networkBytes = m_stream.networkBytes;
    m_result.restarts = m_stream.restarts;
    if (auto r = m_sink.finish(); !r)
        return r.error();
    return m_result;
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
    // Declared first, so the sink is aborted after the byte pipe stopped writing to it.
    SinkAbortGuard abortUnlessFinished(sink);
    auto urls = usableUrls(request);
    if (!urls)
        return urls.error();
    const std::string& firstUrl = urls->urls[0];
    const bool pinned = request.sha256.has_value();
    const std::string expectedSha = pinned ? lower(*request.sha256) : std::string{};
    std::filesystem::path partialPath = request.partialFile;
    if (partialPath.empty())
        partialPath =
            cacheDir() / "downloads" / "partial" /
            ((pinned ? expectedSha : Sha256::ofBytes(firstUrl.data(), firstUrl.size())) + ".part");
    std::error_code dirError;
    std::filesystem::create_directories(partialPath.parent_path(), dirError);
    QLockFile lock(qpath(partialPath) + QStringLiteral(".lock"));
    auto waited = lockPartialFile(lock, partialPath, cancel);
    if (!waited)
        return waited.error();
    if (*waited && pinned) { // whoever held the lock may have put the artifact in the cache
        auto done = finishFromCache(cachedFile(expectedSha), expectedSha, request, firstUrl, sink,
                                    progress, cancel);
        if (!done)
            return done.error();
        if (*done) {
            abortUnlessFinished.release();
            return std::move(**done);
        }
    }
    FetchRun run(*this, request, sink, progress, cancel, std::move(*urls), partialPath);
    auto result = run.run();
    if (result) // run() returns a result only after sink.finish() succeeded
        abortUnlessFinished.release();
    return result;
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
