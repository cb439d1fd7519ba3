#include "installers/curl_transfer.h"

#include "core/catalog/feed/feed_list.h"
#include "core/paths.h"

#include <QString>
#include <QUrl>
#include <algorithm>
#include <cctype>
#include <cstdio>

#ifndef CURL_WRITEFUNC_ERROR // before 7.87 any count other than the one passed aborts
#define CURL_WRITEFUNC_ERROR 0xFFFFFFFF
#endif

namespace sp::transfer {

namespace {

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

// No answer, or a broken one, from the server or the proxy on the way.
bool isNetworkError(CURLcode c)
{
    switch (c) {
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
#if LIBCURL_VERSION_NUM >= 0x074900 // 7.73: CURLE_PROXY (a proxy handshake failed)
    case CURLE_PROXY:
#endif
        return true;
    default:
        return false;
    }
}

// An HTTP error status: 404 and 410 say the file is gone; a proxy asking for a password
// (407), a server busy or failing (5xx, 408, 429) are the way there, as a dropped
// connection is; any other status (401, 403, ...) is the server's rule, named by the
// message only.
Cause causeOfStatus(long code)
{
    if (code == 404 || code == 410)
        return Cause::NotFound;
    if (code >= 500 || code == 407 || code == 408 || code == 429)
        return Cause::Network;
    return Cause::Unknown;
}

// The URL's host, lower-case ("" when it has none), by Qt's parser: the window loads
// libcurl lazily (app/gui/lazy_curl.cpp) and has no curl_url.
std::string hostOf(const std::string& url)
{
    return QUrl(QString::fromStdString(url)).host().toLower().toStdString();
}

// http(s)://127.x.y.z, [::1] or localhost (the feed's loopback rule, feed_list.h).
bool isLoopbackUrl(const std::string& url)
{
    const auto scheme = url.find("://");
    return scheme != std::string::npos && feed::isLoopbackHttp("http://" + url.substr(scheme + 3));
}

} // namespace

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
                                   " bytes, the catalog says " + std::to_string(*want))
                        .withCause(Cause::Size);
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
                                      std::to_string(*s.expectedSize) + " bytes")
                           .withCause(Cause::Size);
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
    auto* a = static_cast<Attempt*>(self);
    // curl calls this about once a second even when nothing arrives: the bytes that came
    // in a burst faster than the reporter's 100 ms are said now, not after the stall.
    a->m_reporter.report(a->m_url, false);
    return a->m_cancel.cancelled() ? 1 : 0;
}

namespace {
int cancelledNow(void* cancel, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    return static_cast<const CancelToken*>(cancel)->cancelled() ? 1 : 0;
}
} // namespace

void abortWhenCancelled(CURL* curl, const CancelToken& cancel)
{
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &cancelledNow);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &cancel);
}

void setTransportOptions(CURL* curl, const DownloaderOptions& o, bool pinned, char* errbuf,
                         const std::string& ua, const std::string& ca)
{
    curl_easy_setopt(curl, CURLOPT_USERAGENT, ua.c_str());
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 10L);
    // An unpinned artifact only ever travels over TLS, redirects included; so does every
    // file of a feed, whose plain http is allowed to this machine only (feed_list.h).
    const bool plainRedirects = pinned && !o.feedTransport;
#if LIBCURL_VERSION_NUM >= 0x075500 // 7.85: the string form; the bitmask is deprecated
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, plainRedirects ? "http,https" : "https");
#else // Ubuntu 22.04 ships 7.81
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl_easy_setopt(
        curl, CURLOPT_REDIR_PROTOCOLS,
        static_cast<long>(plainRedirects ? CURLPROTO_HTTP | CURLPROTO_HTTPS : CURLPROTO_HTTPS));
#endif
#ifdef _WIN32
    curl_easy_setopt(curl, CURLOPT_SSL_OPTIONS, static_cast<long>(CURLSSLOPT_NATIVE_CA));
#endif
    if (!ca.empty())
        curl_easy_setopt(curl, CURLOPT_CAINFO, ca.c_str());
    if (o.proxy && !o.proxy->empty())
        curl_easy_setopt(curl, CURLOPT_PROXY, o.proxy->c_str());
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, static_cast<long>(o.connectTimeout.count()));
}

