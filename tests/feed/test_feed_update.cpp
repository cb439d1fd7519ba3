// The trust rules of a catalog feed, with feeds published and signed the way a
// maintainer does it (publishFeed + the real minisign) and read from a folder: every
// attack is refused with a one-line reason and leaves the installed feed byte for
// byte as it was; a good feed is switched to and is what the loader then reads.

#include "core/catalog/feed/store.h"
#include "core/catalog/feed/update.h"
#include "core/catalog/loader.h"
#include "feed_fixture.h"

#include <QtTest>
#include <algorithm>
#include <nlohmann/json.hpp>

using namespace sp;
using namespace sp::test;

namespace {

const std::string kProfile = "sdnext-zluda-hip5.7-rocblas-gfx1031";

// The shipped catalog with one profile renamed, so a plan shows which catalog it used.
void writeMarkedCatalog(const fs::path& out, const std::string& mark)
{
    fs::create_directories(out);
    for (const auto& e : fs::directory_iterator(STACKPILOT_SOURCE_DIR "/profiles/catalog")) {
        std::string text = readAll(e.path());
        for (auto at = text.find(kProfile); at != std::string::npos;
             at = text.find(kProfile, at + kProfile.size() + mark.size()))
            text.insert(at + kProfile.size(), mark);
        writeAll(out / e.path().filename(), text);
    }
}

bool hasProfile(const Catalog& c, const std::string& id)
{
    return std::any_of(c.profiles.begin(), c.profiles.end(),
                       [&](const auto& p) { return p.id == id; });
}

} // namespace

class TestFeedUpdate : public QObject
{
    Q_OBJECT

    fs::path dir, catalog;
    KeyPair first, second, lab, stranger;
    int serial = 0;

