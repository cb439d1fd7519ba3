// The downloader against the fault-injecting test server: every fault, resume,
// mirrors, refusal of plain http, redirects, cancellation, progress and TLS.
#include "download/file_helpers.h"
#include "download/recording_sink.h"
#include "installers/downloader.h"
#include "installers/sha256.h"
#include "stackpilot_version.h"
#include "support/http_test_server.h"

#include <QtTest>
#include <fstream>
#include <random>
#include <thread>

using namespace sp;
using sp::test::Fault;
using sp::test::HttpTestServer;
using sp::test::randomBytes;
using sp::test::readFile;
using sp::test::RecordingSink;
using sp::test::writeFile;
namespace fs = std::filesystem;

class TestDownloader : public QObject
{
    Q_OBJECT

    HttpTestServer server;
    std::string blob = randomBytes(3'000'000, 1);
    std::string sha = Sha256::ofBytes(blob.data(), blob.size());
    fs::path dir;
    std::vector<std::chrono::milliseconds> sleeps;

    DownloaderOptions options()
    {
        DownloaderOptions o;
        o.cacheDir = dir / "cache";
        o.backoffBase = std::chrono::milliseconds(10);
        o.lowSpeedTime = std::chrono::seconds(1);
        o.sleep = [this](std::chrono::milliseconds d) { sleeps.push_back(d); };
        return o;
    }
    DownloadRequest request(const std::string& path, bool pinSize = true)
    {
        DownloadRequest r;
        r.urls = {server.url(path)};
        r.sha256 = sha;
        if (pinSize)
            r.size = blob.size();
        r.partialFile = dir / "partial" / (path.substr(1) + ".part");
        return r;
    }

private slots:
    void initTestCase()
    {
        dir = fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "downloader";
        QVERIFY2(server.start(), server.error().c_str());
    }
    void init()
    {
        fs::remove_all(dir);
        server.clearFaults();
        server.resetStats();
        sleeps.clear();
    }

