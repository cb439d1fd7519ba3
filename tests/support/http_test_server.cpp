#include "http_test_server.h"

#include "http_message.h"
#include "http_test_server_impl.h"

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

} // namespace

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
        const auto request = http::parseRequestHead(head);
        if (!request || !handle(fd, *request) || !request->keepAlive)
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

HttpTestServer::Impl::Found
HttpTestServer::Impl::lookup(const std::string& path,
                             const std::map<std::string, std::string>& headers, bool head)
{
    const auto header = [&](const char* name) {
        auto it = headers.find(name);
        return it == headers.end() ? std::string{} : it->second;
    };
    Found f;
    std::lock_guard lock(mutex);
    ++total;
    auto& st = stats[path];
    ++st.requests;
    if (!header("range").empty())
        ++st.rangeRequests;
    st.ranges.push_back(header("range"));
    st.userAgents.push_back(header("user-agent"));
    st.authorizations.push_back(header("authorization"));
    if (auto it = entries.find(path); it != entries.end()) {
        f.entry = it->second;
        f.found = true;
    } else if (root && path.find("..") == std::string::npos) {
        const auto file = *root / std::filesystem::path(path).relative_path();
        std::error_code ec;
        if (std::filesystem::is_regular_file(file, ec)) {
            f.entry.file = file;
            f.found = true;
        }
    }
    if (auto it = faults.find(path); it != faults.end() && it->second.times != 0 &&
                                     (!head || it->second.kind == Fault::Kind::Status ||
                                      it->second.kind == Fault::Kind::Silent)) {
        f.fault = it->second;
        if (it->second.times > 0)
            --it->second.times;
    }
    if (f.found && !f.entry.blob && !f.entry.redirectStatus) {
        std::error_code ec;
        f.found =
            std::filesystem::file_size(f.entry.file, ec) != static_cast<std::uintmax_t>(-1) && !ec;
    }
    return f;
}

bool HttpTestServer::Impl::handle(int fd, const http::RequestHead& request)
{
    const std::string path = request.target.substr(0, request.target.find('?'));
    const auto header = [&](const char* name) {
        auto it = request.headers.find(name);
        return it == request.headers.end() ? std::string{} : it->second;
    };
    const bool head = request.method == "HEAD";
    const std::string conn = request.keepAlive ? "keep-alive" : "close";
    const auto send = [&](const std::string& text) {
        return sendAll(fd, text.data(), text.size());
    };
    auto [entry, found, fault] = lookup(path, request.headers, head);

    if (fault && fault->kind == Fault::Kind::Status)
        return send(http::emptyResponse(fault->status, conn));
    if (fault && fault->kind == Fault::Kind::Silent) {
        std::unique_lock lock(stopMutex);
        stopCv.wait_for(lock, fault->stall, [this] { return stopping.load(); });
        return false;
    }
    if (found && entry.redirectStatus)
        return send(http::emptyResponse(entry.redirectStatus, conn,
                                        "Location: " + entry.redirectTo + "\r\n"));
    if (!found) {
        const std::string body = "not found: " + path + "\n";
        return send("HTTP/1.1 404 Not Found\r\nContent-Length: " + std::to_string(body.size()) +
                    "\r\nConnection: " + conn + "\r\n\r\n" + (head ? std::string{} : body));
    }
    const std::string caching =
        entry.etag.empty() ? std::string{}
                           : "ETag: " + entry.etag + "\r\nCache-Control: max-age=600, public\r\n";
    if (!entry.etag.empty() && header("if-none-match").find(entry.etag) != std::string::npos) {
        {
            std::lock_guard lock(mutex);
            ++stats[path].notModified;
        }
        return send(http::emptyResponse(304, conn, caching));
    }
    std::error_code ec;
    const std::uint64_t size =
        entry.blob ? entry.blob->size() : std::filesystem::file_size(entry.file, ec);
    const bool ignoreRange = fault && fault->kind == Fault::Kind::IgnoreRange;
    const auto range = ignoreRange ? http::ByteRange{http::ByteRange::Kind::Whole, 0, size}
                                   : http::parseRange(header("range"), size);
    if (range.kind == http::ByteRange::Kind::Unsatisfiable)
        return send(http::emptyResponse(416, conn,
                                        "Content-Range: bytes */" + std::to_string(size) + "\r\n"));
    const bool partial = range.kind == http::ByteRange::Kind::Partial;
    const std::uint64_t start = range.start, len = range.length;

    std::uint64_t declared = len;
    bool closeAfter = !request.keepAlive;
    if (fault && fault->kind == Fault::Kind::WrongLength) {
        declared = static_cast<std::uint64_t>(
            std::max<std::int64_t>(0, static_cast<std::int64_t>(len) + fault->delta));
        closeAfter = true;
    }
    const bool noLength = fault && fault->kind == Fault::Kind::NoLength;
    if (noLength)
        closeAfter = true;
    std::string resp = std::string("HTTP/1.1 ") + (partial ? "206 Partial Content" : "200 OK") +
                       "\r\nContent-Type: " + entry.contentType + "\r\nAccept-Ranges: bytes\r\n" +
                       caching;
    if (!noLength)
        resp += "Content-Length: " + std::to_string(declared) + "\r\n";
    if (partial)
        resp += "Content-Range: bytes " + std::to_string(start) + "-" +
                std::to_string(start + len - 1) + "/" + std::to_string(size) + "\r\n";
    resp += "Connection: " + std::string(closeAfter ? "close" : "keep-alive") + "\r\n\r\n";
    if (!send(resp))
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
            if (corrupt && fault->offset >= at && fault->offset < at + un)
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
