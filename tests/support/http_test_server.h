#pragma once
// A real HTTP/1.1 server on 127.0.0.1 (ephemeral port) for installer tests: serves
// in-memory blobs and files by path, with Range (206, Content-Range, 416), HEAD,
// redirects and per-path injectable faults. One thread accepts, one thread per
// connection serves (keep-alive), so parallel downloads and throughput benchmarks
// work. Counts requests and body bytes sent per path, so a test can prove that a
// resume transferred only the missing bytes.
//
//   sp::test::HttpTestServer server;
//   server.addBlob("/a.tar.gz", bytes);
//   server.setFault("/a.tar.gz", sp::test::Fault::dropAfter(1000));
//   server.start();
//   download(server.url("/a.tar.gz"));
//   QCOMPARE(server.stats("/a.tar.gz").bodyBytes, bytes.size() + 1000);

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sp::test {

struct Fault
{
    enum class Kind
    {
        None,
        DropAfter,   // send `bytes` body bytes, then close the connection
        Status,      // answer `status` (e.g. 503) without a body
        Stall,       // send `bytes` body bytes, then hang for `stall`, then close
        WrongLength, // declare Content-Length = real + `delta`; send the real bytes, close
        Corrupt,     // flip the byte at absolute offset `offset` of the resource
        IgnoreRange, // answer 200 with the whole body even when Range was asked
        NoLength,    // no Content-Length: the body ends when the connection closes
        Silent,      // answer nothing (HEAD or GET) for `stall`, then close
    };
    Kind kind = Kind::None;
    std::uint64_t bytes = 0;
    int status = 503;
    std::chrono::milliseconds stall{0};
    std::int64_t delta = 0;
    std::uint64_t offset = 0;
    // How many requests the fault applies to (counted from when it is set);
    // -1 = all of them.
    int times = 1;

    static Fault dropAfter(std::uint64_t n, int times = 1);
    static Fault statusFor(int status, int times); // e.g. 503 for the first K
    static Fault stallAfter(std::uint64_t n, std::chrono::milliseconds t, int times = 1);
    static Fault silentFor(std::chrono::milliseconds t, int times = -1);
    static Fault wrongLength(std::int64_t delta, int times = -1);
    static Fault corrupt(std::uint64_t offset, int times = -1);
    static Fault ignoreRange(int times = -1);
    static Fault noLength(int times = -1);

    // "drop:N", "status:503:K", "stall:N:MS", "silent:MS", "length:D", "corrupt:X", "norange",
    // "nolength" (the form stackpilot-test-httpd's --fault takes after "path:"). nullopt if bad.
    static std::optional<Fault> parse(const std::string& spec);
};

struct PathStats
{
    int requests = 0;                        // GET and HEAD, faulted ones included
    int rangeRequests = 0;                   // requests that carried a Range header
    std::uint64_t bodyBytes = 0;             // body bytes actually written to sockets
    std::vector<std::string> ranges;         // each Range header value, in order ("" if none)
    std::vector<std::string> userAgents;     // each User-Agent value, in order
    std::vector<std::string> authorizations; // each Authorization value ("" if none)
    int notModified = 0;                     // 304 answers to a matching If-None-Match
};

class HttpTestServer
{
public:
    HttpTestServer();
    ~HttpTestServer(); // stops
    HttpTestServer(const HttpTestServer&) = delete;
    HttpTestServer& operator=(const HttpTestServer&) = delete;

    // Content can be added or changed before or after start().
    void addBlob(const std::string& path, std::string bytes);
    void addFile(const std::string& path, const std::filesystem::path& file);
    // A blob served the way a package index serves it: its Content-Type, an ETag and
    // "Cache-Control: max-age=600, public", and 304 Not Modified to a matching
    // If-None-Match. (pip caches nothing without such headers.)
    void addCachedBlob(const std::string& path, std::string bytes, const std::string& contentType);
    // Paths not registered are looked up under `root` ("/a/b" -> root/a/b).
    void serveDirectory(const std::filesystem::path& root);
    void addRedirect(const std::string& from, const std::string& to, int status = 302);
    void setFault(const std::string& path, const Fault& fault);
    void clearFaults();

    // Serve HTTPS instead (call before start()); url() then says https://.
    bool enableTls(const std::filesystem::path& certPem, const std::filesystem::path& keyPem);
    // A self-signed certificate (its own CA) for `subjectAltName`, e.g. "IP:127.0.0.1".
    static bool writeSelfSignedCertificate(const std::filesystem::path& certPem,
                                           const std::filesystem::path& keyPem,
                                           const std::string& subjectAltName);

    // Listens on 127.0.0.1:`port` (0 = ephemeral). False with a reason in error().
    bool start(std::uint16_t port = 0);
    void stop(); // closes the listener and every connection, joins all threads
    std::uint16_t port() const;
    std::string url(const std::string& path) const; // "http(s)://127.0.0.1:<port><path>"
    std::string error() const;

    PathStats stats(const std::string& path) const;
    int totalRequests() const;
    void resetStats();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace sp::test