    void plainDownload()
    {
        server.addBlob("/a.bin", blob);
        RecordingSink sink;
        const auto req = request("/a.bin");
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->sha256, sha);
        QCOMPARE(r->size, blob.size());
        QCOMPARE(r->url, server.url("/a.bin"));
        QVERIFY(sink.data == blob);
        QCOMPARE(sink.begins, 1);
        QCOMPARE(sink.finishes, 1);
        QCOMPARE(sink.aborts, 0);
        QVERIFY(!sink.outOfOrder);
        QVERIFY(sink.lastTotal == blob.size());
        QVERIFY(r->file == dir / "cache" / "downloads" / sha);
        QVERIFY(readFile(r->file) == blob);
        QVERIFY(!fs::exists(req.partialFile));
        const auto st = server.stats("/a.bin");
        QCOMPARE(st.requests, 1);
        QCOMPARE(st.userAgents.at(0), std::string("StackPilot/") + STACKPILOT_VERSION);
    }

    void dropResumesWithOnlyMissingBytes()
    {
        server.addBlob("/drop.bin", blob);
        server.setFault("/drop.bin", Fault::dropAfter(1'000'000));
        RecordingSink sink;
        auto r = Downloader(options()).fetch(request("/drop.bin"), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(sink.data == blob);
        QCOMPARE(sink.restarts, 0);
        const auto st = server.stats("/drop.bin");
        QCOMPARE(st.requests, 2);
        QCOMPARE(st.ranges.at(1), std::string("bytes=1000000-"));
        // Only the missing 2 MB went over the wire a second time.
        QCOMPARE(st.bodyBytes, std::uint64_t(blob.size()));
        QCOMPARE(r->networkBytes, std::uint64_t(blob.size()));
        QCOMPARE(int(sleeps.size()), 1);
    }

    void serviceUnavailableThenSuccessWithBackoff()
    {
        server.addBlob("/busy.bin", blob);
        server.setFault("/busy.bin", Fault::statusFor(503, 3));
        RecordingSink sink;
        auto r = Downloader(options()).fetch(request("/busy.bin"), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(server.stats("/busy.bin").requests, 4);
        QCOMPARE(int(sleeps.size()), 3);
        QCOMPARE(sleeps[0].count(), 10);
        QCOMPARE(sleeps[1].count(), 20);
        QCOMPARE(sleeps[2].count(), 40);
        QVERIFY(sink.data == blob);
    }

    void stallIsDetectedAndResumed()
    {
        server.addBlob("/stall.bin", blob);
        server.setFault("/stall.bin", Fault::stallAfter(500'000, std::chrono::seconds(20)));
        RecordingSink sink;
        QElapsedTimer t;
        t.start();
        auto r = Downloader(options()).fetch(request("/stall.bin"), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY2(t.elapsed() < 10'000, "the low-speed timeout did not fire");
        QVERIFY(sink.data == blob);
        const auto st = server.stats("/stall.bin");
        QCOMPARE(st.requests, 2);
        QCOMPARE(st.ranges.at(1), std::string("bytes=500000-"));
        QCOMPARE(st.bodyBytes, std::uint64_t(blob.size()));
    }

    void shortContentLengthIsResumed()
    {
        server.addBlob("/short.bin", blob);
        server.setFault("/short.bin", Fault::wrongLength(-1000, 1));
        RecordingSink sink;
        auto r = Downloader(options()).fetch(request("/short.bin"), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(sink.data == blob);
        QCOMPARE(server.stats("/short.bin").ranges.at(1),
                 "bytes=" + std::to_string(blob.size() - 1000) + "-");
    }

    void longContentLengthIsRefusedAsOversize()
    {
        server.addBlob("/long.bin", blob);
        server.setFault("/long.bin", Fault::wrongLength(+1000));
        RecordingSink sink;
        const auto req = request("/long.bin");
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("declares") != std::string::npos,
                 r.error().message.c_str());
        QCOMPARE(sink.aborts, 1);
        QCOMPARE(sink.finishes, 0);
        QVERIFY(!fs::exists(req.partialFile));
    }

    void moreBytesThanTheCatalogSaysIsRefused()
    {
        server.addBlob("/big.bin", blob);
        RecordingSink sink;
        auto req = request("/big.bin");
        req.size = 1'000'000;
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("3000000") != std::string::npos, r.error().message.c_str());
        QCOMPARE(sink.aborts, 1);
        QCOMPARE(sink.bytes, std::uint64_t(0));
        QVERIFY(!fs::exists(req.partialFile));
    }

    void streamLongerThanDeclaredStopsEarly()
    {
        // No Content-Length: only the byte count while streaming can catch it.
        server.addBlob("/nolen.bin", blob);
        server.setFault("/nolen.bin", Fault::noLength());
        RecordingSink sink;
        auto req = request("/nolen.bin");
        req.size = 1'000'000;
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("more than the declared 1000000") != std::string::npos,
                 r.error().message.c_str());
        QVERIFY(sink.bytes <= 1'000'000);
        QCOMPARE(sink.aborts, 1);
        QVERIFY(!fs::exists(req.partialFile));
        QCOMPARE(server.stats("/nolen.bin").requests, 1); // not retried
    }

    void closeDelimitedBodyDownloads()
    {
        server.addBlob("/nolen2.bin", blob);
        server.setFault("/nolen2.bin", Fault::noLength());
        RecordingSink sink;
        auto r = Downloader(options()).fetch(request("/nolen2.bin", false), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(sink.data == blob);
    }

    void wrongBytesFailTheHash()
    {
        server.addBlob("/bad.bin", blob);
        server.setFault("/bad.bin", Fault::corrupt(123'456));
        RecordingSink sink;
        const auto req = request("/bad.bin");
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY(!r.ok());
        const auto& m = r.error().message;
        QVERIFY2(m.find(server.url("/bad.bin")) != std::string::npos, m.c_str());
        QVERIFY2(m.find(sha) != std::string::npos, m.c_str());
        std::string corrupted = blob;
        corrupted[123'456] = static_cast<char>(corrupted[123'456] ^ 0x5a);
        QVERIFY2(m.find(Sha256::ofBytes(corrupted.data(), corrupted.size())) != std::string::npos,
                 m.c_str());
        QCOMPARE(sink.aborts, 1);
        QCOMPARE(sink.finishes, 0);
        QVERIFY(!fs::exists(req.partialFile));
        QVERIFY(!fs::exists(dir / "cache" / "downloads" / sha));
    }

    void ignoredRangeRestartsTheSink()
    {
        server.addBlob("/norange.bin", blob);
        server.setFault("/norange.bin", Fault::ignoreRange());
        const auto req = request("/norange.bin");
        writeFile(req.partialFile, blob.substr(0, 1'000'000));
        RecordingSink sink;
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(sink.restarts, 1);
        QCOMPARE(sink.begins, 2);
        QVERIFY(!sink.outOfOrder);
        QVERIFY(sink.data == blob);
        QCOMPARE(r->restarts, 1);
        QCOMPARE(server.stats("/norange.bin").rangeRequests, 1);
    }

    void resumeFromExistingPartialFile()
    {
        server.addBlob("/resume.bin", blob);
        const auto req = request("/resume.bin");
        writeFile(req.partialFile, blob.substr(0, 2'000'000));
        RecordingSink sink;
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(sink.data == blob);
        QCOMPARE(sink.restarts, 0);
        QCOMPARE(r->replayedBytes, std::uint64_t(2'000'000));
        const auto st = server.stats("/resume.bin");
        QCOMPARE(st.requests, 1);
        QCOMPARE(st.ranges.at(0), std::string("bytes=2000000-"));
        QCOMPARE(st.bodyBytes, std::uint64_t(1'000'000));
    }

    void badBytesInThePartialFileAreReplacedOnce()
    {
        server.addBlob("/stale.bin", blob);
        const auto req = request("/stale.bin");
        writeFile(req.partialFile, randomBytes(1'000'000, 99)); // not the artifact's prefix
        RecordingSink sink;
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(sink.data == blob);
        QCOMPARE(sink.restarts, 1);
        QVERIFY(!sink.outOfOrder);
        const auto st = server.stats("/stale.bin");
        QCOMPARE(st.requests, 2); // the resumed tail, then everything from byte 0
        QCOMPARE(st.bodyBytes, std::uint64_t(blob.size() - 1'000'000 + blob.size()));
    }

    void cancelDuringReplayKeepsThePartialFile()
    {
        server.addBlob("/replay.bin", blob);
        const auto req = request("/replay.bin");
        writeFile(req.partialFile, blob.substr(0, 2'000'000));
        CancelToken cancel;
        cancel.cancel();
        RecordingSink sink;
        auto r = Downloader(options()).fetch(req, sink, {}, cancel);
        QVERIFY(!r.ok());
        QVERIFY(r.error().code == ErrorCode::Cancelled);
        QCOMPARE(fs::file_size(req.partialFile), std::uintmax_t(2'000'000));
        QCOMPARE(server.totalRequests(), 0);
        QCOMPARE(sink.aborts, 1);
    }

    void mirrorFallbackOn404AndOnPersistentFailure()
    {
        server.addBlob("/mirror/a.bin", blob);
        server.addBlob("/flaky.bin", blob);
        server.setFault("/flaky.bin", Fault::statusFor(503, -1));
        RecordingSink sink;
        auto req = request("/missing.bin");
        req.urls = {server.url("/missing.bin"), server.url("/flaky.bin"),
                    server.url("/mirror/a.bin")};
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->url, server.url("/mirror/a.bin"));
        QCOMPARE(server.stats("/missing.bin").requests, 1); // 404 is not retried
        QCOMPARE(server.stats("/flaky.bin").requests, 4);   // 503 is, 4 tries
        QVERIFY(sink.data == blob);
    }

    void mirrorResumesWithRange()
    {
        server.addBlob("/m1.bin", blob);
        server.addBlob("/m2.bin", blob);
        server.setFault("/m1.bin", Fault::dropAfter(1'500'000, 1));
        auto o = options();
        o.maxTriesPerUrl = 1;
        RecordingSink sink;
        auto req = request("/m1.bin");
        req.urls = {server.url("/m1.bin"), server.url("/m2.bin")};
        auto r = Downloader(o).fetch(req, sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->url, server.url("/m2.bin"));
        QCOMPARE(server.stats("/m2.bin").ranges.at(0), std::string("bytes=1500000-"));
        QCOMPARE(sink.restarts, 0);
        QVERIFY(sink.data == blob);
    }

    void hashMismatchOnMirrorTriesTheNext()
    {
        server.addBlob("/evil.bin", randomBytes(blob.size(), 7));
        server.addBlob("/good.bin", blob);
        RecordingSink sink;
        auto req = request("/evil.bin");
        req.urls = {server.url("/evil.bin"), server.url("/good.bin")};
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(sink.restarts, 1);
        QVERIFY(sink.data == blob);
    }

    void plainHttpRefusedWhenUnpinned()
    {
        server.addBlob("/a.bin", blob);
        RecordingSink sink;
        auto req = request("/a.bin");
        req.sha256.reset();
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("plain http") != std::string::npos,
                 r.error().message.c_str());
        QCOMPARE(server.totalRequests(), 0);
        QCOMPARE(sink.begins, 0);
    }

    void redirectIsFollowed()
    {
        server.addBlob("/real.bin", blob);
        server.addRedirect("/r1", "/r2", 301);
        server.addRedirect("/r2", server.url("/real.bin"), 302);
        RecordingSink sink;
        auto r = Downloader(options()).fetch(request("/r1"), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(sink.data == blob);
        QCOMPARE(server.stats("/r2").requests, 1);
        QCOMPARE(server.stats("/real.bin").requests, 1);
    }

    void redirectLoopFails()
    {
        server.addRedirect("/loop", "/loop");
        RecordingSink sink;
        auto r = Downloader(options()).fetch(request("/loop"), sink);
        QVERIFY(!r.ok());
        QCOMPARE(server.stats("/loop").requests, 11); // the first plus 10 redirects
    }

    void cancelStopsPromptlyAndKeepsThePartialFile()
    {
        server.addBlob("/slow.bin", blob);
        server.setFault("/slow.bin", Fault::stallAfter(100'000, std::chrono::seconds(20), -1));
        auto o = options();
        o.lowSpeedTime = std::chrono::seconds(30);
        CancelToken cancel;
        RecordingSink sink;
        const auto req = request("/slow.bin");
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            cancel.cancel();
        });
        QElapsedTimer t;
        t.start();
        auto r = Downloader(o).fetch(req, sink, {}, cancel);
        canceller.join();
        QVERIFY(!r.ok());
        QVERIFY(r.error().code == ErrorCode::Cancelled);
        QVERIFY2(t.elapsed() < 2500, "cancellation was not prompt");
        QCOMPARE(sink.aborts, 1);
        QCOMPARE(fs::file_size(req.partialFile), std::uintmax_t(100'000));
    }

    void progressIsMonotonicWithFinalTotal()
    {
        server.addBlob("/p.bin", blob);
        server.setFault("/p.bin", Fault::dropAfter(1'000'000));
        std::vector<DownloadProgress> seen;
        RecordingSink sink;
        auto r = Downloader(options()).fetch(request("/p.bin"), sink,
                                             [&](const DownloadProgress& p) { seen.push_back(p); });
        QVERIFY(r.ok());
        QVERIFY(!seen.empty());
        for (std::size_t i = 1; i < seen.size(); ++i)
            QVERIFY(seen[i].received >= seen[i - 1].received);
        QCOMPARE(seen.back().received, std::uint64_t(blob.size()));
        QVERIFY(seen.back().total == blob.size());
        QVERIFY(seen.back().bytesPerSecond > 0);
    }

    void parallelFetchAll()
    {
        std::vector<std::string> blobs;
        std::vector<RecordingSink> sinks(4);
        std::vector<Downloader::Job> jobs;
        for (int i = 0; i < 4; ++i) {
            blobs.push_back(randomBytes(1'000'000 + i, 100 + i));
            const std::string path = "/par" + std::to_string(i);
            server.addBlob(path, blobs.back());
            Downloader::Job j;
            j.request.urls = {server.url(path)};
            j.request.sha256 = Sha256::ofBytes(blobs.back().data(), blobs.back().size());
            j.sink = &sinks[i];
            jobs.push_back(j);
        }
        server.setFault("/par2", Fault::dropAfter(1000));
        auto results = Downloader(options()).fetchAll(jobs, 4);
        QCOMPARE(int(results.size()), 4);
        for (int i = 0; i < 4; ++i) {
            QVERIFY2(results[i].ok(), results[i].ok() ? "" : results[i].error().message.c_str());
            QVERIFY(sinks[i].data == blobs[i]);
        }
    }

    void sameArtifactTwiceAtOnceDownloadsOnce()
    {
        server.addBlob("/twice.bin", blob);
        // Slow the first transfer down so the second surely waits for the lock.
        server.setFault("/twice.bin", Fault::stallAfter(1'000'000, std::chrono::seconds(5)));
        std::vector<RecordingSink> sinks(2);
        std::vector<Downloader::Job> jobs(2);
        for (int i = 0; i < 2; ++i) {
            jobs[i].request = request("/twice.bin");
            jobs[i].sink = &sinks[i];
        }
        auto results = Downloader(options()).fetchAll(jobs, 2);
        for (int i = 0; i < 2; ++i) {
            QVERIFY2(results[i].ok(), results[i].ok() ? "" : results[i].error().message.c_str());
            QVERIFY(sinks[i].data == blob);
            QCOMPARE(sinks[i].finishes, 1);
        }
        QCOMPARE(server.stats("/twice.bin").bodyBytes, std::uint64_t(blob.size()));
        QCOMPARE(results[0]->requests + results[1]->requests, 2); // stall, then resume
    }

    void environmentProxyIsUsed()
    {
        server.addBlob("http://env-proxy.invalid/e.bin", blob);
        const QByteArray old = qgetenv("http_proxy");
        const QByteArray oldNo = qgetenv("no_proxy");
        const QByteArray oldNoUpper = qgetenv("NO_PROXY");
        qputenv("http_proxy", QByteArray::fromStdString(server.url("")));
        qunsetenv("no_proxy");
        qunsetenv("NO_PROXY");
        RecordingSink sink;
        auto req = request("/e.bin");
        req.urls = {"http://env-proxy.invalid/e.bin"};
        auto r = Downloader(options()).fetch(req, sink);
        if (old.isNull())
            qunsetenv("http_proxy");
        else
            qputenv("http_proxy", old);
        if (!oldNo.isNull())
            qputenv("no_proxy", oldNo);
        if (!oldNoUpper.isNull())
            qputenv("NO_PROXY", oldNoUpper);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(server.stats("http://env-proxy.invalid/e.bin").requests, 1);
    }

    void httpsToAPlainHttpPortFailsInTheHandshake()
    {
        server.addBlob("/a.bin", blob);
        RecordingSink sink;
        auto req = request("/a.bin");
        req.urls = {"https://127.0.0.1:" + std::to_string(server.port()) + "/a.bin"};
        auto r = Downloader(options()).fetch(req, sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("TLS") != std::string::npos, r.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestDownloader)
#include "test_downloader.moc"
