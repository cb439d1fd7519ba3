// One HTTP PUT of a small JSON body with libcurl: what a WebDAV server (nginx's dav_methods
// PUT) or an S3-compatible presigned URL accepts. Proxies come from the environment as for
// every download (libcurl reads https_proxy); certificates are verified.
#include "core/expected.h"

#include <cstring>
#include <curl/curl.h>
#include <string>

namespace sp::ledger {

namespace {

struct Body
{
    const std::string* text;
    std::size_t at = 0;
};

std::size_t readBody(char* buffer, std::size_t size, std::size_t count, void* user)
{
    auto* body = static_cast<Body*>(user);
    const std::size_t n = std::min(size * count, body->text->size() - body->at);
    std::memcpy(buffer, body->text->data() + body->at, n);
    body->at += n;
    return n;
}

std::size_t ignoreReply(char*, std::size_t size, std::size_t count, void*)
{
    return size * count;
}

} // namespace

Expected<long> putJson(const std::string& url, const std::string& body)
{
    CURL* curl = curl_easy_init();
    if (!curl)
        return Error::runtime("libcurl could not start");
    Body in{&body};
    curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, readBody);
    curl_easy_setopt(curl, CURLOPT_READDATA, &in);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, ignoreReply);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    // A redirect could carry the record to a host the user never agreed to.
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    const CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    if (rc != CURLE_OK)
        return Error::runtime(std::string("cannot reach the ledger: ") + curl_easy_strerror(rc));
    return status;
}

} // namespace sp::ledger
