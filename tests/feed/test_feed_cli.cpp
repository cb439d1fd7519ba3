// The catalog verbs end to end, over HTTPS on loopback: a feed published with
// `catalog publish` and signed with the real minisign is taken with `catalog update`,
// `catalog status` reports it and `plan` plans from it; a server that sends ten times
// a file's size, and no server at all, leave the installed feed as it was and the plan
// working.

#include "core/catalog/feed/store.h"
#include "core/catalog/feed/update.h"
#include "core/settings.h"
#include "feed_fixture.h"
#include "support/cli_runner.h"
#include "support/http_test_server.h"

#include <QtTest>

using namespace sp;
using namespace sp::test;

class TestFeedCli : public QObject
{
    Q_OBJECT

    fs::path dir, served, catalog, snapshot;
    KeyPair lab;
    HttpTestServer server;
    int serial = 0;

    CliRun cli(QStringList args) { return runCliInProcess(std::move(args)); }
    // Publishes the marked catalog as `version` under served/NAME with the CLI, signs it.
    QString publish(int version, const std::string& expires = "2099-01-01T00:00:00Z")
    {
        const std::string name = "f" + std::to_string(++serial);
        auto r = cli({QStringLiteral("catalog"), QStringLiteral("publish"), q(catalog),
                      QStringLiteral("-o"), q(served / name), QStringLiteral("--version"),
                      QString::number(version), QStringLiteral("--expires"),
                      QString::fromStdString(expires)});
        if (r.rc != 0 || !lab.sign(served / name / "manifest.json"))
            return {};
        return QString::fromStdString(server.url("/" + name));
    }
    CliRun update(const QString& url)
    {
        return cli({QStringLiteral("catalog"), QStringLiteral("update"), QStringLiteral("--feed"),
                    url, QStringLiteral("--pubkey"), QString::fromStdString(lab.line()),
                    QStringLiteral("--ca-file"), q(dir / "cert.pem")});
    }
    std::string planProfile()
    {
        auto r = cli({QStringLiteral("plan"), QStringLiteral("--workload"),
                      QStringLiteral("sdnext"), QStringLiteral("--hardware"), q(snapshot)});
        const auto at = r.out.find("Profile: ");
        return r.rc != 0 || at == std::string::npos
                   ? "rc " + std::to_string(r.rc) + ": " + r.err
                   : r.out.substr(at + 9, r.out.find(' ', at + 9) - at - 9);
    }

private slots:
    void initTestCase()
    {
        if (!haveMinisign())
            QSKIP("minisign is not installed (.ci/install-deps)");
        dir = fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "work";
        fs::remove_all(dir);
        fs::remove_all(feed::FeedStore().root());
        // Each run records its feeds in settings.json: a build folder's test home that keeps
        // them passes the limit of 64 after a dozen runs.
        fs::remove(Settings::defaultFile());
        served = dir / "served";
        catalog = dir / "catalog";
        fs::create_directories(served);
        fs::create_directories(catalog);
        snapshot = STACKPILOT_SOURCE_DIR "/tests/fuzz/seeds/snapshot/windows-6750xt.json";
        for (const auto& e : fs::directory_iterator(STACKPILOT_SOURCE_DIR "/profiles/catalog")) {
            std::string text = readAll(e.path());
            const std::string id = "sdnext-zluda-hip5.7-rocblas-gfx1031";
            for (auto at = text.find(id); at != std::string::npos; at = text.find(id, at + 1))
                text.insert(at + id.size(), "-feed");
            writeAll(catalog / e.path().filename(), text);
        }
        QVERIFY(lab.generate(dir, "lab"));
        QVERIFY(HttpTestServer::writeSelfSignedCertificate(dir / "cert.pem", dir / "key.pem",
                                                           "IP:127.0.0.1"));
        QVERIFY2(server.enableTls(dir / "cert.pem", dir / "key.pem"), server.error().c_str());
        server.serveDirectory(served);
        QVERIFY2(server.start(), server.error().c_str());
    }

