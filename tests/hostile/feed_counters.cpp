// Hostile findings of issue 35 about the feed's trust state and its manifest, each
// written as the attack through the real stackpilot-cli: one rollback counter for every
// feed (item 6), a lock file without its holder (item 12, feed.lock), and the feed parts
// of item 15 (a doubled path, a future publication, expiry before publication, a key
// named twice in a signed manifest).

#include "core/catalog/feed/store.h"
#include "feed_support.h"

#include <QLockFile>
#include <QtTest>
#include <chrono>
#include <regex>

using namespace sp;
using namespace sp::test;

class TestHostileFeedCounters : public QObject
{
    Q_OBJECT

    HostileFeeds feeds;
    KeyPair lab, official;

    static std::string stateText() { return readAll(feed::FeedStore().root() / "state.json"); }
    CliRun update(const std::string& folder, const KeyPair& key)
    {
        return runCli(args({"catalog", "update", "--feed", paths::toUtf8(feeds.served / folder),
                            "--pubkey", key.line()}));
    }

private slots:
    void initTestCase()
    {
        if (!haveMinisign())
            QSKIP("minisign is not installed (.ci/install-deps)");
        QVERIFY(feeds.setUp("hostile-counters"));
        fs::remove_all(feed::FeedStore().root());
        QVERIFY(lab.generate(feeds.dir, "lab"));
        QVERIFY(official.generate(feeds.dir, "official"));
    }

    // A lab's feed at 500 and the official one at 143: each is taken against its own
    // counter; a version past 2^31 or 10,000 above the counter is refused with one line;
    // `catalog reset-feed` asks, and then lets the feed start again.
    void item6_labFeedDoesNotBlockOfficialFeed()
    {
        QVERIFY(feeds.publish("lab", "lab", 500, lab));
        QVERIFY(feeds.publish("official", "stackpilot", 143, official));
        auto r = update("lab", lab);
        QVERIFY2(r.rc == 0 && r.out.find("catalog feed 500 installed") != std::string::npos,
                 r.err.c_str());
        r = update("official", official);
        QVERIFY2(r.rc == 0 && r.out.find("catalog feed 143 installed") != std::string::npos,
                 r.err.c_str());
        auto st = *feed::FeedStore().state();
        QCOMPARE(st->active, std::string("v143"));
        const std::string labId = feed::keyIdHex(lab.publicKey().keyId);
        const std::string officialId = feed::keyIdHex(official.publicKey().keyId);
        QVERIFY(st->counterFor("lab", labId) && st->counterFor("lab", labId)->highest == 500);
        QVERIFY(st->counterFor("stackpilot", officialId) &&
                st->counterFor("stackpilot", officialId)->highest == 143);

        // 2^53, signed by a trusted key: refused, and nothing changes.
        const std::string before = stateText();
        QVERIFY(feeds.publish("huge", "stackpilot", 144, official, [](std::string& m) {
            replaceOnce(m, "\"version\": 144", "\"version\": 9007199254740992");
        }));
        r = update("huge", official);
        QVERIFY2(r.rc == 3 && r.err.find("above 2^31") != std::string::npos, r.err.c_str());
        QCOMPARE(lineCount(r.err), 1L);
        QVERIFY(feeds.publish("jump", "stackpilot", 143 + 10001, official));
        r = update("jump", official);
        QVERIFY2(r.rc == 3 &&
                     r.err.find("jumps more than 10000 past version 143") != std::string::npos,
                 r.err.c_str());
        QCOMPARE(stateText(), before);

        // Going back below the counter needs reset-feed, which asks first.
        QVERIFY(feeds.publish("older", "stackpilot", 100, official));
        QVERIFY2(update("older", official).err.find("refused (rollback)") != std::string::npos,
                 "an older official feed was taken without a reset");
        r = runCli(args({"catalog", "reset-feed", "stackpilot"}));
        QVERIFY2(r.rc == 2 && r.err.find("pass --yes") != std::string::npos, r.err.c_str());
        QVERIFY2(r.err.find("recorded: version 143, key " + officialId) != std::string::npos,
                 r.err.c_str());
        QCOMPARE(stateText(), before);
        r = runCli(args({"catalog", "reset-feed", "stackpilot", "--yes"}));
        QVERIFY2(r.rc == 0 && r.out.find("feed \"stackpilot\" reset") != std::string::npos,
                 r.err.c_str());
        r = update("older", official);
        QVERIFY2(r.rc == 0 && r.out.find("catalog feed 100 installed") != std::string::npos,
                 r.err.c_str());
        // The lab's counter was not touched.
        QVERIFY(feeds.publish("lab-old", "lab", 499, lab));
        QVERIFY(update("lab-old", lab).err.find("refused (rollback)") != std::string::npos);
    }

