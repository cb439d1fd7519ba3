#include "installers/artifact_check.h"

#include "core/paths.h"

#include <QTemporaryDir>
#include <curl/curl.h>
#include <memory>
#include <mutex>

namespace sp {

namespace {

// Counts what a deep check downloads and keeps none of it.
class DiscardSink : public ByteSink
{
public:
    Expected<void> begin(std::optional<std::uint64_t>) override { return {}; }
    Expected<void> write(const char*, std::size_t) override { return {}; }
    Expected<void> finish() override { return {}; }
    Expected<void> restart() override { return {}; }
};

size_t discardBody(char*, size_t size, size_t n, void*)
{
    return size * n;
}

struct Probe
{
    long status = 0;
    curl_off_t length = -1; // Content-Length of the final answer, -1 when none
    std::string error;      // set when no HTTP answer came
};

// One HEAD, or with `head` false a GET of the first byte only, following redirects.
Probe probe(const std::string& url, const DownloaderOptions& o, bool head)
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    Probe p;
    std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
    if (!curl) {
        p.error = "curl_easy_init failed";
        return p;
    }
    char errbuf[CURL_ERROR_SIZE] = {};
    const std::string ua = Downloader::userAgent();
    const std::string ca = paths::toUtf8(o.caFile);
    CURL* c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_USERAGENT, ua.c_str());
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
#if LIBCURL_VERSION_NUM >= 0x075500 // 7.85: the string form; the bitmask is deprecated
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(c, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS,
                     static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
#ifdef _WIN32
    curl_easy_setopt(c, CURLOPT_SSL_OPTIONS, static_cast<long>(CURLSSLOPT_NATIVE_CA));
#endif
    if (!ca.empty())
        curl_easy_setopt(c, CURLOPT_CAINFO, ca.c_str());
    if (o.proxy && !o.proxy->empty())
        curl_easy_setopt(c, CURLOPT_PROXY, o.proxy->c_str());
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, static_cast<long>(o.connectTimeout.count()));
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 120L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &discardBody);
    if (head)
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    else
        curl_easy_setopt(c, CURLOPT_RANGE, "0-0");
    const CURLcode rc = curl_easy_perform(c);
    if (rc != CURLE_OK) {
        p.error = errbuf[0] ? errbuf : curl_easy_strerror(rc);
        return p;
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &p.status);
    curl_easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &p.length);
    return p;
}

// Reachable, and the size the server declares (HEAD only) is the catalog's.
void checkShallow(const Artifact& a, const ArtifactCheckOptions& o, ArtifactCheck& out)
{
    Probe p = probe(a.url, o.downloader, true);
    // Some servers and signed-URL stores refuse HEAD (405, 501, or 403 for a signature
    // made for GET): ask for the first byte instead.
    const bool headRefused =
        p.error.empty() && (p.status == 405 || p.status == 501 || p.status == 403);
    if (headRefused)
        p = probe(a.url, o.downloader, false);
    if (!p.error.empty()) {
        out.verdict = CheckVerdict::Failed;
        out.detail = p.error;
        return;
    }
    if (p.status < 200 || p.status > 299) {
        out.verdict = CheckVerdict::Failed;
        out.detail = "HTTP " + std::to_string(p.status);
        return;
    }
    out.detail = "HTTP " + std::to_string(p.status);
    if (!headRefused && p.length >= 0 && a.size &&
        static_cast<std::uint64_t>(p.length) != *a.size) {
        out.verdict = CheckVerdict::Failed;
        out.detail += ", the server declares " + std::to_string(p.length) +
                      " bytes, the catalog says " + std::to_string(*a.size);
        return;
    }
    if (!headRefused && p.length >= 0)
        out.detail += ", " + std::to_string(p.length) + " bytes";
    out.verdict = a.sha256 ? CheckVerdict::Ok : CheckVerdict::Unchecked;
    if (!a.sha256)
        out.detail += "; not pinned (no sha256 in the catalog)";
}

// Downloads the artifact (a temporary cache, one try) and lets the downloader compare
// size and SHA-256 exactly as an install would.
void checkDeep(const Artifact& a, const ArtifactCheckOptions& o, ArtifactCheck& out)
{
    QTemporaryDir tmp;
    if (!tmp.isValid()) {
        out.verdict = CheckVerdict::Failed;
        out.detail = "no temporary folder: " + tmp.errorString().toStdString();
        return;
    }
    DownloaderOptions d = o.downloader;
    d.cacheDir = paths::fromUtf8(tmp.path().toStdString());
    d.maxTriesPerUrl = 1;
    DownloadRequest rq;
    rq.urls = {a.url};
    rq.sha256 = a.sha256;
    rq.size = a.size;
    DiscardSink sink;
    auto r = Downloader(d).fetch(rq, sink);
    if (!r) {
        out.verdict = CheckVerdict::Failed;
        out.detail = r.error().message;
        return;
    }
    out.detail = std::to_string(r->size) + " bytes, sha256 " + r->sha256;
    out.verdict = a.sha256 ? CheckVerdict::Ok : CheckVerdict::Unchecked;
    if (!a.sha256)
        out.detail += "; not pinned (no sha256 in the catalog)";
    else
        out.detail += " as the catalog says";
}

} // namespace

const char* toString(CheckVerdict v)
{
    switch (v) {
    case CheckVerdict::Ok:
        return "ok";
    case CheckVerdict::Failed:
        return "FAILED";
    case CheckVerdict::Unchecked:
        return "unchecked";
    }
    return "FAILED";
}

std::string ArtifactCheck::line() const
{
    std::string v = toString(verdict);
    v.resize(10, ' ');
    return v + runtime + " " + url + ": " + detail;
}

ArtifactCheck checkArtifact(const std::string& runtime, const Artifact& artifact,
                            const ArtifactCheckOptions& options)
{
    if (artifact.isGit())
        return checkGitArtifact(runtime, artifact, options);
    ArtifactCheck out;
    out.runtime = runtime;
    out.url = artifact.url;
    if (options.deep)
        checkDeep(artifact, options, out);
    else
        checkShallow(artifact, options, out);
    return out;
}

} // namespace sp
