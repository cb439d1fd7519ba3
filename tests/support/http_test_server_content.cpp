// What the test server serves (blobs, files, a folder, redirects), the faults it
// injects and the statistics it keeps; http_test_server.cpp does the serving.

#include "http_test_server_impl.h"

#include <cstdio>
#include <functional>

namespace sp::test {

void HttpTestServer::addBlob(const std::string& path, std::string bytes)
{
    std::lock_guard lock(d->mutex);
    Impl::Entry e;
    e.blob = std::make_shared<const std::string>(std::move(bytes));
    d->entries[path] = std::move(e);
}

void HttpTestServer::addCachedBlob(const std::string& path, std::string bytes,
                                   const std::string& contentType)
{
    std::lock_guard lock(d->mutex);
    Impl::Entry e;
    char tag[32];
    std::snprintf(tag, sizeof tag, "\"%zx\"", std::hash<std::string>{}(bytes));
    e.etag = tag;
    e.contentType = contentType;
    e.blob = std::make_shared<const std::string>(std::move(bytes));
    d->entries[path] = std::move(e);
}

void HttpTestServer::addFile(const std::string& path, const std::filesystem::path& file)
{
    std::lock_guard lock(d->mutex);
    Impl::Entry e;
    e.file = file;
    d->entries[path] = std::move(e);
}

void HttpTestServer::serveDirectory(const std::filesystem::path& root)
{
    std::lock_guard lock(d->mutex);
    d->root = root;
}

void HttpTestServer::addRedirect(const std::string& from, const std::string& to, int status)
{
    std::lock_guard lock(d->mutex);
    Impl::Entry e;
    e.redirectTo = to;
    e.redirectStatus = status;
    d->entries[from] = std::move(e);
}

void HttpTestServer::setFault(const std::string& path, const Fault& fault)
{
    std::lock_guard lock(d->mutex);
    d->faults[path] = fault;
}

void HttpTestServer::clearFaults()
{
    std::lock_guard lock(d->mutex);
    d->faults.clear();
}

PathStats HttpTestServer::stats(const std::string& path) const
{
    std::lock_guard lock(d->mutex);
    auto it = d->stats.find(path);
    return it == d->stats.end() ? PathStats{} : it->second;
}

int HttpTestServer::totalRequests() const
{
    std::lock_guard lock(d->mutex);
    return d->total;
}

void HttpTestServer::resetStats()
{
    std::lock_guard lock(d->mutex);
    d->stats.clear();
    d->total = 0;
}

} // namespace sp::test
