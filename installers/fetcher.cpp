#include "installers/fetcher.h"

#include "core/paths.h"
#include "installers/sha256.h"

#include <fstream>
#include <map>
#include <mutex>

namespace sp {

namespace {

// The URL's last path segment, percent-decoded, as an offline file name.
std::string fileNameOf(const std::string& url)
{
    std::string path = url.substr(0, url.find_first_of("?#"));
    const auto slash = path.rfind('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] == '%' && i + 2 < name.size()) {
            const std::string hex = name.substr(i + 1, 2);
            char* end = nullptr;
            const long v = std::strtol(hex.c_str(), &end, 16);
            if (end == hex.c_str() + 2) {
                out += static_cast<char>(v);
                i += 2;
                continue;
            }
        }
        out += name[i];
    }
    if (out == "." || out == ".." || out.find_first_of("/\\") != std::string::npos)
        return {};
    return out;
}

std::optional<std::string> lowerHex(const std::optional<std::string>& sha256)
{
    if (!sha256)
        return std::nullopt;
    std::string s = *sha256;
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Feeds local files (offline folder, cache) into one sink, one after another, until
// one holds the artifact's bytes; restarts the sink between them.
class LocalFeeder
{
public:
    LocalFeeder(const Artifact& artifact, const std::optional<std::string>& want, ByteSink& sink,
                const ProgressFn& progress, const CancelToken& cancel)
        : m_artifact(artifact), m_want(want), m_sink(sink), m_progress(progress), m_cancel(cancel)
    {}

    // Feeds one local file; true when its bytes are the artifact (sink finished).
    Expected<bool> feed(const std::filesystem::path& file, FetchSource source, FetchResult& out)
    {
        if (m_fed) {
            if (auto r = m_sink.restart(); !r)
                return r.error();
        }
        m_fed = true;
        auto r = feedFile(file, m_sink, m_artifact.size, m_cancel, m_progress);
        if (!r) {
            if (r.error().code == ErrorCode::Cancelled)
                return r.error();
            m_notes += "; " + r.error().message;
            return false;
        }
        if ((m_want && r->sha256 != *m_want) || (m_artifact.size && r->size != *m_artifact.size)) {
            m_notes += "; " + paths::toUtf8(file) + ": SHA-256 " + r->sha256 + " does not match";
            return false;
        }
        if (auto f = m_sink.finish(); !f)
            return f.error();
        out.source = source;
        out.origin = paths::toUtf8(file);
        out.sha256 = r->sha256;
        out.size = r->size;
        return true;
    }

    bool fed() const { return m_fed; } // the sink saw bytes; the next source must restart it
    const std::string& notes() const { return m_notes; } // why each file did not do

private:
    const Artifact& m_artifact;
    const std::optional<std::string>& m_want;
    ByteSink& m_sink;
    const ProgressFn& m_progress;
    const CancelToken& m_cancel;
    bool m_fed = false;
    std::string m_notes;
};

Error notFoundLocally(const FetchOptions& options, const Artifact& artifact,
                      const std::optional<std::string>& want, const std::string& notes)
{
    const std::string where = options.offlineDir
                                  ? "in " + paths::toUtf8(*options.offlineDir) + " or "
                                  : std::string("in ");
    return Error::runtime("artifact " + artifact.url + " (sha256 " + want.value_or("not pinned") +
                          ") not found " + where + "the download cache" + notes)
        .withCause(Cause::NotFound);
}

} // namespace

const char* toString(FetchSource s)
{
    switch (s) {
    case FetchSource::OfflineDir:
        return "offline";
    case FetchSource::Cache:
        return "cache";
    case FetchSource::Network:
        return "network";
    }
    return "network";
}

Expected<FedFile> feedFile(const std::filesystem::path& file, ByteSink& sink,
                           std::optional<std::uint64_t> total, const CancelToken& cancel,
                           const ProgressFn& progress)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return Error::runtime("cannot read " + paths::toUtf8(file));
    if (auto r = sink.begin(total); !r)
        return r.error();
    Sha256 hasher;
    FedFile fed;
    static constexpr std::size_t chunk = 1 << 20;
    auto buf = std::make_unique<char[]>(chunk);
    while (in) {
        if (cancel.cancelled())
            return Error::cancelled("cancelled while reading " + paths::toUtf8(file));
        in.read(buf.get(), chunk);
        const auto n = static_cast<std::size_t>(in.gcount());
        if (n == 0)
            break;
        // The same size guard as the network: never feed more than declared.
        if (total && fed.size + n > *total)
            return Error::invalid(paths::toUtf8(file) + ": larger than the declared " +
                                  std::to_string(*total) + " bytes")
                .withCause(Cause::Size);
        hasher.update(buf.get(), n);
        if (auto r = sink.write(buf.get(), n); !r)
            return r.error();
        fed.size += n;
        if (progress) {
            DownloadProgress p;
            p.url = paths::toUtf8(file);
            p.received = fed.size;
            p.total = total;
            progress(p);
        }
    }
    if (in.bad())
        return Error::runtime("cannot read " + paths::toUtf8(file));
    fed.sha256 = hasher.hexDigest();
    return fed;
}

