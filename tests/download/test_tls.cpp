// TLS verification is really on: real handshakes against the test server serving
// HTTPS with a self-signed certificate. The system store rejects it, the same
// certificate as CA file accepts it, a host name it does not cover is rejected, and
// an https -> http redirect is refused unless the artifact is pinned.

#include "download/recording_sink.h"
#include "installers/downloader.h"
#include "installers/sha256.h"
#include "support/http_test_server.h"

#include <QtTest>

using namespace sp;
using sp::test::Fault;
using sp::test::HttpTestServer;
using sp::test::RecordingSink;
namespace fs = std::filesystem;

class TestTls : public QObject
{
    Q_OBJECT

    fs::path dir;
    HttpTestServer tls;
    HttpTestServer plain;
    const std::string body = std::string(300'000, 'x') + "end";
    const std::string sha = Sha256::ofBytes(body.data(), body.size());

    Expected<DownloadResult> get(const std::string& u, const fs::path& ca, RecordingSink& sink,
                                 bool pin = false)
    {
        DownloaderOptions o;
        o.cacheDir = dir / "cache";
        o.caFile = ca;
        o.backoffBase = std::chrono::milliseconds(1);
        DownloadRequest r;
        r.urls = {u};
        if (pin)
            r.sha256 = sha;
        r.partialFile = dir / "partial.part";
        return Downloader(o).fetch(r, sink);
    }

private slots:
    void initTestCase()
    {
        dir = fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "tls";
        fs::remove_all(dir);
        fs::create_directories(dir);
        QVERIFY(HttpTestServer::writeSelfSignedCertificate(dir / "cert.pem", dir / "key.pem",
                                                           "IP:127.0.0.1"));
        QVERIFY2(tls.enableTls(dir / "cert.pem", dir / "key.pem"), tls.error().c_str());
        tls.addBlob("/file.bin", body);
        plain.addBlob("/file.bin", body);
        QVERIFY2(plain.start(), plain.error().c_str());
        tls.addRedirect("/to-plain", plain.url("/file.bin"));
        QVERIFY2(tls.start(), tls.error().c_str());
        QVERIFY(tls.url("/").rfind("https://", 0) == 0);
    }
    void init()
    {
        tls.resetStats();
        plain.resetStats();
        fs::remove_all(dir / "cache");
        fs::remove(dir / "partial.part");
    }

    void systemStoreRejectsASelfSignedCertificate()
    {
        RecordingSink sink;
        auto r = get(tls.url("/file.bin"), {}, sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("TLS verification failed") != std::string::npos,
                 r.error().message.c_str());
        QCOMPARE(sink.bytes, std::uint64_t(0));
        QCOMPARE(tls.totalRequests(), 0); // no HTTP request left the client
    }

    void trustedCertificateDownloadsAndResumes()
    {
        tls.setFault("/file.bin", Fault::dropAfter(100'000));
        RecordingSink sink;
        auto r = get(tls.url("/file.bin"), dir / "cert.pem", sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(sink.data == body);
        QCOMPARE(tls.stats("/file.bin").ranges.at(1), std::string("bytes=100000-"));
        QCOMPARE(tls.stats("/file.bin").bodyBytes, std::uint64_t(body.size()));
    }

    void hostNameIsVerified()
    {
        RecordingSink sink;
        const auto url = "https://localhost:" + std::to_string(tls.port()) + "/file.bin";
        auto r = get(url, dir / "cert.pem", sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("TLS verification failed") != std::string::npos,
                 r.error().message.c_str());
    }

    void redirectToPlainHttpRefusedWhenUnpinned()
    {
        RecordingSink sink;
        auto r = get(tls.url("/to-plain"), dir / "cert.pem", sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("redirect to plain http refused") != std::string::npos,
                 r.error().message.c_str());
        QCOMPARE(tls.stats("/to-plain").requests, 1);
        QCOMPARE(plain.totalRequests(), 0);
    }

    void redirectToPlainHttpAllowedWhenPinned()
    {
        RecordingSink sink;
        auto r = get(tls.url("/to-plain"), dir / "cert.pem", sink, true);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(sink.data == body);
        QCOMPARE(plain.stats("/file.bin").requests, 1);
    }
};

QTEST_GUILESS_MAIN(TestTls)
#include "test_tls.moc"
