#pragma once
// Resumable, hash-verified HTTP(S) downloads over libcurl, streamed into a ByteSink.
//
// Contract with the sink (see byte_sink.h): begin(total) once, and again after
// restart(); bytes in order from offset 0 (bytes already in the partial file are
// replayed from disk first); finish() only after size and SHA-256 matched;
// restart() when a server ignored Range (or a mirror served wrong bytes and the
// next one starts over); abort() on failure or cancellation.
//
// Transport rules: TLS is always verified against the system store; plain http:// is
// accepted only when the SHA-256 is pinned (checked before connecting); redirects are
// followed (at most 10) and a redirect from https to http is refused unless pinned.
// Proxies come from the environment (http_proxy, https_proxy, no_proxy, read by
// libcurl) or from DownloaderOptions::proxy (settings.json).

#include "core/cancel_token.h"
#include "core/expected.h"
#include "installers/byte_sink.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sp {

struct DownloadRequest
{
    std::vector<std::string> urls;     // primary then mirrors, tried in order
    std::optional<std::string> sha256; // lower-case hex; pins the artifact
    std::optional<std::uint64_t> size; // bytes; more than this stops the transfer
    // Resume file. Empty: <cacheDir>/downloads/partial/<sha256 or hash of url>.part
    std::filesystem::path partialFile;
    // Plain http:// to this machine (127.0.0.0/8, ::1, localhost) without a pinned
    // SHA-256: for a caller that checks the bytes itself (a signed feed manifest).
    bool loopbackHttpUnpinned = false;
};

struct DownloadProgress
{
    std::string url;                    // the URL being read now
    std::uint64_t received = 0;         // bytes delivered to the sink (incl. replayed)
    std::optional<std::uint64_t> total; // full size when known
    double bytesPerSecond = 0;          // recent network rate
    std::optional<double> etaSeconds;   // when total and rate are known
};
using ProgressFn = std::function<void(const DownloadProgress&)>;

struct DownloadResult
{
    std::string sha256; // of the whole stream
    std::uint64_t size = 0;
    std::string url;                 // the URL that served the final bytes
    std::filesystem::path file;      // <cacheDir>/downloads/<sha256>
    std::uint64_t replayedBytes = 0; // taken from an existing partial file
    std::uint64_t networkBytes = 0;  // received over the network this call
    int requests = 0;                // transfers started (tries over all URLs)
    int restarts = 0;                // times the sink was restarted
};

struct DownloaderOptions
{
    std::filesystem::path cacheDir;   // empty: sp::paths::cacheDir()
    std::optional<std::string> proxy; // CURLOPT_PROXY; empty: environment only
    int maxTriesPerUrl = 4;
    std::chrono::milliseconds backoffBase{200}; // doubled after each failed try
    std::chrono::milliseconds backoffMax{5000};
    long lowSpeedLimit = 1024;             // bytes/s below which ...
    std::chrono::seconds lowSpeedTime{30}; // ... for this long counts as a stall
    std::chrono::seconds connectTimeout{30};
    // CA bundle used instead of the system store (a corporate CA, or a test's own).
    // Verification itself can never be switched off.
    std::filesystem::path caFile;
    // Write the partial file, hash and feed the sink on a second thread while the
    // network thread keeps reading (false: all on the calling thread).
    bool pipelined = true;
    // A signed catalog feed's transfers (feed_http_source.h): redirects go to https only,
    // pinned or not, and a loopback URL never goes through a proxy (curl_transfer.cpp).
    bool feedTransport = false;
    // Waits between tries; tests inject a recorder. Default: sleep, waking early on cancel.
    std::function<void(std::chrono::milliseconds)> sleep;
    // A token for one host (a Hugging Face token for huggingface.co): sent as
    // "Authorization: Bearer" only to a URL whose host is exactly `host`, never to a mirror
    // or another host; curl drops it when a redirect leaves that host (no
    // CURLOPT_UNRESTRICTED_AUTH).
    struct HostToken
    {
        std::string host;
        std::string token;
    };
    std::optional<HostToken> bearer;
};

class Downloader
{
public:
    explicit Downloader(DownloaderOptions options = {});

    // Blocking; call from a worker thread (each call uses its own curl handle, so
    // several fetches may run at once on different threads).
    Expected<DownloadResult> fetch(const DownloadRequest& request, ByteSink& sink,
                                   const ProgressFn& progress = {},
                                   const CancelToken& cancel = {}) const;

    struct Job
    {
        DownloadRequest request;
        ByteSink* sink = nullptr;
        ProgressFn progress; // called on the job's worker thread
    };
    // Runs the jobs on up to `parallel` threads; results in the order of `jobs`.
    // The first failure does not cancel the others (cancel the token for that).
    std::vector<Expected<DownloadResult>> fetchAll(const std::vector<Job>& jobs, int parallel,
                                                   const CancelToken& cancel = {}) const;

    const DownloaderOptions& options() const { return m_options; }
    std::filesystem::path cacheDir() const;
    // <cacheDir>/downloads/<sha256>
    std::filesystem::path cachedFile(const std::string& sha256) const;

    static std::string userAgent(); // "StackPilot/<version>"

private:
    DownloaderOptions m_options;
};

} // namespace sp
