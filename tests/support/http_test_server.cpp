#include "http_test_server.h"

#include "text_util.h"

#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <list>
#include <mutex>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace sp::test {

namespace {

// The TLS session of the connection this thread serves (null for plain HTTP).
thread_local SSL* t_ssl = nullptr;

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string{} : s.substr(b, e - b + 1);
}

const char* reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 206:
        return "Partial Content";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 404:
        return "Not Found";
    case 416:
        return "Range Not Satisfiable";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "Status";
    }
}

} // namespace

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

    void acceptLoop();
    void serve(int fd);
    // False: close the connection.
    bool handle(int fd, const std::string& method, const std::string& target,
                const std::map<std::string, std::string>& headers, bool keepAlive);
    bool sendAll(int fd, const char* data, std::size_t size);
    std::uint64_t sendBody(int fd, const Entry& e, std::uint64_t start, std::uint64_t len,
                           const std::optional<Fault>& fault);
    void addBytes(const std::string& path, std::uint64_t n)
    {
        std::lock_guard lock(mutex);
        stats[path].bodyBytes += n;
    }
};

HttpTestServer::HttpTestServer() : d(std::make_unique<Impl>()) {}

HttpTestServer::~HttpTestServer()
{
    stop();
    if (d->tls)
        SSL_CTX_free(d->tls);
}

bool HttpTestServer::enableTls(const std::filesystem::path& certPem,
                               const std::filesystem::path& keyPem)
{
    SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx || SSL_CTX_use_certificate_chain_file(ctx, certPem.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx, keyPem.c_str(), SSL_FILETYPE_PEM) != 1) {
        char buf[256];
        ERR_error_string_n(ERR_get_error(), buf, sizeof buf);
        d->error = std::string("TLS: ") + buf;
        SSL_CTX_free(ctx);
        return false;
    }
    d->tls = ctx;
    return true;
}

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

