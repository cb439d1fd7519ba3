#include "installers/url_probe.h"

#include "core/paths.h"
#include "core/strings.h"
#include "installers/curl_transfer.h"

#include <curl/curl.h>

namespace sp {

namespace {

// Servers that refuse HEAD (object stores behind some CDNs, GitHub's release redirects
// on a bad day) answer one of these; a ranged GET of one byte asks the same question.
bool headRefused(long code)
{
    return code == 403 || code == 405 || code == 501;
}

size_t discardBody(char*, size_t size, size_t n, void*)
{
    return size * n;
}

// "Content-Range: bytes 0-0/12345" gives the total size of a ranged answer.
size_t onRangeHeader(char* p, size_t size, size_t n, void* out)
{
    const std::string line(p, size * n);
    const std::string low = lower(line);
    if (low.rfind("content-range:", 0) == 0) {
        const auto slash = line.rfind('/');
        if (slash != std::string::npos) {
            try {
                *static_cast<std::optional<std::uint64_t>*>(out) =
                    std::stoull(line.substr(slash + 1));
            } catch (const std::exception&) { // "*" or garbage: size unknown
            }
        }
    }
    return size * n;
}

UrlProbe askServer(const std::string& url, const DownloaderOptions& o, bool pinned, bool ranged,
                   const CancelToken& cancel)
{
    UrlProbe r;
    CURL* curl = curl_easy_init();
    if (!curl) {
        r.reason = "cannot create a curl handle";
        return r;
    }
    char errbuf[CURL_ERROR_SIZE] = {};
    const std::string ua = Downloader::userAgent();
    const std::string ca = paths::toUtf8(o.caFile);
    std::optional<std::uint64_t> rangeTotal;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    transfer::setTransportOptions(curl, o, pinned, errbuf, ua, ca);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, static_cast<long>(o.connectTimeout.count()));
    transfer::abortWhenCancelled(curl, cancel);
    if (ranged) {
        curl_easy_setopt(curl, CURLOPT_RANGE, "0-0");
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &discardBody);
        curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &onRangeHeader);
        curl_easy_setopt(curl, CURLOPT_HEADERDATA, &rangeTotal);
    } else {
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    }
    const CURLcode rc = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r.httpStatus);
    curl_off_t length = -1;
    curl_easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    curl_easy_cleanup(curl);
    if (rc == CURLE_OK) {
        r.state = UrlState::Present;
        r.size = ranged ? rangeTotal
                        : (length >= 0 ? std::optional<std::uint64_t>(std::uint64_t(length))
                                       : std::nullopt);
        return r;
    }
    const std::string detail = errbuf[0] ? errbuf : curl_easy_strerror(rc);
    if (rc == CURLE_ABORTED_BY_CALLBACK) {
        r.reason = "cancelled";
    } else if (rc == CURLE_HTTP_RETURNED_ERROR) {
        r.reason = "HTTP " + std::to_string(r.httpStatus);
        r.state =
            r.httpStatus == 404 || r.httpStatus == 410 ? UrlState::Missing : UrlState::Unknown;
    } else if (rc == CURLE_COULDNT_RESOLVE_HOST) {
        r.reason = "the host does not resolve: " + detail;
        r.state = UrlState::Missing;
        r.unresolved = true;
    } else {
        r.reason = detail;
    }
    return r;
}

} // namespace

const char* toString(UrlState s)
{
    switch (s) {
    case UrlState::Present:
        return "present";
    case UrlState::Missing:
        return "missing";
    case UrlState::Unknown:
        break;
    }
    return "unknown";
}

UrlProbe probeUrl(const std::string& url, const DownloaderOptions& options, bool pinned,
                  const CancelToken& cancel)
{
    UrlProbe r = askServer(url, options, pinned, false, cancel);
    if (r.state != UrlState::Present && headRefused(r.httpStatus) && !cancel.cancelled())
        r = askServer(url, options, pinned, true, cancel);
    return r;
}

} // namespace sp
