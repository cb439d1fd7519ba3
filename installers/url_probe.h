#pragma once
// Is the file at this URL there, and how big is it? One HEAD request (a ranged GET of
// one byte where a server refuses HEAD), with the downloader's transport rules:
// proxy, TLS store, redirects, plain http only for a pinned artifact. Nothing is
// written anywhere; the preflight of an install and `catalog check` ask this.

#include "core/cancel_token.h"
#include "installers/downloader.h"

#include <cstdint>
#include <optional>
#include <string>

namespace sp {

enum class UrlState
{
    Present, // the server answered 2xx
    Missing, // 404 or 410, or the host does not resolve: the artifact is gone
    Unknown  // anything else (5xx, a timeout, TLS): maybe there, maybe not
};
const char* toString(UrlState s); // "present" | "missing" | "unknown"

struct UrlProbe
{
    UrlState state = UrlState::Unknown;
    long httpStatus = 0;               // 0 when no response came
    std::optional<std::uint64_t> size; // Content-Length (or the Content-Range total)
    std::string reason;                // in words, for the user ("HTTP 404")
    bool unresolved = false;           // the host name did not resolve
};

// A cancel (Cancel pressed while the preflight waits on a silent server) ends the request
// at once; the answer is then Unknown with the reason "cancelled".
UrlProbe probeUrl(const std::string& url, const DownloaderOptions& options, bool pinned,
                  const CancelToken& cancel = {});

} // namespace sp
