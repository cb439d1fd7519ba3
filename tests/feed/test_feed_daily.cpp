// The window's daily feed check (installers/feed_daily_check.h) against a feed served
// over loopback HTTP and listed in settings.json: it takes a new version, asks nothing
// again within a day, asks again after one, keeps the installed feed when the server is
// gone, and does nothing on a machine that never took a feed.

#include "core/catalog/feed/store.h"
#include "core/settings.h"
#include "feed_fixture.h"
#include "installers/feed_daily_check.h"
#include "support/http_test_server.h"

#include <QDateTime>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace sp;
using namespace sp::test;
using nlohmann::json;

class TestFeedDaily : public QObject
{
    Q_OBJECT

    fs::path dir, served, catalog, settingsFile;
    KeyPair lab;
    HttpTestServer server;

private slots:
    void initTestCase()
    {
        if (!haveMinisign())
            QSKIP("minisign is not installed (.ci/install-deps)");
        dir = fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "daily";
        fs::remove_all(dir);
        served = dir / "served";
        catalog = STACKPILOT_SOURCE_DIR "/profiles/catalog";
        settingsFile = dir / "settings.json";
        fs::create_directories(served);
        QVERIFY(lab.generate(dir, "lab"));
        server.serveDirectory(served);
        QVERIFY2(server.start(), server.error().c_str());
    }

    void onceADayFromTheListedFeed()
    {
        const feed::FeedStore store(dir / "store");
        QVERIFY(makeFeed(catalog, served / "lab", 9, lab));
        const std::string url = server.url("/lab");
        writeAll(settingsFile, json{{"feeds", {{{"url", url}, {"pubkey", lab.line()}}}}}.dump(2));
        QCOMPARE(feed::knowledgeInUse(store).version, std::int64_t(0));
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();

        auto r = feed::dailyCheck(now, store, settingsFile);
        QVERIFY2(r.checked && r.installed, r.message.c_str());
        auto k = feed::knowledgeInUse(store);
        QCOMPARE(k.version, std::int64_t(9));
        const std::string published =
            json::parse(readAll(served / "lab" / "manifest.json"))["published"];
        QCOMPARE(k.published, published);
        QCOMPARE(k.date(), published.substr(0, 10));

        // Within the day: nothing is asked, even with a newer version waiting.
        QVERIFY(makeFeed(catalog, served / "lab", 10, lab));
        const int requests = server.totalRequests();
        r = feed::dailyCheck(now + 3600, store, settingsFile);
        QVERIFY2(!r.checked, r.message.c_str());
        QCOMPARE(server.totalRequests(), requests);
        QCOMPARE(feed::knowledgeInUse(store).version, std::int64_t(9));

        // A day later it is.
        r = feed::dailyCheck(now + feed::kDailyCheckSeconds, store, settingsFile);
        QVERIFY2(r.checked && r.installed, r.message.c_str());
        QCOMPARE(feed::knowledgeInUse(store).version, std::int64_t(10));

        // Offline: the reason, and the installed feed stays byte for byte.
        server.stop();
        const auto before = snapshotTree(store.root() / "v10");
        r = feed::dailyCheck(now + 2 * feed::kDailyCheckSeconds, store, settingsFile);
        QVERIFY(r.checked && !r.installed);
        QVERIFY2(r.message.find(url) != std::string::npos, r.message.c_str());
        QCOMPARE(feed::knowledgeInUse(store).version, std::int64_t(10));
        QVERIFY(snapshotTree(store.root() / "v10") == before);
    }

    void nothingWithoutAFeed()
    {
        const feed::FeedStore store(dir / "bare-store");
        writeAll(dir / "bare-settings.json", "{}");
        auto r =
            feed::dailyCheck(QDateTime::currentSecsSinceEpoch(), store, dir / "bare-settings.json");
        QVERIFY(!r.checked);
        QVERIFY2(r.message.find("no feed was ever taken") != std::string::npos, r.message.c_str());
        QVERIFY(!fs::exists(store.root() / "last-check.json"));
    }
};

QTEST_GUILESS_MAIN(TestFeedDaily)
#include "test_feed_daily.moc"