struct Fetcher::Impl
{
    FetchOptions options;
    Downloader downloader;
    std::mutex indexMutex;
    bool indexed = false;
    std::map<std::string, std::filesystem::path> bySha; // offline dir, built once

    explicit Impl(FetchOptions o)
        : options(std::move(o)), downloader([this] {
              DownloaderOptions opts = options.downloader;
              if (options.settings.proxy)
                  opts.proxy = options.settings.proxy;
              return opts;
          }())
    {}

    std::vector<std::filesystem::path> offlineCandidates(const Artifact& a);
    // The offline folder, then the cache: true when one held the artifact (the sink
    // is then finished and `result` filled in).
    Expected<bool> fetchLocal(const Artifact& a, const std::optional<std::string>& want,
                              LocalFeeder& local, FetchResult& result);
};

std::vector<std::filesystem::path> Fetcher::Impl::offlineCandidates(const Artifact& a)
{
    std::vector<std::filesystem::path> out;
    if (!options.offlineDir)
        return out;
    const auto& dir = *options.offlineDir;
    std::error_code ec;
    for (const auto& url : [&] {
             std::vector<std::string> v{a.url};
             v.insert(v.end(), a.mirrors.begin(), a.mirrors.end());
             return v;
         }()) {
        const std::string name = fileNameOf(url);
        if (!name.empty() && std::filesystem::is_regular_file(dir / paths::fromUtf8(name), ec))
            out.push_back(dir / paths::fromUtf8(name));
    }
    if (!a.sha256)
        return out; // unpinned: only a file named like the URL can stand for it
    std::lock_guard lock(indexMutex);
    if (!indexed) {
        indexed = true;
        for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
             !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
            if (it->is_regular_file(ec))
                if (auto sha = Sha256::ofFile(it->path()); sha.ok())
                    bySha.emplace(*sha, it->path());
        }
    }
    if (auto it = bySha.find(*a.sha256); it != bySha.end())
        out.push_back(it->second);
    return out;
}

Expected<bool> Fetcher::Impl::fetchLocal(const Artifact& a, const std::optional<std::string>& want,
                                         LocalFeeder& local, FetchResult& result)
{
    for (const auto& file : offlineCandidates(a)) {
        auto r = local.feed(file, FetchSource::OfflineDir, result);
        if (!r || *r)
            return r;
    }
    if (!want)
        return false;
    const auto cached = downloader.cachedFile(*want);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(cached, ec))
        return false;
    auto r = local.feed(cached, FetchSource::Cache, result);
    if (!r || !*r) {
        if (r)
            std::filesystem::remove(cached, ec); // corrupt entry: never trust it again
        return r;
    }
    result.cachedFile = cached;
    return true;
}

Fetcher::Fetcher(FetchOptions options) : d(std::make_unique<Impl>(std::move(options))) {}

Fetcher::~Fetcher() = default;

const Downloader& Fetcher::downloader() const
{
    return d->downloader;
}

std::vector<std::string> Fetcher::urlsFor(const Artifact& artifact) const
{
    std::vector<std::string> urls{artifact.url};
    urls.insert(urls.end(), artifact.mirrors.begin(), artifact.mirrors.end());
    return d->options.settings.expandUrls(urls);
}

Expected<FetchResult> Fetcher::fetch(const Artifact& artifact, ByteSink& sink,
                                     const ProgressFn& progress, const CancelToken& cancel) const
{
    SinkAbortGuard abortUnlessFinished(sink);
    const std::optional<std::string> want = lowerHex(artifact.sha256);
    LocalFeeder local(artifact, want, sink, progress, cancel);
    FetchResult result;
    auto found = d->fetchLocal(artifact, want, local, result);
    if (!found)
        return found.error();
    if (*found) {
        abortUnlessFinished.release();
        return result;
    }
    if (!d->options.allowNetwork)
        return notFoundLocally(d->options, artifact, want, local.notes());
    if (local.fed()) {
        if (auto r = sink.restart(); !r)
            return r.error();
    }
    abortUnlessFinished.release(); // from here the downloader aborts the sink when it fails
    DownloadRequest req;
    req.urls = urlsFor(artifact);
    req.sha256 = want;
    req.size = artifact.size;
    auto r = d->downloader.fetch(req, sink, progress, cancel);
    if (!r)
        return r.error();
    result.source = FetchSource::Network;
    result.origin = r->url;
    result.sha256 = r->sha256;
    result.size = r->size;
    result.cachedFile = r->file;
    return result;
}

} // namespace sp
