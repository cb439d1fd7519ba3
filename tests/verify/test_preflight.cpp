// The preflight before an install (installers/preflight.h) against a real loopback
// server: present artifacts and their sizes, a 404 and a 410, a server that refuses
// HEAD (a ranged GET of one byte answers instead), a 500 (unknown, not missing), a
// host that does not resolve while others do, and a machine where none resolves.

#include "http_test_server.h"
#include "installers/preflight.h"

#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <fstream>

using namespace sp;
using sp::test::Fault;
using sp::test::HttpTestServer;

class TestPreflight : public QObject
{
    Q_OBJECT

    HttpTestServer m_server;
    QTemporaryDir m_tmp;

    Artifact artifact(const std::string& url,
                      std::optional<std::uint64_t> size = std::nullopt) const
    {
        Artifact a;
        a.url = url;
        a.sha256 = std::string(64, 'a'); // pinned: plain http is allowed
        a.size = size;
        a.format = "tar.gz";
        return a;
    }

    FetchOptions options() const
    {
        FetchOptions o;
        o.downloader.cacheDir = m_tmp.path().toStdString() + "/cache";
        o.downloader.connectTimeout = std::chrono::seconds(5);
        return o;
    }

private slots:
    void initTestCase()
    {
        for (int i = 0; i < 6; ++i)
            m_server.addBlob("/a" + std::to_string(i) + ".tar.gz", std::string(1000 + i, 'x'));
        m_server.addBlob("/no-head.tar.gz", std::string(4321, 'y'));
        m_server.addBlob("/broken.tar.gz", "z");
        m_server.addBlob("/gone410.tar.gz", "z");
        QVERIFY2(m_server.start(), m_server.error().c_str());
    }

    void sixPresentArtifactsWithTheirSizes()
    {
        Runtime rt;
        rt.id = "six";
        for (int i = 0; i < 6; ++i)
            rt.artifacts.push_back(artifact(m_server.url("/a" + std::to_string(i) + ".tar.gz")));
        const auto start = std::chrono::steady_clock::now();
        const Preflight p = preflight({&rt}, options());
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        qInfo("preflight of 6 loopback artifacts: %.3f s", took.count());
        QVERIFY(!p.firstMissing());
        QCOMPARE(p.artifacts.size(), std::size_t(6));
        QVERIFY(p.sizesKnown);
        QCOMPARE(p.downloadBytes, std::uint64_t(6 * 1000 + 15)); // learned from Content-Length
        QCOMPARE(m_server.stats("/a0.tar.gz").bodyBytes, std::uint64_t(0)); // HEAD only
    }

    void aMissingArtifactMakesTheRuntimeUnavailable()
    {
        Runtime rt;
        rt.id = "gone";
        rt.artifacts = {artifact(m_server.url("/a0.tar.gz")),
                        artifact(m_server.url("/nothing.tar.gz")),
                        artifact(m_server.url("/gone410.tar.gz"))};
        m_server.setFault("/gone410.tar.gz", Fault::statusFor(410, -1));
        const Preflight p = preflight({&rt}, options());
        QVERIFY(p.firstMissing());
        QCOMPARE(p.firstMissing()->name, std::string("nothing.tar.gz"));
        QVERIFY2(p.missingReason().find("HTTP 404") != std::string::npos,
                 p.missingReason().c_str());
        QCOMPARE(p.artifacts[2].state, UrlState::Missing);
        QVERIFY(p.artifacts[2].reason.find("HTTP 410") != std::string::npos);
        m_server.clearFaults();
    }

    void aMirrorThatHasItSaves()
    {
        Runtime rt;
        rt.id = "mirrored";
        Artifact a = artifact(m_server.url("/nothing.tar.gz"));
        a.mirrors = {m_server.url("/a1.tar.gz")};
        rt.artifacts = {a};
        const Preflight p = preflight({&rt}, options());
        QVERIFY(!p.firstMissing());
        QCOMPARE(p.artifacts[0].url, m_server.url("/a1.tar.gz"));
    }

    void aServerThatRefusesHeadIsAskedForOneByte()
    {
        Runtime rt;
        rt.id = "no-head";
        rt.artifacts = {artifact(m_server.url("/no-head.tar.gz"))};
        m_server.setFault("/no-head.tar.gz", Fault::statusFor(405, 1));
        const Preflight p = preflight({&rt}, options());
        QCOMPARE(p.artifacts[0].state, UrlState::Present);
        QCOMPARE(p.artifacts[0].size.value_or(0), std::uint64_t(4321));
        QCOMPARE(m_server.stats("/no-head.tar.gz").rangeRequests, 1);
        m_server.clearFaults();
    }

    void aServerErrorIsUnknownNotMissing()
    {
        Runtime rt;
        rt.id = "flaky";
        rt.artifacts = {artifact(m_server.url("/broken.tar.gz"))};
        m_server.setFault("/broken.tar.gz", Fault::statusFor(503, -1));
        const Preflight p = preflight({&rt}, options());
        QVERIFY(!p.firstMissing());
        QCOMPARE(p.artifacts[0].state, UrlState::Unknown);
        m_server.clearFaults();
    }

    void aHostThatDoesNotResolveIsMissingOnlyWhileOthersResolve()
    {
        Runtime rt;
        rt.id = "dns";
        rt.artifacts = {artifact(m_server.url("/a0.tar.gz")),
                        artifact("http://stackpilot-preflight-test.invalid/x.tar.gz")};
        Preflight p = preflight({&rt}, options());
        QVERIFY(p.firstMissing());
        QVERIFY2(p.missingReason().find("does not resolve") != std::string::npos,
                 p.missingReason().c_str());
        // Nothing resolves: this machine is offline, which says nothing about the catalog.
        rt.artifacts = {artifact("http://stackpilot-preflight-test.invalid/x.tar.gz")};
        p = preflight({&rt}, options());
        QVERIFY(p.offline);
        QVERIFY(!p.firstMissing());
    }

    void anOfflineFolderIsCheckedInsteadOfTheNetwork()
    {
        const std::filesystem::path dir = m_tmp.path().toStdString() + "/offline";
        std::filesystem::create_directories(dir);
        std::ofstream(dir / "a2.tar.gz") << "bytes";
        Runtime rt;
        rt.id = "offline";
        rt.artifacts = {artifact(m_server.url("/a2.tar.gz")), artifact(m_server.url("/a3.tar.gz"))};
        FetchOptions o = options();
        o.offlineDir = dir;
        o.allowNetwork = false;
        m_server.resetStats();
        const Preflight p = preflight({&rt}, o);
        QCOMPARE(p.artifacts[0].source, std::string("offline"));
        QCOMPARE(p.artifacts[0].state, UrlState::Present);
        QCOMPARE(p.artifacts[1].state, UrlState::Missing);
        QCOMPARE(m_server.totalRequests(), 0);
    }
};

QTEST_GUILESS_MAIN(TestPreflight)
#include "test_preflight.moc"