    feed::TrustOptions trust(std::vector<feed::PublicKey> keys = {}) const
    {
        feed::TrustOptions t;
        t.keys = keys.empty() ? std::vector<feed::PublicKey>{first.publicKey()} : keys;
        return t;
    }
    fs::path newFeed(std::int64_t version, const KeyPair& key,
                     const std::string& expires = "2099-01-01T00:00:00Z")
    {
        const fs::path out = dir / ("feed-" + std::to_string(++serial));
        if (!makeFeed(catalog, out, version, key, expires))
            return {};
        return out;
    }
    // Rewrites the manifest's entry for `name` after its bytes changed, and signs again.
    void relist(const fs::path& feedDir, const std::string& name, const KeyPair& key,
                std::int64_t sizeDelta = 0)
    {
        auto m = feed::parseManifest(readAll(feedDir / "manifest.json"), "manifest.json");
        QVERIFY(m);
        for (auto& f : m->files)
            if (f.path == name) {
                f.size = fs::file_size(feedDir / name) + static_cast<std::uint64_t>(sizeDelta);
                f.sha256 = *feed::sha256OfFile(feedDir / name);
            }
        writeAll(feedDir / "manifest.json", feed::toJsonText(*m));
        QVERIFY(key.sign(feedDir / "manifest.json"));
    }
    Expected<feed::UpdateResult> update(const fs::path& feedDir, const feed::TrustOptions& t)
    {
        return feed::updateFeed(feed::DirectorySource(feedDir), t, feed::FeedStore());
    }
    void refused(const fs::path& feedDir, const std::string& reason, const feed::TrustOptions& t)
    {
        const auto before = snapshotTree(feed::FeedStore().root());
        auto r = update(feedDir, t);
        QVERIFY2(!r, "the feed was taken");
        QVERIFY2(r.error().message.find(reason) != std::string::npos, r.error().message.c_str());
        QVERIFY2(r.error().message.find('\n') == std::string::npos, r.error().message.c_str());
        QVERIFY(snapshotTree(feed::FeedStore().root()) == before);
    }

private slots:
    void initTestCase()
    {
        if (!haveMinisign())
            QSKIP("minisign is not installed (.ci/install-deps)");
        dir = fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "work";
        fs::remove_all(dir);
        fs::create_directories(dir);
        catalog = dir / "catalog";
        writeMarkedCatalog(catalog, "-feed");
        QVERIFY(first.generate(dir, "first"));
        QVERIFY(second.generate(dir, "second"));
        QVERIFY(lab.generate(dir, "lab"));
        QVERIFY(stranger.generate(dir, "stranger"));
    }
    // Every test starts from feed 10 installed.
    void init()
    {
        fs::remove_all(feed::FeedStore().root());
        auto r = update(newFeed(10, first), trust());
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->outcome, feed::Outcome::Installed);
    }

    void theLoaderReadsTheInstalledFeed()
    {
        auto loaded = loadCatalog({});
        QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
        QVERIFY(hasProfile(loaded->catalog, kProfile + "-feed"));
        QVERIFY(!hasProfile(loaded->catalog, kProfile));
        QCOMPARE((*feed::FeedStore().state())->active, std::string("v10"));
    }
    void aFlippedByteInACatalogFileIsRefused()
    {
        const fs::path f = newFeed(11, first);
        flipByte(f / "profiles.json", 100);
        refused(f, "SHA-256", trust());
    }
    void aFlippedByteInTheManifestIsRefused()
    {
        const fs::path f = newFeed(11, first);
        flipByte(f / "manifest.json", 30);
        refused(f, "signature does not match", trust());
    }
    void anUnknownKeyIsRefused() { refused(newFeed(11, stranger), "unknown key", trust()); }
    void aLowerVersionIsRefused() { refused(newFeed(9, first), "rollback", trust()); }
    void anExpiredManifestIsRefused()
    {
        const fs::path f = newFeed(11, first, "2030-01-01T00:00:00Z");
        auto t = trust();
        t.now = 1924992000; // 2031-01-01
        refused(f, "expired at 2030-01-01T00:00:00Z", t);
    }
    void aWrongSizeIsRefused()
    {
        const fs::path f = newFeed(11, first);
        relist(f, "runtimes.json", first, -1); // listed one byte shorter than served
        refused(f, "larger than", trust());
    }
    void aCatalogThatDoesNotLoadIsNeverSwitchedTo()
    {
        const fs::path f = newFeed(11, first);
        writeAll(f / "profiles.json", "{\"schema_version\": 1, \"profiles\": [{\"id\": 3}]}");
        relist(f, "profiles.json", first);
        refused(f, "does not load", trust());
    }
    void aFeedForANewerStackPilotIsSkipped()
    {
        const fs::path f = newFeed(11, first);
        auto m = *feed::parseManifest(readAll(f / "manifest.json"), "m");
        m.minStackPilot = "99.0";
        writeAll(f / "manifest.json", feed::toJsonText(m));
        QVERIFY(first.sign(f / "manifest.json"));
        const auto before = snapshotTree(feed::FeedStore().root());
        auto r = update(f, trust());
        QVERIFY(r);
        QCOMPARE(r->outcome, feed::Outcome::Skipped);
        QVERIFY2(r->message.find("needs StackPilot 99.0") != std::string::npos, r->message.c_str());
        QVERIFY(snapshotTree(feed::FeedStore().root()) == before);
    }
    void theSecondShippedKeyIsAccepted()
    {
        auto r = update(newFeed(11, second), trust({first.publicKey(), second.publicKey()}));
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->outcome, feed::Outcome::Installed);
        QCOMPARE(r->keyId, feed::keyIdHex(second.publicKey().keyId));
    }
    void aLabKeyIsAcceptedOnlyWhenGiven()
    {
        const fs::path f = newFeed(11, lab);
        refused(f, "unknown key", trust());
        auto r = update(f, trust({first.publicKey(), lab.publicKey()}));
        QVERIFY2(r, r ? "" : r.error().message.c_str());
    }
    void threeAreKeptAndRollbackGoesBack()
    {
        for (int v : {11, 12, 13})
            QVERIFY(update(newFeed(v, first), trust()));
        const auto kept = feed::FeedStore().kept();
        QCOMPARE(kept.size(), std::size_t{3});
        QCOMPARE(kept.back().manifest.version, std::int64_t{11});
        auto back = feed::FeedStore().rollback();
        QVERIFY(back);
        QCOMPARE(back->manifest.version, std::int64_t{12});
        QCOMPARE((*feed::FeedStore().state())->active, std::string("v12"));
        // The rollback floor stays at the highest version ever installed.
        refused(newFeed(11, first), "rollback", trust());
        auto again = update(newFeed(13, first), trust());
        QVERIFY(again);
        QCOMPARE(again->outcome, feed::Outcome::Installed);
        QCOMPARE((*feed::FeedStore().state())->active, std::string("v13"));
        auto same = update(newFeed(13, first), trust());
        QVERIFY(same);
        QCOMPARE(same->outcome, feed::Outcome::UpToDate);
    }
    void aLegacySignatureIsAccepted()
    {
        const fs::path out = dir / "legacy";
        feed::PublishOptions o;
        o.version = 11;
        o.expires = "2099-01-01T00:00:00Z";
        QVERIFY(feed::publishFeed(catalog, out, o));
        QVERIFY(first.sign(out / "manifest.json", true));
        QVERIFY(update(out, trust()));
    }
    // A state.json written before there was one counter per feed: its single floor goes
    // to the feed and key in use; one above 2^31 (the lock-out) is dropped.
    void aSingleCounterOfAnOlderStateIsMigrated()
    {
        const fs::path stateFile = feed::FeedStore().root() / "state.json";
        auto legacy = [&](std::int64_t highest) {
            auto j = nlohmann::json::parse(readAll(stateFile));
            j.erase("counters");
            j["highest_version"] = highest;
            writeAll(stateFile, j.dump(2));
        };
        legacy(40);
        const std::string id = feed::keyIdHex(first.publicKey().keyId);
        auto st = *feed::FeedStore().state();
        QVERIFY(st->counterFor("stackpilot", id) &&
                st->counterFor("stackpilot", id)->highest == 40);
        refused(newFeed(39, first), "older than version 40", trust());
        // Another key's feed of the same name has a floor of its own.
        QVERIFY(update(newFeed(12, lab), trust({first.publicKey(), lab.publicKey()})));
        legacy(std::int64_t{1} << 53);
        st = *feed::FeedStore().state();
        QVERIFY(st->counters.empty());
        QVERIFY(update(newFeed(11, first), trust()));
    }
    void publishRefusesACatalogThatDoesNotLoad()
    {
        const fs::path broken = dir / "broken";
        fs::create_directories(broken);
        writeAll(broken / "profiles.json", "{\"schema_version\": 1, \"profiles\": [{}]}");
        feed::PublishOptions o;
        o.version = 3;
        o.expires = "2099-01-01T00:00:00Z";
        auto r = feed::publishFeed(broken, dir / "broken-out", o);
        QVERIFY(!r);
        QVERIFY2(r.error().message.find("does not load") != std::string::npos,
                 r.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestFeedUpdate)
#include "test_feed_update.moc"
