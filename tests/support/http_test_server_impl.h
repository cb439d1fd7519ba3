#pragma once
// The test server's state, shared by http_test_server.cpp (sockets, TLS and HTTP) and
// http_test_server_content.cpp (what it serves, its faults and statistics).

#include "http_message.h"
#include "http_test_server.h"

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <openssl/ssl.h>
#include <optional>
#include <string>
#include <thread>

namespace sp::test {

struct HttpTestServer::Impl
{
    struct Entry
    {
        std::shared_ptr<const std::string> blob;
        std::filesystem::path file;
        std::string redirectTo;
        int redirectStatus = 0;
        std::string contentType = "application/octet-stream";
        std::string etag; // empty: no caching headers
    };
    struct Connection
    {
        int fd = -1;
        std::thread thread;
        std::atomic<bool> done{false};
    };

    mutable std::mutex mutex;
    std::map<std::string, Entry> entries;
    std::optional<std::filesystem::path> root;
    std::map<std::string, Fault> faults;
    std::map<std::string, PathStats> stats;
    int total = 0;
    std::string error;

    int listenFd = -1;
    std::uint16_t port = 0;
    std::thread acceptThread;
    std::atomic<bool> stopping{false};
    std::mutex stopMutex; // for the stall wait
    std::condition_variable stopCv;
    std::mutex connMutex;
    std::list<Connection> connections;
    SSL_CTX* tls = nullptr;

    struct Found
    {
        Entry entry;
        bool found = false;
        std::optional<Fault> fault;
    };

    void acceptLoop();
    void serve(int fd);
    // The entry for `path` and the fault to apply, counting the request.
    // A HEAD request sends no body: only a status fault applies to it (and is used up);
    // a body fault (stall, drop, corrupt, ...) is kept for the GET that follows.
    Found lookup(const std::string& path, const std::map<std::string, std::string>& headers,
                 bool head);
    // False: close the connection.
    bool handle(int fd, const http::RequestHead& request);
    bool sendAll(int fd, const char* data, std::size_t size);
    std::uint64_t sendBody(int fd, const Entry& e, std::uint64_t start, std::uint64_t len,
                           const std::optional<Fault>& fault);
    void addBytes(const std::string& path, std::uint64_t n)
    {
        std::lock_guard lock(mutex);
        stats[path].bodyBytes += n;
    }
};

} // namespace sp::test
