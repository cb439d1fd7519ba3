#include "installers/downloader.h"

#include "core/paths.h"
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
