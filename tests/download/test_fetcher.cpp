// The fetcher's order of sources: offline folder, download cache, network with
// mirror rules; the hash decides everywhere.

#include "download/file_helpers.h"
#include "download/recording_sink.h"
#include "installers/fetcher.h"
#include "installers/sha256.h"
#include "support/http_test_server.h"

#include <QtTest>
#include <fstream>
#include <random>

using namespace sp;
using sp::test::HttpTestServer;
using sp::test::randomBytes;
using sp::test::readFile;
using sp::test::RecordingSink;
using sp::test::writeFile;
namespace fs = std::filesystem;

class TestFetcher : public QObject
{
    Q_OBJECT

    HttpTestServer server;
    std::string blob = randomBytes(700'000, 3);
    std::string sha = Sha256::ofBytes(blob.data(), blob.size());
    fs::path dir;

    FetchOptions options()
    {
        FetchOptions o;
        o.downloader.cacheDir = dir / "cache";
        o.downloader.backoffBase = std::chrono::milliseconds(1);
        return o;
    }
    Artifact artifact(const std::string& path = "/dl/zluda.zip")
    {
        Artifact a;
        a.url = server.url(path);
        a.sha256 = sha;
        a.size = blob.size();
        a.format = "zip";
        return a;
    }

private slots:
    void initTestCase()
    {
        dir = fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "fetcher";
        server.addBlob("/dl/zluda.zip", blob);
        QVERIFY2(server.start(), server.error().c_str());
    }
    void init()
    {
        fs::remove_all(dir);
        server.resetStats();
        server.clearFaults();
    }

    void offlineByFileName()
    {
        writeFile(dir / "offline" / "zluda.zip", blob);
        auto o = options();
        o.offlineDir = dir / "offline";
        RecordingSink sink;
        auto r = Fetcher(o).fetch(artifact(), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(r->source == FetchSource::OfflineDir);
        QCOMPARE(r->origin, (dir / "offline" / "zluda.zip").string());
        QCOMPARE(r->sha256, sha);
        QVERIFY(sink.data == blob);
        QCOMPARE(sink.finishes, 1);
        QVERIFY(!sink.outOfOrder);
        QCOMPARE(server.totalRequests(), 0);
    }

    void offlineByHashWhenNamesDiffer()
    {
        writeFile(dir / "offline" / "zluda.zip", randomBytes(blob.size(), 9)); // wrong bytes
        writeFile(dir / "offline" / "sub" / "renamed.bin", blob);
        writeFile(dir / "offline" / "other.txt", "unrelated");
        auto o = options();
        o.offlineDir = dir / "offline";
        RecordingSink sink;
        auto r = Fetcher(o).fetch(artifact(), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(r->source == FetchSource::OfflineDir);
        QCOMPARE(r->origin, (dir / "offline" / "sub" / "renamed.bin").string());
        QCOMPARE(sink.restarts, 1); // the misnamed file went through the sink first
        QVERIFY(sink.data == blob);
        QVERIFY(!sink.outOfOrder);
        QCOMPARE(server.totalRequests(), 0);
    }

    void offlineMissWithoutNetworkFails()
    {
        fs::create_directories(dir / "offline");
        auto o = options();
        o.offlineDir = dir / "offline";
        o.allowNetwork = false;
        RecordingSink sink;
        auto r = Fetcher(o).fetch(artifact(), sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find(sha) != std::string::npos, r.error().message.c_str());
        QCOMPARE(server.totalRequests(), 0);
        QCOMPARE(sink.aborts, 1);
    }

    void networkThenCacheHitWithZeroRequests()
    {
        const Fetcher f(options());
        RecordingSink first;
        auto r = f.fetch(artifact(), first);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(r->source == FetchSource::Network);
        QVERIFY(r->cachedFile == dir / "cache" / "downloads" / sha);
        QCOMPARE(server.totalRequests(), 1);

        RecordingSink second;
        r = f.fetch(artifact(), second);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(r->source == FetchSource::Cache);
        QVERIFY(second.data == blob);
        QCOMPARE(second.finishes, 1);
        QCOMPARE(server.totalRequests(), 1); // the cache hit asked nobody
    }

    void corruptCacheEntryIsReplaced()
    {
        writeFile(dir / "cache" / "downloads" / sha, randomBytes(blob.size(), 11));
        RecordingSink sink;
        auto r = Fetcher(options()).fetch(artifact(), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(r->source == FetchSource::Network);
        QCOMPARE(sink.restarts, 1);
        QVERIFY(!sink.outOfOrder);
        QVERIFY(sink.data == blob);
        QVERIFY(readFile(dir / "cache" / "downloads" / sha) == blob);
    }

    void mirrorRuleIsTriedFirst()
    {
        server.addBlob("/mirror/dl/zluda.zip", blob);
        auto o = options();
        o.settings.mirrors["127.0.0.1:" + std::to_string(server.port())] = {server.url("/mirror")};
        const Fetcher f(o);
        QCOMPARE(f.urlsFor(artifact()).at(0), server.url("/mirror/dl/zluda.zip"));
        RecordingSink sink;
        auto r = f.fetch(artifact(), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->origin, server.url("/mirror/dl/zluda.zip"));
        QCOMPARE(server.stats("/dl/zluda.zip").requests, 0);
    }

    void mirrorWithWrongBytesLosesToTheHash()
    {
        server.addBlob("/evil/dl/zluda.zip", randomBytes(blob.size(), 5));
        auto o = options();
        o.settings.mirrors["127.0.0.1"] = {server.url("/evil")};
        RecordingSink sink;
        auto r = Fetcher(o).fetch(artifact(), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->origin, server.url("/dl/zluda.zip"));
        QCOMPARE(server.stats("/evil/dl/zluda.zip").requests, 1);
        QVERIFY(sink.data == blob);
    }

    void settingsProxyIsUsed()
    {
        // The test server doubles as the proxy: a proxied request carries the
        // absolute URL as its target, which is the path it is registered under.
        server.addBlob("http://artifacts.invalid/p.zip", blob);
        auto o = options();
        o.settings.proxy = server.url("");
        Artifact a = artifact();
        a.url = "http://artifacts.invalid/p.zip";
        RecordingSink sink;
        auto r = Fetcher(o).fetch(a, sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->origin, a.url);
        QCOMPARE(server.stats("http://artifacts.invalid/p.zip").requests, 1);
        QVERIFY(sink.data == blob);
    }

    void mirrorAfterOriginalWhenConfigured()
    {
        server.addBlob("/late/gone.zip", blob);
        auto o = options();
        o.settings.mirrorsFirst = false;
        o.settings.mirrors["127.0.0.1"] = {server.url("/late")};
        RecordingSink sink;
        auto r = Fetcher(o).fetch(artifact("/gone.zip"), sink); // original: 404
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->origin, server.url("/late/gone.zip"));
        QCOMPARE(server.stats("/gone.zip").requests, 1);
    }
};

QTEST_GUILESS_MAIN(TestFetcher)
#include "test_fetcher.moc"