bool HttpTestServer::start(std::uint16_t port)
{
    // A client that hangs up mid-body must not kill the test process.
    std::signal(SIGPIPE, SIG_IGN);
    d->listenFd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (d->listenFd < 0) {
        d->error = std::string("socket: ") + std::strerror(errno);
        return false;
    }
    int one = 1;
    ::setsockopt(d->listenFd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(port);
    if (::bind(d->listenFd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(d->listenFd, 128) != 0) {
        d->error = std::string("bind/listen: ") + std::strerror(errno);
        ::close(d->listenFd);
        d->listenFd = -1;
        return false;
    }
    socklen_t len = sizeof addr;
    ::getsockname(d->listenFd, reinterpret_cast<sockaddr*>(&addr), &len);
    d->port = ntohs(addr.sin_port);
    d->stopping = false;
    d->acceptThread = std::thread([this] { d->acceptLoop(); });
    return true;
}

void HttpTestServer::stop()
{
    if (d->listenFd < 0)
        return;
    {
        std::lock_guard lock(d->stopMutex);
        d->stopping = true;
    }
    d->stopCv.notify_all();
    if (d->acceptThread.joinable())
        d->acceptThread.join();
    ::close(d->listenFd);
    d->listenFd = -1;
    std::lock_guard lock(d->connMutex);
    for (auto& c : d->connections)
        ::shutdown(c.fd, SHUT_RDWR);
    for (auto& c : d->connections) {
        if (c.thread.joinable())
            c.thread.join();
        ::close(c.fd);
    }
    d->connections.clear();
}

std::uint16_t HttpTestServer::port() const
{
    return d->port;
}

std::string HttpTestServer::url(const std::string& path) const
{
    return (d->tls ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(d->port) + path;
}

std::string HttpTestServer::error() const
{
    return d->error;
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

void HttpTestServer::Impl::acceptLoop()
{
    while (!stopping) {
        pollfd p{listenFd, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0)
            continue;
        const int fd = ::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        std::lock_guard lock(connMutex);
        // Reap finished connections so a long benchmark does not pile up threads.
        for (auto it = connections.begin(); it != connections.end();) {
            if (it->done) {
                it->thread.join();
                ::close(it->fd);
                it = connections.erase(it);
            } else {
                ++it;
            }
        }
        auto& c = connections.emplace_back();
        c.fd = fd;
        c.thread = std::thread([this, &c] {
            if (tls) {
                t_ssl = SSL_new(tls);
                SSL_set_fd(t_ssl, c.fd);
                if (SSL_accept(t_ssl) == 1)
                    serve(c.fd);
                SSL_free(t_ssl);
                t_ssl = nullptr;
            } else {
                serve(c.fd);
            }
            ::shutdown(c.fd, SHUT_RDWR);
            c.done = true;
        });
    }
}

void HttpTestServer::Impl::serve(int fd)
{
    std::string buf;
    char chunk[8192];
    while (!stopping) {
        std::size_t end;
        while ((end = buf.find("\r\n\r\n")) == std::string::npos) {
            if (buf.size() > 65536)
                return;
            const ssize_t n =
                t_ssl ? SSL_read(t_ssl, chunk, sizeof chunk) : ::recv(fd, chunk, sizeof chunk, 0);
            if (n <= 0)
                return;
            buf.append(chunk, static_cast<std::size_t>(n));
            // Like any plain HTTP server, answer a TLS ClientHello (or other noise)
            // with 400 at once instead of waiting for a header block.
            if (!std::isupper(static_cast<unsigned char>(buf[0]))) {
                static const std::string bad = "HTTP/1.1 400 Bad Request\r\nContent-Length: "
                                               "0\r\nConnection: close\r\n\r\n";
                sendAll(fd, bad.data(), bad.size());
                return;
            }
        }
        const std::string head = buf.substr(0, end);
        buf.erase(0, end + 4);
        const auto lines = split(head, '\n');
        const auto requestLine = split(trim(lines[0]), ' ');
        if (requestLine.size() != 3)
            return;
        std::map<std::string, std::string> headers;
        for (std::size_t i = 1; i < lines.size(); ++i) {
            const auto colon = lines[i].find(':');
            if (colon != std::string::npos)
                headers[lower(trim(lines[i].substr(0, colon)))] = trim(lines[i].substr(colon + 1));
        }
        bool keepAlive = requestLine[2] == "HTTP/1.1";
        if (auto it = headers.find("connection"); it != headers.end())
            keepAlive = lower(it->second) != "close";
        if (!handle(fd, requestLine[0], requestLine[1], headers, keepAlive) || !keepAlive)
            return;
    }
}

bool HttpTestServer::Impl::sendAll(int fd, const char* data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n =
            t_ssl ? SSL_write(t_ssl, data, static_cast<int>(std::min<std::size_t>(size, 1 << 20)))
                  : ::send(fd, data, size, MSG_NOSIGNAL);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

bool HttpTestServer::Impl::handle(int fd, const std::string& method, const std::string& target,
                                  const std::map<std::string, std::string>& headers, bool keepAlive)
{
    const std::string path = target.substr(0, target.find('?'));
    const auto header = [&](const char* name) {
        auto it = headers.find(name);
        return it == headers.end() ? std::string{} : it->second;
    };
    const std::string range = header("range");
    const bool head = method == "HEAD";

    Entry entry;
    bool found = false;
    std::optional<Fault> fault;
    {
        std::lock_guard lock(mutex);
        ++total;
        auto& st = stats[path];
        ++st.requests;
        if (!range.empty())
            ++st.rangeRequests;
        st.ranges.push_back(range);
        st.userAgents.push_back(header("user-agent"));
        if (auto it = entries.find(path); it != entries.end()) {
            entry = it->second;
            found = true;
        } else if (root && path.find("..") == std::string::npos) {
            const auto file = *root / std::filesystem::path(path).relative_path();
            std::error_code ec;
            if (std::filesystem::is_regular_file(file, ec)) {
                entry.file = file;
                found = true;
            }
        }
        if (auto it = faults.find(path); it != faults.end() && it->second.times != 0) {
            fault = it->second;
            if (it->second.times > 0)
                --it->second.times;
        }
    }
    const std::string conn = keepAlive ? "keep-alive" : "close";

    if (fault && fault->kind == Fault::Kind::Status) {
        const std::string resp = "HTTP/1.1 " + std::to_string(fault->status) + " " +
                                 reason(fault->status) +
                                 "\r\nContent-Length: 0\r\nConnection: " + conn + "\r\n\r\n";
        return sendAll(fd, resp.data(), resp.size());
    }
    if (found && entry.redirectStatus) {
        const std::string resp = "HTTP/1.1 " + std::to_string(entry.redirectStatus) + " " +
                                 reason(entry.redirectStatus) +
                                 "\r\nLocation: " + entry.redirectTo +
                                 "\r\nContent-Length: 0\r\nConnection: " + conn + "\r\n\r\n";
        return sendAll(fd, resp.data(), resp.size());
    }
    std::uint64_t size = 0;
    if (found && entry.blob) {
        size = entry.blob->size();
    } else if (found) {
        std::error_code ec;
        size = std::filesystem::file_size(entry.file, ec);
        found = !ec;
    }
    if (!found) {
        const std::string body = "not found: " + path + "\n";
        const std::string resp =
            "HTTP/1.1 404 Not Found\r\nContent-Length: " + std::to_string(body.size()) +
            "\r\nConnection: " + conn + "\r\n\r\n" + (head ? std::string{} : body);
        return sendAll(fd, resp.data(), resp.size());
    }

    if (!entry.etag.empty() && header("if-none-match").find(entry.etag) != std::string::npos) {
        {
            std::lock_guard lock(mutex);
            ++stats[path].notModified;
        }
        const std::string resp = "HTTP/1.1 304 Not Modified\r\nETag: " + entry.etag +
                                 "\r\nCache-Control: max-age=600, public\r\nContent-Length: "
                                 "0\r\nConnection: " +
                                 conn + "\r\n\r\n";
        return sendAll(fd, resp.data(), resp.size());
    }

    // One range "bytes=A-", "bytes=A-B" or "bytes=-N"; anything else is ignored.
    std::uint64_t start = 0, len = size;
    bool partial = false;
    const bool ignoreRange = fault && fault->kind == Fault::Kind::IgnoreRange;
    if (!range.empty() && !ignoreRange && range.rfind("bytes=", 0) == 0 &&
        range.find(',') == std::string::npos) {
        const std::string spec = range.substr(6);
        const auto dash = spec.find('-');
        const auto a = toNumber(spec.substr(0, dash));
        const auto b = dash == std::string::npos ? std::nullopt : toNumber(spec.substr(dash + 1));
        if (dash != std::string::npos && (a || b)) {
            std::uint64_t first = 0, last = size ? size - 1 : 0;
            if (a) {
                first = static_cast<std::uint64_t>(*a);
                if (b)
                    last = std::min<std::uint64_t>(static_cast<std::uint64_t>(*b), last);
            } else {
                first = size - std::min<std::uint64_t>(static_cast<std::uint64_t>(*b), size);
            }
            if (first >= size || (a && b && static_cast<std::uint64_t>(*b) < first)) {
                const std::string resp = "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: "
                                         "bytes */" +
                                         std::to_string(size) +
                                         "\r\nContent-Length: 0\r\nConnection: " + conn +
                                         "\r\n\r\n";
                return sendAll(fd, resp.data(), resp.size());
            }
            start = first;
            len = last - first + 1;
            partial = true;
        }
    }
    std::uint64_t declared = len;
    bool closeAfter = !keepAlive;
    if (fault && fault->kind == Fault::Kind::WrongLength) {
        declared = static_cast<std::uint64_t>(
            std::max<std::int64_t>(0, static_cast<std::int64_t>(len) + fault->delta));
        closeAfter = true;
    }
    const bool noLength = fault && fault->kind == Fault::Kind::NoLength;
    if (noLength)
        closeAfter = true;
    std::string resp = std::string("HTTP/1.1 ") + (partial ? "206 Partial Content" : "200 OK") +
                       "\r\nContent-Type: " + entry.contentType + "\r\nAccept-Ranges: bytes";
    if (!entry.etag.empty())
        resp += "\r\nETag: " + entry.etag + "\r\nCache-Control: max-age=600, public";
    if (!noLength)
        resp += "\r\nContent-Length: " + std::to_string(declared);
    if (partial)
        resp += "\r\nContent-Range: bytes " + std::to_string(start) + "-" +
                std::to_string(start + len - 1) + "/" + std::to_string(size);
    resp += "\r\nConnection: " + std::string(closeAfter ? "close" : "keep-alive") + "\r\n\r\n";
    if (!sendAll(fd, resp.data(), resp.size()))
        return false;
    if (head)
        return !closeAfter;

    const std::uint64_t sent = sendBody(fd, entry, start, len, fault);
    addBytes(path, sent);
    if (fault && fault->kind == Fault::Kind::Stall && sent < len) {
        std::unique_lock lock(stopMutex);
        stopCv.wait_for(lock, fault->stall, [this] { return stopping.load(); });
        return false;
    }
    if (fault && fault->kind == Fault::Kind::DropAfter)
        return false;
    return sent == len && !closeAfter;
}

std::uint64_t HttpTestServer::Impl::sendBody(int fd, const Entry& e, std::uint64_t start,
                                             std::uint64_t len, const std::optional<Fault>& fault)
{
    std::uint64_t limit = len;
    if (fault && (fault->kind == Fault::Kind::DropAfter || fault->kind == Fault::Kind::Stall))
        limit = std::min(limit, fault->bytes);
    const bool corrupt = fault && fault->kind == Fault::Kind::Corrupt;
    std::uint64_t sent = 0;

    if (e.blob) {
        constexpr std::uint64_t step = 1 << 20;
        std::string tmp;
        while (sent < limit) {
            const std::uint64_t n = std::min(step, limit - sent);
            const char* p = e.blob->data() + start + sent;
            const std::uint64_t at = start + sent;
            if (corrupt && fault->offset >= at && fault->offset < at + n) {
                tmp.assign(p, n);
                tmp[fault->offset - at] = static_cast<char>(tmp[fault->offset - at] ^ 0x5a);
                p = tmp.data();
            }
            if (!sendAll(fd, p, n))
                return sent;
            sent += n;
        }
        return sent;
    }

    const int file = ::open(e.file.c_str(), O_RDONLY | O_CLOEXEC);
    if (file < 0)
        return 0;
    if (!corrupt && !t_ssl) {
        off_t off = static_cast<off_t>(start);
        while (sent < limit) {
            const ssize_t n =
                ::sendfile(fd, file, &off, std::min<std::uint64_t>(limit - sent, 1 << 30));
            if (n <= 0) {
                if (n < 0 && (errno == EINTR || errno == EAGAIN))
                    continue;
                break;
            }
            sent += static_cast<std::uint64_t>(n);
        }
    } else {
        std::vector<char> tmp(1 << 20);
        while (sent < limit) {
            const std::uint64_t at = start + sent;
            const ssize_t n =
                ::pread(file, tmp.data(), std::min<std::uint64_t>(tmp.size(), limit - sent),
                        static_cast<off_t>(at));
            if (n <= 0)
                break;
            const auto un = static_cast<std::uint64_t>(n);
            if (fault->offset >= at && fault->offset < at + un)
                tmp[fault->offset - at] = static_cast<char>(tmp[fault->offset - at] ^ 0x5a);
            if (!sendAll(fd, tmp.data(), un))
                break;
            sent += un;
        }
    }
    ::close(file);
    return sent;
}

} // namespace sp::test