    void updateOverHttpsIsUsedByStatusAndPlan()
    {
        auto before = cli({QStringLiteral("catalog"), QStringLiteral("status")});
        QCOMPARE(before.rc, 0);
        QVERIFY2(before.out.find("the shipped catalog") != std::string::npos, before.out.c_str());
        QCOMPARE(planProfile(), std::string("sdnext-zluda-hip5.7-rocblas-gfx1031"));
        const QString url = publish(11);
        QVERIFY(!url.isEmpty());
        auto r = update(url);
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("catalog feed 11 installed") != std::string::npos, r.out.c_str());
        auto after = cli({QStringLiteral("catalog"), QStringLiteral("status")});
        QVERIFY2(after.out.find("in use: feed 11 (stackpilot)") != std::string::npos,
                 after.out.c_str());
        QVERIFY2(after.out.find("source: " + url.toStdString()) != std::string::npos,
                 after.out.c_str());
        QCOMPARE(planProfile(), std::string("sdnext-zluda-hip5.7-rocblas-gfx1031-feed"));
        auto verify = cli({QStringLiteral("catalog"), QStringLiteral("verify"), url,
                           QStringLiteral("--pubkey"), QString::fromStdString(lab.line()),
                           QStringLiteral("--ca-file"), q(dir / "cert.pem")});
        QVERIFY2(verify.rc == 0 && verify.out.find("feed 11 verified") != std::string::npos,
                 verify.err.c_str());
    }
    void aServerSendingTenTimesTheSizeIsStopped()
    {
        const QString url = publish(12);
        const std::string name = url.toStdString().substr(url.toStdString().rfind('/'));
        const std::string real = readAll(served / name.substr(1) / "runtimes.json");
        std::string big;
        for (int i = 0; i < 10; ++i)
            big += real;
        server.addBlob(name + "/runtimes.json", big);
        const auto before = snapshotTree(feed::FeedStore().root());
        auto r = update(url);
        QVERIFY2(r.rc != 0, r.out.c_str());
        QVERIFY2(r.err.find("the catalog says " + std::to_string(real.size())) != std::string::npos,
                 r.err.c_str());
        QVERIFY(snapshotTree(feed::FeedStore().root()) == before);
        // Without a Content-Length the transfer itself stops at the listed size.
        server.setFault(name + "/runtimes.json", Fault::noLength(-1));
        r = update(url);
        server.clearFaults();
        QVERIFY2(r.rc != 0, r.out.c_str());
        QVERIFY2(r.err.find("more than the declared " + std::to_string(real.size())) !=
                     std::string::npos,
                 r.err.c_str());
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1);
        QVERIFY(snapshotTree(feed::FeedStore().root()) == before);
    }
    void offlineTheUpdateFailsAndThePlanStillWorks()
    {
        HttpTestServer gone;
        QVERIFY(gone.start());
        const QString url =
            QString::fromStdString("https://127.0.0.1:" + std::to_string(gone.port()) + "/feed");
        gone.stop();
        const auto before = snapshotTree(feed::FeedStore().root());
        auto r = update(url);
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.find("manifest.json") != std::string::npos, r.err.c_str());
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1);
        QVERIFY(snapshotTree(feed::FeedStore().root()) == before);
        QCOMPARE(planProfile(), std::string("sdnext-zluda-hip5.7-rocblas-gfx1031-feed"));
    }
    void rollbackGoesBackToTheVersionBefore()
    {
        QCOMPARE(update(publish(13)).rc, 0);
        auto r = cli({QStringLiteral("catalog"), QStringLiteral("rollback")});
        QVERIFY2(r.rc == 0 && r.out.find("feed 11 is in use again") != std::string::npos,
                 r.out.c_str());
        QCOMPARE((*feed::FeedStore().state())->active, std::string("v11"));
        // Rolled back, the next update takes the feed's newest again.
        QCOMPARE(update(publish(13)).rc, 0);
    }
    void anExpiredInstalledFeedStaysWithAWarning()
    {
        // Feed 20 expired in 2021: installed back then, it is still what plans use.
        const fs::path out = served / "old";
        feed::PublishOptions o;
        o.version = 20;
        o.expires = "2021-01-01T00:00:00Z";
        o.now = 1577836800; // 2020-01-01
        QVERIFY(feed::publishFeed(catalog, out, o));
        QVERIFY(lab.sign(out / "manifest.json"));
        feed::TrustOptions t;
        t.keys = {lab.publicKey()};
        t.now = o.now;
        QVERIFY(feed::updateFeed(feed::DirectorySource(out), t, feed::FeedStore()));
        auto s = cli({QStringLiteral("catalog"), QStringLiteral("status")});
        QVERIFY2(s.out.find("warning: feed 20 expired at 2021-01-01T00:00:00Z") !=
                     std::string::npos,
                 s.out.c_str());
        QCOMPARE(planProfile(), std::string("sdnext-zluda-hip5.7-rocblas-gfx1031-feed"));
        // Taken today, the same feed is refused.
        auto r = cli({QStringLiteral("catalog"), QStringLiteral("verify"), q(out),
                      QStringLiteral("--pubkey"), QString::fromStdString(lab.line())});
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("expired") != std::string::npos, r.err.c_str());
    }
    void usageErrors()
    {
        QCOMPARE(cli({QStringLiteral("catalog")}).rc, 2);
        QCOMPARE(cli({QStringLiteral("catalog"), QStringLiteral("publish"), q(catalog),
                      QStringLiteral("-o"), q(dir / "x")})
                     .rc,
                 2);
        QCOMPARE(cli({QStringLiteral("catalog"), QStringLiteral("update"), QStringLiteral("--feed"),
                      QStringLiteral("x"), QStringLiteral("--pubkey"), QStringLiteral("RWbad")})
                     .rc,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestFeedCli)
#include "test_feed_cli.moc"
