// settings.json "feeds": a feed taken once with `--pubkey` is kept there with its key
// (other keys of the file untouched), `catalog update` without flags takes the listed
// feeds with their keys, and a feed URL is https:// or plain http:// to loopback only.
// Feeds are published with `catalog publish`, signed with the real minisign and served
// over plain HTTP by the loopback server.

#include "core/catalog/feed/feed_list.h"
#include "core/catalog/feed/store.h"
#include "core/settings.h"
#include "feed_fixture.h"
#include "support/cli_runner.h"
#include "support/http_test_server.h"

#include <QtTest>
#include <algorithm>
#include <nlohmann/json.hpp>

using namespace sp;
using namespace sp::test;
using nlohmann::json;

class TestFeedSettings : public QObject
{
    Q_OBJECT

    fs::path dir, served, catalog, settingsFile;
    KeyPair lab, lab2;
    HttpTestServer server;

    CliRun cli(QStringList args) { return runCliInProcess(std::move(args)); }
    QString publish(const std::string& name, int version, const KeyPair& key)
    {
        if (!makeFeed(catalog, served / name, version, key))
            return {};
        return QString::fromStdString(server.url("/" + name));
    }
    json settingsJson() { return json::parse(readAll(settingsFile)); }

private slots:
    void initTestCase()
    {
        if (!haveMinisign())
            QSKIP("minisign is not installed (.ci/install-deps)");
        const fs::path home = qEnvironmentVariable("STACKPILOT_HOME").toStdString();
        dir = home / "work";
        fs::remove_all(dir);
        fs::remove_all(feed::FeedStore().root());
        settingsFile = Settings::defaultFile();
        fs::remove(settingsFile);
        served = dir / "served";
        catalog = STACKPILOT_SOURCE_DIR "/profiles/catalog";
        fs::create_directories(served);
        QVERIFY(lab.generate(dir, "lab"));
        QVERIFY(lab2.generate(dir, "lab2"));
        server.serveDirectory(served);
        QVERIFY2(server.start(), server.error().c_str());
    }

    void aFeedTakenWithItsKeyIsKeptInSettings()
    {
        fs::create_directories(settingsFile.parent_path());
        writeAll(settingsFile,
                 json{{"x_lab_note", {{"keep", {1, 2}}}},
                      {"mirrors", {{"github.com", {"https://mirror.lab.example/github.com"}}}}}
                     .dump(1));
        ;
        const QString url = publish("a", 5, lab);
        QVERIFY(url.startsWith(QStringLiteral("http://127.0.0.1:")));
        auto r = cli({QStringLiteral("catalog"), QStringLiteral("update"), QStringLiteral("--feed"),
                      url, QStringLiteral("--pubkey"), QString::fromStdString(lab.line())});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("catalog feed 5 installed") != std::string::npos, r.out.c_str());
        const json s = settingsJson();
        QVERIFY2(s["feeds"] == json::array({{{"url", url.toStdString()}, {"pubkey", lab.line()}}}),
                 s.dump().c_str());
        QVERIFY(s["x_lab_note"] == json({{"keep", {1, 2}}}));
        QVERIFY(s["mirrors"]["github.com"][0] == "https://mirror.lab.example/github.com");
        auto st = cli({QStringLiteral("catalog"), QStringLiteral("status")});
        QVERIFY2(st.out.find("feed in settings: " + url.toStdString() + " (key " +
                             feed::keyIdHex(lab.publicKey().keyId) + ")") != std::string::npos,
                 st.out.c_str());
        // Taken again: the entry is replaced, not repeated.
        r = cli({QStringLiteral("catalog"), QStringLiteral("update"), QStringLiteral("--feed"), url,
                 QStringLiteral("--pubkey"), QString::fromStdString(lab.line())});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QCOMPARE(settingsJson()["feeds"].size(), std::size_t(1));
    }

    void updateWithoutFlagsTakesTheListedFeedWithItsKey()
    {
        const QString url = publish("b", 6, lab2);
        // Signed by a key nobody named: refused, nothing changes.
        const auto before = snapshotTree(feed::FeedStore().root());
        auto r = cli(
            {QStringLiteral("catalog"), QStringLiteral("update"), QStringLiteral("--feed"), url});
        QVERIFY2(r.rc != 0 && r.err.find("unknown key") != std::string::npos, r.err.c_str());
        QVERIFY(snapshotTree(feed::FeedStore().root()) == before);
        // The lab's settings name it with its key: `catalog update` alone takes it.
        auto s = Settings::update(settingsFile, [&](Settings& x) {
            x.document = [&] {
                json d = json::parse(x.document);
                d["feeds"] = json::array({{{"url", url.toStdString()}, {"pubkey", lab2.line()}}});
                return d.dump(2);
            }();
            return Expected<void>{};
        });
        QVERIFY(s);
        r = cli({QStringLiteral("catalog"), QStringLiteral("update")});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("catalog feed 6 installed") != std::string::npos, r.out.c_str());
        auto st = cli({QStringLiteral("catalog"), QStringLiteral("status")});
        QVERIFY2(st.out.find("in use: feed 6") != std::string::npos &&
                     st.out.find("source: " + url.toStdString()) != std::string::npos,
                 st.out.c_str());
    }

    void plainHttpBeyondLoopbackIsRefused()
    {
        const auto before = snapshotTree(feed::FeedStore().root());
        const int requests = server.totalRequests();
        auto r = cli({QStringLiteral("catalog"), QStringLiteral("update"), QStringLiteral("--feed"),
                      QStringLiteral("http://feeds.example.invalid/lab")});
        QVERIFY(r.rc != 0);
        QVERIFY2(r.err.find("a feed must be https://") != std::string::npos, r.err.c_str());
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1L);
        QVERIFY(snapshotTree(feed::FeedStore().root()) == before);
        QCOMPARE(server.totalRequests(), requests);
        // The same URL in settings is an error naming the entry.
        writeAll(settingsFile,
                 json{{"feeds", {{{"url", "http://feeds.example.invalid/lab"}}}}}.dump());
        ;
        r = cli({QStringLiteral("catalog"), QStringLiteral("update")});
        QVERIFY(r.rc != 0);
        QVERIFY2(r.err.find("settings.json: \"feeds\"[0]: refusing feed") != std::string::npos,
                 r.err.c_str());
        QVERIFY(snapshotTree(feed::FeedStore().root()) == before);
    }

    void loopbackHttpOnly()
    {
        QVERIFY(feed::isLoopbackHttp("http://127.0.0.1:8080/feed"));
        QVERIFY(feed::isLoopbackHttp("http://127.1.2.3/feed"));
        QVERIFY(feed::isLoopbackHttp("http://LOCALHOST/feed"));
        QVERIFY(feed::isLoopbackHttp("http://[::1]:80/feed"));
        QVERIFY(!feed::isLoopbackHttp("http://127.0.0.1.example.org/feed"));
        QVERIFY(!feed::isLoopbackHttp("http://localhost.example.org/feed"));
        QVERIFY(!feed::isLoopbackHttp("http://10.0.0.1/feed"));
        QVERIFY(!feed::isLoopbackHttp("https://127.0.0.1/feed"));
        QVERIFY(feed::checkFeedUrl("https://lab.example/feed"));
        QVERIFY(!feed::checkFeedUrl("ftp://lab.example/feed"));
    }
};

QTEST_GUILESS_MAIN(TestFeedSettings)
#include "test_feed_settings.moc"
