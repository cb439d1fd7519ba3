// The test server itself, spoken to over raw sockets: ranges, 416, HEAD, 404,
// keep-alive, redirects, fault parsing and concurrent connections. Other areas'
// installer tests rely on these behaviours.

#include "support/http_test_server.h"

#include <QtTest>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using sp::test::Fault;
using sp::test::HttpTestServer;

namespace {

// Sends `request` on one connection and reads until the server closes it.
std::string talk(std::uint16_t port, const std::string& request)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return {};
    }
    ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    std::string out;
    char buf[65536];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
        out.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    return out;
}

std::string get(std::uint16_t port, const std::string& path, const std::string& extra = {},
                const char* method = "GET")
{
    return talk(port, std::string(method) + " " + path +
                          " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + extra + "\r\n");
}

std::string bodyOf(const std::string& response)
{
    const auto end = response.find("\r\n\r\n");
    return end == std::string::npos ? std::string{} : response.substr(end + 4);
}

bool has(const std::string& hay, const std::string& needle)
{
    return hay.find(needle) != std::string::npos;
}

} // namespace

class TestHttpServer : public QObject
{
    Q_OBJECT

    HttpTestServer server;
    const std::string blob = "0123456789abcdefghij";

private slots:
    void initTestCase()
    {
        server.addBlob("/b", blob);
        server.addRedirect("/old", "/b", 301);
        QVERIFY2(server.start(), server.error().c_str());
    }
    void init()
    {
        server.clearFaults();
        server.resetStats();
    }

    void fullBody()
    {
        const auto r = get(server.port(), "/b");
        QVERIFY(r.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
        QVERIFY(has(r, "Content-Length: 20\r\n"));
        QVERIFY(has(r, "Accept-Ranges: bytes\r\n"));
        QCOMPARE(bodyOf(r), blob);
        QCOMPARE(server.stats("/b").bodyBytes, std::uint64_t(20));
    }

    void ranges()
    {
        auto r = get(server.port(), "/b", "Range: bytes=5-\r\n");
        QVERIFY(r.rfind("HTTP/1.1 206", 0) == 0);
        QVERIFY(has(r, "Content-Range: bytes 5-19/20\r\n"));
        QCOMPARE(bodyOf(r), blob.substr(5));
        r = get(server.port(), "/b", "Range: bytes=2-4\r\n");
        QCOMPARE(bodyOf(r), std::string("234"));
        r = get(server.port(), "/b", "Range: bytes=-3\r\n");
        QCOMPARE(bodyOf(r), std::string("hij"));
        r = get(server.port(), "/b", "Range: bytes=20-\r\n");
        QVERIFY(r.rfind("HTTP/1.1 416", 0) == 0);
        QVERIFY(has(r, "Content-Range: bytes */20\r\n"));
        QCOMPARE(server.stats("/b").rangeRequests, 4);
        QCOMPARE(server.stats("/b").ranges.at(0), std::string("bytes=5-"));
    }

    void headAndNotFound()
    {
        auto r = get(server.port(), "/b", {}, "HEAD");
        QVERIFY(has(r, "Content-Length: 20\r\n"));
        QCOMPARE(bodyOf(r), std::string());
        r = get(server.port(), "/nope");
        QVERIFY(r.rfind("HTTP/1.1 404", 0) == 0);
    }

    void keepAliveServesSeveralRequests()
    {
        const std::string one = "GET /b HTTP/1.1\r\nHost: x\r\n\r\n";
        const auto r = talk(server.port(), one + one +
                                               "GET /b HTTP/1.1\r\nHost: x\r\n"
                                               "Connection: close\r\n\r\n");
        int count = 0;
        for (auto pos = r.find("HTTP/1.1 200"); pos != std::string::npos;
             pos = r.find("HTTP/1.1 200", pos + 1))
            ++count;
        QCOMPARE(count, 3);
        QCOMPARE(server.stats("/b").requests, 3);
    }

    void redirect()
    {
        const auto r = get(server.port(), "/old");
        QVERIFY(r.rfind("HTTP/1.1 301", 0) == 0);
        QVERIFY(has(r, "Location: /b\r\n"));
    }

    void faults()
    {
        server.setFault("/b", Fault::statusFor(503, 1));
        QVERIFY(get(server.port(), "/b").rfind("HTTP/1.1 503", 0) == 0);
        QVERIFY(get(server.port(), "/b").rfind("HTTP/1.1 200", 0) == 0); // only the first

        server.setFault("/b", Fault::dropAfter(7));
        auto r = get(server.port(), "/b");
        QVERIFY(has(r, "Content-Length: 20\r\n"));
        QCOMPARE(bodyOf(r), blob.substr(0, 7));

        server.setFault("/b", Fault::corrupt(3));
        r = bodyOf(get(server.port(), "/b", "Range: bytes=2-\r\n"));
        QCOMPARE(r.size(), std::size_t(18));
        QVERIFY(r[1] != blob[3]);
        QCOMPARE(r.substr(2), blob.substr(4));

        server.setFault("/b", Fault::ignoreRange());
        r = get(server.port(), "/b", "Range: bytes=5-\r\n");
        QVERIFY(r.rfind("HTTP/1.1 200", 0) == 0);
        QCOMPARE(bodyOf(r), blob);

        server.setFault("/b", Fault::wrongLength(+5));
        QVERIFY(has(get(server.port(), "/b"), "Content-Length: 25\r\n"));

        server.setFault("/b", Fault::noLength());
        r = get(server.port(), "/b");
        QVERIFY(!has(r, "Content-Length"));
        QCOMPARE(bodyOf(r), blob);
    }

    void faultSpecs()
    {
        QVERIFY(Fault::parse("drop:100")->bytes == 100);
        QVERIFY(Fault::parse("status:503:2")->times == 2);
        QVERIFY(Fault::parse("stall:10:1500")->stall == std::chrono::milliseconds(1500));
        QVERIFY(Fault::parse("length:-4")->delta == -4);
        QVERIFY(Fault::parse("corrupt:9")->offset == 9);
        QVERIFY(Fault::parse("norange")->kind == Fault::Kind::IgnoreRange);
        QVERIFY(Fault::parse("nolength")->kind == Fault::Kind::NoLength);
        QVERIFY(!Fault::parse("drop"));
        QVERIFY(!Fault::parse("drop:x"));
        QVERIFY(!Fault::parse("explode:1"));
    }

    void concurrentConnections()
    {
        std::string big(4 << 20, 'z');
        server.addBlob("/big", big);
        // One stalled connection must not hold up the others.
        server.setFault("/big", Fault::stallAfter(10, std::chrono::seconds(3)));
        std::vector<std::thread> threads;
        std::vector<std::size_t> sizes(8);
        for (int i = 0; i < 8; ++i)
            threads.emplace_back([&, i] { sizes[i] = bodyOf(get(server.port(), "/big")).size(); });
        for (auto& t : threads)
            t.join();
        std::sort(sizes.begin(), sizes.end());
        QCOMPARE(sizes[0], std::size_t(10));
        for (int i = 1; i < 8; ++i)
            QCOMPARE(sizes[i], big.size());
        QCOMPARE(server.stats("/big").requests, 8);
    }
};

QTEST_GUILESS_MAIN(TestHttpServer)
#include "test_http_server.moc"
