// The loop of issue 34 on loopback: twenty StackPilot homes, each with its own install id,
// share a passing stand-in smoke test to a real nginx with WebDAV PUT; `ledger ingest` and
// `ledger propose` raise the stand-in profile to `tested`. Also: what is shown without
// --yes is what is sent, private text never leaves, and a ledger that is down costs nothing
// (the records wait, and the backoff defers the next try).

#include "app/common/ledger/share.h"
#include "app/gui/i18n.h"
#include "app/gui/models/plan_view.h"
#include "core/catalog/loader.h"
#include "core/select/select.h"
#include "tests/feed/feed_fixture.h"
#include "tests/ledger/nginx_fixture.h"
#include "tests/support/cli_runner.h"
#include "tests/support/http_test_server.h"
#include "tests/support/loopback.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QUrlQuery>
#include <fstream>
#include <set>
#include <unistd.h>

using namespace sp;
using namespace sp::ledger;
using nlohmann::json;
namespace fs = std::filesystem;
using sp::test::Nginx;

namespace {

const std::string kForm = "https://github.com/stackpilot/catalog/issues/new?template=result.yml";

EvidenceRecord passing(const std::string& reason = {}, bool passed = true)
{
    EvidenceRecord e;
    e.kind = EvidenceKind::Verify;
    e.at = "2026-11-20T10:00:00Z";
    e.machine = {"1002:73df rev c0", "gfx1031", "6.8.5", "linux", "24.04"};
    e.workload = "standin";
    e.profile = "standin-rocm";
    e.catalog = "shipped";
    e.passed = passed;
    e.reason = reason;
    e.seconds = 1.5;
    return e;
}

void writeFixtureCatalog(const std::string& dir)
{
    fs::create_directories(dir);
    const json doc = {{"schema_version", 1},
                      {"workloads",
                       {{{"id", "standin"},
                         {"name", "Stand-in"},
                         {"command", {"true"}},
                         {"references", {"https://example.org/standin"}}}}},
                      {"profiles",
                       {{{"id", "standin-rocm"},
                         {"workload", "standin"},
                         {"status", "community"},
                         {"match", {{"os", {"linux", "windows"}}}},
                         {"references", {"https://example.org/standin"}}}}}};
    std::ofstream(dir + "/fixture-standin.json") << doc.dump(2) << "\n";
}

// `stackpilot-cli evidence share ...` as the real binary, in `home`.
sp::test::CliRun share(const std::string& home, const QStringList& extra)
{
    qputenv("STACKPILOT_HOME", QByteArray::fromStdString(home));
    QStringList args = {QStringLiteral("evidence"), QStringLiteral("share"),
                        QStringLiteral("--no-probes"), QStringLiteral("--sysfs-root"),
                        QString::fromStdString(home + "/no-sys")};
    return sp::test::runCliBinary(args + extra);
}

} // namespace

class TestShare : public QObject
{
    Q_OBJECT
    void shareFromTwentyHomes(Nginx& nginx, const std::string& d)
    {
        std::set<std::string> installs;
        for (int i = 0; i < 20; ++i) {
            const std::string home = d + "/home" + std::to_string(i);
            qputenv("STACKPILOT_HOME", QByteArray::fromStdString(home));
            QVERIFY(EvidenceStore().add(passing()).ok());
            const auto shown = share(home, {});
            QVERIFY2(shown.rc == 0, (shown.out + shown.err).c_str());
            QCOMPARE(nginx.stored(), std::size_t(i)); // shown, not sent
            const auto sent = share(home, {QStringLiteral("--yes"), QStringLiteral("--ledger"),
                                           QString::fromStdString(nginx.url())});
            QVERIFY2(sent.rc == 0 && sent.out.find("1 sent") != std::string::npos,
                     (sent.out + sent.err).c_str());
            std::ifstream idFile(home + "/config/install-id.json");
            installs.insert(json::parse(idFile)["id"].get<std::string>());
            // Shared once: a second --yes sends nothing new.
            const auto again = share(home, {QStringLiteral("--yes"), QStringLiteral("--ledger"),
                                            QString::fromStdString(nginx.url())});
            QVERIFY2(again.out.find("0 record(s) queued") != std::string::npos, again.out.c_str());
        }
        QCOMPARE(installs.size(), std::size_t(20));
        QCOMPARE(nginx.stored(), std::size_t(20));
    }