    // A feed.lock without holder information (a crash between creating it and writing
    // the holder) older than a few seconds does not block the feed; a live holder does.
    void item12_emptyFeedLockIsStale()
    {
        const fs::path lockFile = feed::FeedStore().root() / "feed.lock";
        writeAll(lockFile, "");
        fs::last_write_time(lockFile, fs::file_time_type::clock::now() - std::chrono::minutes(1));
        auto r = runCli(args({"catalog", "reset-feed", "lab", "--yes"}), cliEnvironment(), 8000);
        QVERIFY2(r.rc == 0 && r.out.find("feed \"lab\" reset") != std::string::npos, r.err.c_str());
        writeAll(lockFile, "\xff\xfe garbage"); // cut short or garbled: no holder either
        fs::last_write_time(lockFile, fs::file_time_type::clock::now() - std::chrono::minutes(1));
        r = runCli(args({"catalog", "reset-feed", "stackpilot", "--yes"}), cliEnvironment(), 8000);
        QVERIFY2(r.rc == 0, r.err.c_str());
        QLockFile held(q(lockFile)); // a live StackPilot's lock is respected
        QVERIFY(held.tryLock(0));
        r = runCli(args({"catalog", "reset-feed", "stackpilot", "--yes"}));
        QVERIFY2(r.rc == 1 && r.err.find("another StackPilot is changing the catalog feed") !=
                                  std::string::npos,
                 r.err.c_str());
    }

    void item15_feedSmallThings()
    {
        // A key named twice in a signed manifest: refused with the file and position.
        QVERIFY(feeds.publish("twice", "stackpilot", 101, official,
                              [](std::string& m) { replaceOnce(m, "{", "{\n  \"version\": 7,"); }));
        auto r = update("twice", official);
        const std::regex twice("twice/manifest\\.json:[0-9]+:[0-9]+: the key \"version\" "
                               "appears twice in one object");
        QVERIFY2(r.rc == 3 && std::regex_search(r.err, twice), r.err.c_str());
        QCOMPARE(lineCount(r.err), 1L);
        // Expiry before publication.
        QVERIFY(feeds.publish("backwards", "stackpilot", 102, official, [](std::string& m) {
            replaceOnce(m, "2099-01-01T00:00:00Z", "2020-01-01T00:00:00Z");
        }));
        r = update("backwards", official);
        QVERIFY2(r.rc == 3 && r.err.find("/expires: 2020-01-01T00:00:00Z is not after "
                                         "/published") != std::string::npos,
                 r.err.c_str());
        // Published in 2200: refused, never shown as -62855 day(s) old.
        QVERIFY(feeds.publish(
            "future", "stackpilot", 103, official,
            [](std::string& m) {
                const auto at = m.find("\"published\": \"") + 14;
                m.replace(at, 20, "2200-01-01T00:00:00Z");
            },
            "2300-01-01T00:00:00Z"));
        r = update("future", official);
        QVERIFY2(r.rc == 3 && r.err.find("is in the future") != std::string::npos, r.err.c_str());
        // A listed file that is missing: its path is named once.
        QVERIFY(feeds.publish("missing", "stackpilot", 104, official));
        fs::remove(feeds.served / "missing" / "runtimes.json");
        r = runCli(args({"catalog", "verify", paths::toUtf8(feeds.served / "missing") + "/",
                         "--pubkey", official.line()}));
        const std::string path = paths::toUtf8(feeds.served / "missing" / "runtimes.json");
        const auto first = r.err.find(path);
        QVERIFY2(r.rc == 3 && first != std::string::npos &&
                     r.err.find(path, first + 1) == std::string::npos &&
                     r.err.find("missing//") == std::string::npos,
                 r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestHostileFeedCounters)
#include "feed_counters.moc"
