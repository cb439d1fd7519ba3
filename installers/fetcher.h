#pragma once
// Gets one catalog artifact's bytes into a ByteSink from the cheapest place:
//   1. an offline folder (install --offline DIR): a file named like the URL's last
//      segment, else any regular file under DIR with the pinned SHA-256 (each file
//      is hashed once per Fetcher);
//   2. the download cache <cacheDir>/downloads/<sha256>, re-hashed as it is read;
//   3. the network (Downloader), with the settings' mirror rules and proxy.
// Local files are fed through the same ByteSink contract as downloads, so extraction
// is identical whatever the source. A local file whose hash turns out wrong makes
// the sink restart() and the next source is tried (a bad cache entry is deleted).
// Thread-safe: one Fetcher may serve several artifacts at once from worker threads.

#include "core/catalog/types.h"
#include "core/expected.h"
#include "core/settings.h"
#include "installers/byte_sink.h"
#include "installers/downloader.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace sp {

struct FetchOptions
{
    std::optional<std::filesystem::path> offlineDir;
    bool allowNetwork = true;     // false: offline folder and cache only
    Settings settings;            // proxy, mirror rules
    DownloaderOptions downloader; // its proxy is overridden by settings.proxy when set
};

enum class FetchSource
{
    OfflineDir,
    Cache,
    Network
};
const char* toString(FetchSource s); // "offline" | "cache" | "network"

struct FetchResult
{
    FetchSource source = FetchSource::Network;
    std::string origin; // the local file (UTF-8) or the URL that served the bytes
    std::string sha256;
    std::uint64_t size = 0;
    std::filesystem::path cachedFile; // set when the bytes are now in the cache
};

class Fetcher
{
public:
    explicit Fetcher(FetchOptions options = {});
    ~Fetcher();
    Fetcher(const Fetcher&) = delete;
    Fetcher& operator=(const Fetcher&) = delete;

    Expected<FetchResult> fetch(const Artifact& artifact, ByteSink& sink,
                                const ProgressFn& progress = {},
                                const CancelToken& cancel = {}) const;

    // The URLs the network step would try for `artifact`, in order.
    std::vector<std::string> urlsFor(const Artifact& artifact) const;
    const Downloader& downloader() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// Feeds `file` into `sink` (begin, write...; never finish) while hashing it.
// Returns the SHA-256 and size of what was fed.
struct FedFile
{
    std::string sha256;
    std::uint64_t size = 0;
};
Expected<FedFile> feedFile(const std::filesystem::path& file, ByteSink& sink,
                           std::optional<std::uint64_t> total, const CancelToken& cancel = {},
                           const ProgressFn& progress = {});

} // namespace sp