    // The shipped catalog plus the stand-in, ingested against and proposed over.
    void ingestAndPropose(const Nginx& nginx, const std::string& d)
    {
        fs::create_directories(d + "/catalog");
        for (const auto& e : fs::directory_iterator(STACKPILOT_SOURCE_DIR "/profiles/catalog"))
            fs::copy_file(e.path(), d + "/catalog/" + e.path().filename().string(),
                          fs::copy_options::overwrite_existing);
        writeFixtureCatalog(d + "/catalog");
        const QString db = QString::fromStdString(d + "/ledger.db");
        const QString catalog = QString::fromStdString(d + "/catalog");
        const auto in =
            sp::test::runCliBinary({QStringLiteral("ledger"), QStringLiteral("ingest"),
                                    QString::fromStdString(nginx.folder()), QStringLiteral("--db"),
                                    db, QStringLiteral("--catalog-dir"), catalog});
        QVERIFY2(in.rc == 0 && in.out.find("20 added") != std::string::npos,
                 (in.out + in.err).c_str());
        const auto proposed = sp::test::runCliBinary(
            {QStringLiteral("ledger"), QStringLiteral("propose"), QStringLiteral("--db"), db,
             QStringLiteral("--catalog-dir"), catalog, QStringLiteral("-o"),
             QString::fromStdString(d + "/proposed"), QStringLiteral("--now"),
             QStringLiteral("2026-11-28")});
        QVERIFY2(proposed.rc == 0, (proposed.out + proposed.err).c_str());
        QVERIFY2(proposed.out.find("standin-rocm: community -> tested (20 installs passed") !=
                     std::string::npos,
                 proposed.out.c_str());
    }

    // catalog publish, minisign, an HTTPS feed on loopback, a new home's update and plan.
    void publishAndUpdate(const std::string& d)
    {
        sp::test::KeyPair lab;
        QVERIFY(lab.generate(d, "lab"));
        const auto published = sp::test::runCliBinary(
            {QStringLiteral("catalog"), QStringLiteral("publish"),
             QString::fromStdString(d + "/proposed"), QStringLiteral("-o"),
             QString::fromStdString(d + "/served/f1"), QStringLiteral("--version"),
             QStringLiteral("7"), QStringLiteral("--expires"),
             QStringLiteral("2099-01-01T00:00:00Z"), QStringLiteral("--report-form"),
             QString::fromStdString(kForm)});
        QVERIFY2(published.rc == 0, (published.out + published.err).c_str());
        QVERIFY(lab.sign(d + "/served/f1/manifest.json"));
        sp::test::HttpTestServer server;
        QVERIFY(sp::test::HttpTestServer::writeSelfSignedCertificate(
            d + "/cert.pem", d + "/key.pem", "IP:127.0.0.1"));
        QVERIFY(server.enableTls(d + "/cert.pem", d + "/key.pem"));
        server.serveDirectory(d + "/served");
        QVERIFY(server.start());
        qputenv("STACKPILOT_HOME", QByteArray::fromStdString(d + "/newhome"));
        const auto updated = sp::test::runCliBinary(
            {QStringLiteral("catalog"), QStringLiteral("update"), QStringLiteral("--feed"),
             QString::fromStdString(server.url("/f1")), QStringLiteral("--pubkey"),
             QString::fromStdString(lab.line()), QStringLiteral("--ca-file"),
             QString::fromStdString(d + "/cert.pem")});
        QVERIFY2(updated.rc == 0, (updated.out + updated.err).c_str());
        const auto plan = sp::test::runCliBinary(
            {QStringLiteral("plan"), QStringLiteral("--workload"), QStringLiteral("standin"),
             QStringLiteral("--hardware"),
             QStringLiteral(STACKPILOT_SOURCE_DIR
                            "/tests/fuzz/seeds/snapshot/windows-6750xt.json")});
        QVERIFY2(
            plan.out.find(
                "Other PCs: passed on 20 PCs with a gfx1031 card, 0 failed (last: 2026-11-20)") !=
                std::string::npos,
            (plan.out + plan.err).c_str());
        QVERIFY2(plan.out.find("Profile: standin-rocm (tested)") != std::string::npos,
                 plan.out.c_str());
        windowWordsOfTheNewHome();
        reportFormFromTheFeed(d + "/newhome");
    }

    // The card's words in the new home, from the catalog it now plans with (the installed
    // feed) on the RX 6750 XT, whose family (gfx1031) the twenty homes reported.
    void windowWordsOfTheNewHome()
    {
        gui::setLanguage("en"); // the English plurals
        CatalogLoadOptions builtinOnly;
        builtinOnly.userDir = false;
        auto loaded = loadCatalog(builtinOnly);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        auto snap = loadSnapshotFile(STACKPILOT_SOURCE_DIR
                                     "/tests/fuzz/seeds/snapshot/windows-6750xt.json");
        QVERIFY(snap.ok());
        const gui::PlanView v =
            gui::buildPlanView(loaded->catalog, *snap, "standin",
                               makePlan(*snap, loaded->catalog, "standin", SelectSettings{}));
        QVERIFY2(v.othersEvidence.startsWith(QStringLiteral(
                     "Passed on 20 PCs with a graphics card like yours, 0 failed (last: ")),
                 qPrintable(v.othersEvidence));
    }

