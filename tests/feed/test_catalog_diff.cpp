// `catalog diff`: which plans of a machine (a snapshot of a Windows PC with an RX 6750
// XT) a new catalog would change, in words, for a plain catalog folder and for a signed
// feed served over loopback HTTP; and that diff installs nothing.

#include "core/catalog/feed/store.h"
#include "feed_fixture.h"
#include "support/cli_runner.h"
#include "support/http_test_server.h"

#include <QtTest>
#include <nlohmann/json.hpp>

using namespace sp;
using namespace sp::test;
using nlohmann::json;

namespace {

const std::string kProfile = "sdnext-zluda-hip5.7-rocblas-gfx1031";

// The shipped catalog copied to `out`, with `edit` applied to profiles.json.
void copyCatalog(const fs::path& out, const std::function<void(json&)>& edit)
{
    fs::create_directories(out);
    for (const auto& e : fs::directory_iterator(STACKPILOT_SOURCE_DIR "/profiles/catalog")) {
        std::string text = readAll(e.path());
        if (e.path().filename() == "profiles.json") {
            json doc = json::parse(text);
            edit(doc);
            text = doc.dump(2);
        }
        writeAll(out / e.path().filename(), text);
    }
}

} // namespace

class TestCatalogDiff : public QObject
{
    Q_OBJECT

    fs::path dir, snapshot, same, without, envChanged, proven;

    CliRun diff(QStringList extra)
    {
        QStringList a{QStringLiteral("catalog"), QStringLiteral("diff")};
        a << extra << QStringLiteral("--hardware") << q(snapshot);
        return runCliInProcess(a);
    }

private slots:
    void initTestCase()
    {
        dir = fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "diff";
        fs::remove_all(dir);
        fs::remove_all(feed::FeedStore().root());
        snapshot = STACKPILOT_SOURCE_DIR "/tests/fuzz/seeds/snapshot/windows-6750xt.json";
        same = dir / "same";
        without = dir / "without";
        envChanged = dir / "env";
        copyCatalog(same, [](json&) {});
        copyCatalog(without, [](json& doc) {
            auto& list = doc["profiles"];
            for (auto it = list.begin(); it != list.end(); ++it)
                if ((*it)["id"] == kProfile) {
                    list.erase(it);
                    break;
                }
        });
        proven = dir / "proven";
        copyCatalog(proven, [](json& doc) {
            for (auto& p : doc["profiles"])
                if (p["id"] == kProfile) {
                    // A demotion: a tested status would need every download pinned.
                    p["status"] = "experimental";
                    p["proof"] = {{"passed_installs", 2},
                                  {"failed_installs", 9},
                                  {"installs", 11},
                                  {"window_days", 180},
                                  {"first_seen", "2026-11-01T00:00:00Z"},
                                  {"last_seen", "2026-11-20T00:00:00Z"}};
                }
        });
        copyCatalog(envChanged, [](json& doc) {
            for (auto& p : doc["profiles"])
                if (p["id"] == kProfile)
                    p["env"]["MIOPEN_FIND_MODE"] = "3";
        });
    }

    void aRemovedProfileMovesThePlan()
    {
        auto r = diff({q(without)});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("With the catalog in " + paths::toUtf8(without)) != std::string::npos,
                 r.out.c_str());
        QVERIFY2(
            r.out.find("SD.Next would move from HIP SDK 5.7.1 + ZLUDA 3.9.5 + rocBLAS 5.7.1 (" +
                       kProfile + ") to ") != std::string::npos,
            r.out.c_str());
        QVERIFY2(r.out.find("\n1 plan(s) on this machine would change") != std::string::npos,
                 r.out.c_str());
        auto j =
            runCliInProcess({QStringLiteral("catalog"), QStringLiteral("diff"), q(without),
                             QStringLiteral("--hardware"), q(snapshot), QStringLiteral("--json")});
        const json doc = json::parse(j.out);
        QCOMPARE(doc["changes"].size(), std::size_t(1));
        QVERIFY(doc["changes"][0]["workload"] == "sdnext");
        QVERIFY(doc["changes"][0]["before"] == kProfile);
        QVERIFY(doc["changes"][0]["after"] != kProfile && doc["changes"][0]["after"] != "");
    }

    // Issue 34: a ledger proposal's status change is listed with the results behind it.
    void aStatusChangeIsListedWithItsProof()
    {
        auto r = diff({q(proven)});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("Status changes:\n  " + kProfile +
                            ": community -> experimental (passed on 2 PC(s), 9 failed, 11 "
                            "install(s) within 180 days (last: 2026-11-20))") != std::string::npos,
                 r.out.c_str());
        auto j = diff({q(proven), QStringLiteral("--json")});
        const json doc = json::parse(j.out);
        QCOMPARE(doc["status_changes"].size(), std::size_t(1));
        QVERIFY(doc["status_changes"][0]["after"] == "experimental");
        QVERIFY(diff({q(same)}).out.find("Status changes") == std::string::npos);
    }

    void theSameCatalogChangesNothing()
    {
        auto r = diff({q(same)});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("  no plan on this machine would change") != std::string::npos,
                 r.out.c_str());
    }

    void aChangedVariableIsNamed()
    {
        auto r = diff({q(envChanged)});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("SD.Next keeps " + kProfile +
                            " (HIP SDK 5.7.1 + ZLUDA 3.9.5 + rocBLAS 5.7.1); its settings would "
                            "change: MIOPEN_FIND_MODE") != std::string::npos,
                 r.out.c_str());
    }

    void aSignedFeedIsComparedAndNotInstalled()
    {
        if (!haveMinisign())
            QSKIP("minisign is not installed (.ci/install-deps)");
        KeyPair lab;
        QVERIFY(lab.generate(dir, "lab"));
        QVERIFY(makeFeed(without, dir / "served" / "f", 7, lab));
        HttpTestServer server;
        server.serveDirectory(dir / "served");
        QVERIFY2(server.start(), server.error().c_str());
        const auto before = snapshotTree(feed::FeedStore().root());
        auto r = diff({QString::fromStdString(server.url("/f")), QStringLiteral("--pubkey"),
                       QString::fromStdString(lab.line())});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("With feed 7 (stackpilot, published ") != std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find("SD.Next would move from ") != std::string::npos, r.out.c_str());
        QVERIFY(snapshotTree(feed::FeedStore().root()) == before);
        // Signed by a key nobody named: refused like an update.
        r = diff({QString::fromStdString(server.url("/f"))});
        QVERIFY(r.rc != 0);
        QVERIFY2(r.err.find("unknown key") != std::string::npos, r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCatalogDiff)
#include "test_catalog_diff.moc"