void Attempt::configure(const DownloaderOptions& o, bool pinned, char* errbuf,
                        const std::string& ua, const std::string& range, const std::string& ca)
{
    curl_easy_setopt(m_curl, CURLOPT_URL, m_url.c_str());
    setTransportOptions(m_curl, o, pinned, errbuf, ua, ca);
    // A proxy's "127.0.0.1" is the proxy's own machine, and a feed's plain http must not
    // leave this one: a feed on a loopback address is fetched directly.
    m_feedTransport = o.feedTransport;
    if (o.feedTransport && isLoopbackUrl(m_url))
        curl_easy_setopt(m_curl, CURLOPT_NOPROXY, "*");
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
    if (o.bearer && !o.bearer->token.empty() && hostOf(m_url) == lower(o.bearer->host)) {
        const std::string header = "Authorization: Bearer " + o.bearer->token;
        m_headers = curl_slist_append(nullptr, header.c_str());
        curl_easy_setopt(m_curl, CURLOPT_HTTPHEADER, m_headers);
    }
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
    const std::string ca = paths::toUtf8(o.caFile);
    configure(o, pinned, errbuf, ua, range, ca);

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
    curl_slist_free_all(std::exchange(m_headers, nullptr));
    return classify(rc, code, errbuf, pinned, reason);
}

Outcome Attempt::classify(CURLcode rc, long code, const char* errbuf, bool pinned,
                          std::string& reason)
{
    if (m_cancel.cancelled() || (m_failure && m_failure->code == ErrorCode::Cancelled)) {
        reason = "cancelled";
        m_cause = Cause::Cancelled;
        return Outcome::Cancelled;
    }
    if (m_failure) {
        reason = m_failure->message;
        m_cause = m_failure->cause;
        return m_fatal ? Outcome::Fatal : Outcome::Retry;
    }
    const std::string detail = errbuf[0] ? errbuf : curl_easy_strerror(rc);
    const auto& want = m_stream.expectedSize;
    if (rc == CURLE_OK) {
        if (want && m_stream.offset < *want) {
            reason = "the transfer ended after " + std::to_string(m_stream.offset) + " of " +
                     std::to_string(*want) + " bytes";
            // All the server declared came: its file is shorter than the catalog's, unless
            // a resume brings the rest. Otherwise the connection ended early.
            m_cause =
                m_stream.total && m_stream.offset == *m_stream.total ? Cause::Size : Cause::Network;
            return Outcome::Retry;
        }
        return Outcome::Complete;
    }
    if (rc == CURLE_HTTP_RETURNED_ERROR) {
        reason = "HTTP " + std::to_string(code);
        m_cause = causeOfStatus(code);
        if (code == 416 && m_stream.offset > 0) {
            // Everything was already here (a drop right at the end), or the resource
            // shrank: verify, or start over.
            if (!want || m_stream.offset == *want)
                return Outcome::Complete;
            m_cause = Cause::Size; // the server has less than the catalog's size
            if (auto r = m_stream.startOver(); !r) {
                reason = r.error().message;
                m_cause = r.error().cause;
                return Outcome::Fatal;
            }
            return Outcome::Retry;
        }
        return code >= 500 || code == 408 || code == 429 ? Outcome::Retry : Outcome::NextUrl;
    }
    // A redirect from https to plain http is refused for the same reason as a bad
    // certificate: the bytes could come from anyone.
    if (rc == CURLE_UNSUPPORTED_PROTOCOL && m_feedTransport) {
        reason = "redirect to plain http refused (a feed's files travel over https): " + detail;
        m_cause = Cause::Tls;
        return Outcome::NextUrl;
    }
    if (rc == CURLE_UNSUPPORTED_PROTOCOL && !pinned) {
        reason = "redirect to plain http refused (the artifact has no pinned sha256): " + detail;
        m_cause = Cause::Tls;
        return Outcome::NextUrl;
    }
    if (isTlsError(rc)) {
        reason = "TLS verification failed: " + detail;
        m_cause = Cause::Tls;
        return Outcome::NextUrl;
    }
    if (rc == CURLE_TOO_MANY_REDIRECTS || rc == CURLE_UNSUPPORTED_PROTOCOL ||
        rc == CURLE_URL_MALFORMAT) {
        reason = detail;
        m_cause = Cause::Unknown;
        return Outcome::NextUrl;
    }
    reason = rc == CURLE_OPERATION_TIMEDOUT ? "stalled: " + detail : detail;
    m_cause = isNetworkError(rc) ? Cause::Network : Cause::Unknown;
    return Outcome::Retry;
}

} // namespace sp::transfer