    // The feed names a report form and no ledger: `evidence share --yes` gives the form's
    // address with the record filled in, the same record it showed.
    void reportFormFromTheFeed(const std::string& home)
    {
        qunsetenv("STACKPILOT_LEDGER_URL");
        QVERIFY(EvidenceStore().add(passing()).ok());
        const auto shown = share(home, {QStringLiteral("--json")});
        QVERIFY2(shown.rc == 0, (shown.out + shown.err).c_str());
        const auto sent = share(home, {QStringLiteral("--yes")});
        QVERIFY2(sent.rc == 0 &&
                     sent.out.find("send each with the feed's report form") != std::string::npos,
                 (sent.out + sent.err).c_str());
        const auto at = sent.out.find(kForm + "&title=");
        QVERIFY2(at != std::string::npos, sent.out.c_str());
        const QUrl url(QString::fromStdString(sent.out.substr(at, sent.out.find('\n', at) - at)));
        const QString record =
            QUrlQuery(url).queryItemValue(QStringLiteral("record"), QUrl::FullyDecoded);
        // The same record; its ids are made when it is shared (docs/LEDGER.md).
        json filled = json::parse(record.toStdString());
        json before = json::parse(shown.out).at(0);
        for (const char* id : {"record_id", "install_id"}) {
            QVERIFY(filled.at(id).get<std::string>().size() == 32);
            filled.erase(id);
            before.erase(id);
        }
        QCOMPARE(filled.dump(), before.dump());
        QVERIFY(QUrlQuery(url)
                    .queryItemValue(QStringLiteral("title"), QUrl::FullyDecoded)
                    .startsWith(QStringLiteral("Result: standin-rocm on 1002:73df")));
    }

private slots:
    // Twenty homes share to nginx; the maintainer ingests, proposes, publishes and signs;
    // a new home updates from that feed and its plan says what the other PCs showed.
    void twentyHomesShareAndTheProfileBecomesTested()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        Nginx nginx(d + "/nginx");
        if (!nginx.started())
            QSKIP("no nginx (Debian's nginx-core; .ci/install-deps has it)");
        if (!sp::test::haveMinisign())
            QSKIP("minisign is not installed (.ci/install-deps)");
        shareFromTwentyHomes(nginx, d);
        if (QTest::currentTestFailed())
            return;
        ingestAndPropose(nginx, d);
        if (QTest::currentTestFailed())
            return;
        publishAndUpdate(d);
    }

    void privateTextNeverLeaves()
    {
        const auto line = shareableLine(
            R"(OSError: [WinError 126] C:\Users\Zorbulon\sd\torch\lib\c10_hip.dll; token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123 from https://bob.example.org/x)");
        QVERIFY2(line.find("Zorbulon") == std::string::npos &&
                     line.find("hf_AbCd") == std::string::npos &&
                     line.find("example.org") == std::string::npos && !line.empty(),
                 line.c_str());
        QVERIFY2(line.find("WinError 126") != std::string::npos, line.c_str());
        auto r = shareable(
            passing("loading /home/zorbulon/models/llama-3.2-3b.Q4_K_M.gguf failed", false),
            randomHex32(), 12288);
        QVERIFY(r.ok());
        QVERIFY2(r->decisiveLine.find("zorbulon") == std::string::npos &&
                     r->decisiveLine.find("gguf") == std::string::npos,
                 r->decisiveLine.c_str());
        QCOMPARE(r->vramClassGib, 12);
        QCOMPARE(r->pciId, std::string("1002:73df"));
        QCOMPARE(r->revision, std::string("c0"));
    }

    void aLedgerThatIsDownCostsNothing()
    {
        QTemporaryDir dir;
        const fs::path queue = dir.path().toStdString() + "/queue";
        auto r = shareable(passing(), randomHex32(), 0);
        QVERIFY(r.ok());
        QVERIFY(enqueue(queue, *r).ok());
        const std::string closed =
            "http://127.0.0.1:" + std::to_string(sp::test::freePort()) + "/ledger";
        const auto now = std::chrono::system_clock::now();
        const auto first = sendQueue(queue, closed, now, false);
        QCOMPARE(first.sent, std::size_t(0));
        QCOMPARE(first.waiting, std::size_t(1));
        QCOMPARE(first.errors.size(), std::size_t(1));
        // Within the backoff nothing is tried; after it, it is.
        QVERIFY(sendQueue(queue, closed, now + std::chrono::seconds(30), false).deferred);
        QVERIFY(!sendQueue(queue, closed, now + std::chrono::seconds(61), false).deferred);
        QVERIFY(fs::exists(queue / (r->recordId + ".json"))); // still there
        QVERIFY(!sendableUrl("http://ledger.example.org/x"));
        QVERIFY(sendableUrl("https://ledger.example.org/x"));
        QVERIFY(sendableUrl("http://127.0.0.1:8080/ledger"));
    }

    void theInstallIdIsRotatedYearly()
    {
        QTemporaryDir dir;
        const fs::path file = dir.path().toStdString() + "/install-id.json";
        auto a = installId(file, 2026);
        auto b = installId(file, 2026);
        auto c = installId(file, 2027);
        QVERIFY(a.ok() && b.ok() && c.ok());
        QCOMPARE(*a, *b);
        QVERIFY(*c != *a);
    }
};

QTEST_GUILESS_MAIN(TestShare)
#include "test_share.moc"
