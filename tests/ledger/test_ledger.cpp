// The maintainers' ledger (issue 34): shared records checked, ingested into SQLite by record
// id, counted per profile and card by distinct installs. The abuse cases of the issue: a
// flood from one install, a gfx that contradicts the PCI id, a path or token in a field, a
// malformed, huge or deep record; and a crash mid-ingest (the real CLI, killed).

#include "app/common/ledger/ingest.h"
#include "detectors/nvidia_cc_table.h"
#include "detectors/pci_table.h"
#include "tests/support/cli_runner.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <csignal>
#include <fstream>
#include <random>

using namespace sp;
using namespace sp::ledger;
using nlohmann::json;

namespace {

std::string hex32(std::mt19937_64& rng)
{
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (int i = 0; i < 32; ++i)
        s += digits[rng() % 16];
    return s;
}

json record(std::mt19937_64& rng, const std::string& install, bool passed = true)
{
    return {{"schema", 1},
            {"record_id", hex32(rng)},
            {"install_id", install},
            {"at", "2026-11-28T19:58:21Z"},
            {"kind", "verify"},
            {"workload", "comfyui"},
            {"profile", "comfyui-rocm6.2"},
            {"catalog", "feed 142"},
            {"pci_id", "1002:73df"},
            {"revision", "c0"},
            {"arch", "gfx1031"},
            {"vram_class_gib", 12},
            {"driver", "6.8.5"},
            {"os", "linux"},
            {"os_build", "24.04"},
            {"runtimes", json::array({{{"id", "torch-rocm6.2"},
                                       {"version", "2.5.1"},
                                       {"sha256", {std::string(64, 'b')}}}})},
            {"passed", passed},
            {"known_issue", ""},
            {"decisive_line", passed ? "" : "rocBLAS error: Cannot read TensileLibrary.dat"},
            {"seconds", 1.25}};
}

void writeLines(const std::string& file, const std::vector<json>& records)
{
    std::ofstream out(file);
    for (const auto& r : records)
        out << r.dump() << "\n";
}

IngestChecks shippedChecks()
{
    IngestChecks c;
    c.profiles = {"comfyui-rocm6.2", "comfyui-cuda-linux"};
    c.pci = &PciTable::shipped();
    c.nvidia = &NvidiaCcTable::shipped();
    return c;
}

} // namespace

class TestLedger : public QObject
{
    Q_OBJECT
    std::mt19937_64 rng{42};

private slots:
    void aFloodFromOneInstallCountsOnce()
    {
        QTemporaryDir dir;
        const std::string install = hex32(rng);
        std::vector<json> flood;
        for (int i = 0; i < 10000; ++i)
            flood.push_back(record(rng, install));
        flood.push_back(record(rng, hex32(rng), false)); // one other PC, failing
        const std::string d = dir.path().toStdString();
        writeLines(d + "/flood.jsonl", flood);
        auto store = LedgerStore::open(d + "/l.db");
        QVERIFY(store.ok());
        auto report = ingest({d + "/flood.jsonl"}, shippedChecks(), *store);
        QVERIFY(report.ok());
        QCOMPARE(report->added, std::size_t(10001));
        QVERIFY(report->rejected.empty());
        auto rows = store->report();
        QVERIFY(rows.ok());
        QCOMPARE(rows->size(), std::size_t(1));
        QCOMPARE(rows->at(0).passes, 1LL);
        QCOMPARE(rows->at(0).failures, 1LL);
        QCOMPARE(rows->at(0).installs, 2LL);
        QCOMPARE(rows->at(0).decisiveLines,
                 std::vector<std::string>{"rocBLAS error: Cannot read TensileLibrary.dat"});
        // The same file again adds nothing.
        auto again = ingest({d + "/flood.jsonl"}, shippedChecks(), *store);
        QVERIFY(again.ok());
        QCOMPARE(again->added, std::size_t(0));
        QCOMPARE(again->duplicates, std::size_t(10001));
        QCOMPARE(*store->count(), 10001LL);
    }

    void aGfxThatContradictsThePciIdIsRejectedWithTheReason()
    {
        auto r = recordFromJson(record(rng, hex32(rng)), "r.json");
        QVERIFY(r.ok());
        QCOMPARE(contradiction(*r, shippedChecks()), std::string());
        r->arch = "gfx1100";
        const std::string why = contradiction(*r, shippedChecks());
        QVERIFY2(why.find("gfx1100 contradicts its card 1002:73df rev c0") != std::string::npos &&
                     why.find("gfx1031") != std::string::npos,
                 why.c_str());
        r->pciId = "10de:2335";
        r->arch = "sm_89"; // an H200 is 9.0
        QVERIFY(contradiction(*r, shippedChecks()).find("9.0") != std::string::npos);
        r->arch = "sm_90";
        QCOMPARE(contradiction(*r, shippedChecks()), std::string());
        r->profile = "not-in-the-catalog";
        QVERIFY(contradiction(*r, shippedChecks()).find("no profile") != std::string::npos);
    }

    void aPathOrATokenInAnyFieldIsRefused_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::newRow("linux path") << "decisive_line"
                                    << R"(File "/home/bob/ComfyUI/main.py")";
        QTest::newRow("windows path") << "decisive_line"
                                      << R"(C:\Users\Bob\sd\webui.bat failed)";
        QTest::newRow("hf token") << "decisive_line"
                                  << "token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123";
        QTest::newRow("e-mail") << "decisive_line"
                                << "contact bob@example.org";
        QTest::newRow("url") << "decisive_line"
                             << "fetch https://10.0.0.5/x failed";
        QTest::newRow("model file") << "decisive_line"
                                    << "loading llama-3.2-3b.Q4_K_M.gguf";
        QTest::newRow("host") << "decisive_line"
                              << "cannot reach bobs-pc.local";
        QTest::newRow("token in driver") << "driver"
                                         << "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    }

    void aPathOrATokenInAnyFieldIsRefused()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        json j = record(rng, hex32(rng), false);
        j[field.toStdString()] = value.toStdString();
        auto r = recordFromJson(j, "r.json");
        QVERIFY2(!r.ok(), value.toUtf8().constData());
        QVERIFY2(r.error().message.rfind("r.json: '" + field.toStdString() + "'", 0) == 0,
                 r.error().message.c_str());
    }

    void plainFailureWordsPass()
    {
        for (const char* line :
             {"RuntimeError: HIP error: invalid device function", "offloaded 12/24 layers to GPU",
              "hipErrorNoBinaryForGpu (98)", "Segmentation fault (core dumped)"})
            QVERIFY2(privateTextIn(line).empty(), line);
    }

    void malformedHugeOrDeepRecordsAreOneLineEach()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        std::ofstream(d + "/broken.json") << "{\"schema\": 1, \"record_id\": ";
        std::ofstream(d + "/huge.json") << "{\"x\": \"" << std::string(1 << 20, 'a') << "\"}";
        std::ofstream(d + "/deep.json") << std::string(5000, '[') << std::string(5000, ']');
        json extra = record(rng, hex32(rng));
        extra["user"] = "bob";
        std::ofstream(d + "/extra.json") << extra.dump();
        std::ofstream(d + "/issue.md") << "Steps...\n```json\n"
                                       << record(rng, hex32(rng)).dump(1) << "\n```\nthanks\n";
        auto store = LedgerStore::open(d + "/l.db");
        QVERIFY(store.ok());
        auto report = ingest({d}, shippedChecks(), *store);
        QVERIFY(report.ok());
        QCOMPARE(report->added, std::size_t(1)); // the issue body's record
        QCOMPARE(report->rejected.size(), std::size_t(4));
        for (const auto& line : report->rejected) {
            QVERIFY2(line.find('\n') == std::string::npos && line.size() < 300, line.c_str());
            QVERIFY2(line.rfind(d + "/", 0) == 0, line.c_str()); // names the file
        }
    }

    void migrationsRunOnceAndANewerSchemaIsRefused()
    {
        QTemporaryDir dir;
        const std::string db = dir.path().toStdString() + "/l.db";
        QVERIFY(LedgerStore::open(db).ok());
        QVERIFY(LedgerStore::open(db).ok()); // no second CREATE TABLE
        {
            auto sql = openSql(db);
            QVERIFY(sql.ok());
            QVERIFY((*sql)->change("INSERT INTO schema_version (version) VALUES (?)", {99LL}).ok());
        }
        auto newer = LedgerStore::open(db);
        QVERIFY(!newer.ok());
        QVERIFY2(newer.error().message.find("newer") != std::string::npos,
                 newer.error().message.c_str());
    }

    // kill -9 while the real CLI ingests 50,000 records, once it has committed a batch:
    // what was committed stays, the database opens, and the next ingest completes it.
    void aCrashMidIngestLosesNothing()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        const long long total = 50000;
        std::vector<json> records;
        for (long long i = 0; i < total; ++i)
            records.push_back(record(rng, hex32(rng)));
        writeLines(d + "/many.jsonl", records);
        qputenv("STACKPILOT_HOME", dir.path().toUtf8() + "/home");
        const QStringList args = {QStringLiteral("ledger"), QStringLiteral("ingest"),
                                  QString::fromStdString(d + "/many.jsonl"), QStringLiteral("--db"),
                                  QString::fromStdString(d + "/l.db")};
        QProcess p;
        p.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"), args);
        QVERIFY(p.waitForStarted());
        const auto committed = [&]() -> long long {
            auto sql = openSql(d + "/l.db");
            auto rows = sql ? (*sql)->query("SELECT COUNT(*) FROM records", {})
                            : Expected<std::vector<SqlRow>>(sql.error());
            return rows && !rows->empty() ? integerOf(rows->front().front()) : 0;
        };
        QVERIFY(QTest::qWaitFor([&] { return committed() > 0; }, 30000));
        ::kill(pid_t(p.processId()), SIGKILL);
        p.waitForFinished();
        auto store = LedgerStore::open(d + "/l.db");
        QVERIFY2(store.ok(), store.ok() ? "" : store.error().message.c_str());
        const long long kept = *store->count();
        qInfo("records committed before the kill: %lld of %lld", kept, total);
        QVERIFY(kept > 0 && kept < total);                    // the kill came mid-ingest
        QCOMPARE(kept % static_cast<long long>(kBatch), 0LL); // whole batches only
        const auto run = sp::test::runCliBinary(args, 120000);
        QVERIFY2(run.rc == 0, (run.out + run.err).c_str());
        QCOMPARE(*store->count(), total);
    }

    // ingest, then propose against a fixture catalog: 20 passing PCs make a profile
    // tested, 5 failing PCs on one driver demote another and draft a known issue; the
    // catalog's other files are copied byte for byte; the arguments are checked first.
    void proposeChangesStatusesByThePolicy()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        std::filesystem::create_directories(d + "/catalog");
        const json catalog = {
            {"schema_version", 1},
            {"profiles",
             {{{"id", "comfyui-rocm6.2"}, {"workload", "comfyui"}, {"status", "community"}},
              {{"id", "comfyui-cuda-linux"}, {"workload", "comfyui"}, {"status", "tested"}}}}};
        std::ofstream(d + "/catalog/fixture-profiles.json") << catalog.dump(2) << "\n";
        std::ofstream(d + "/catalog/fixture-other.json") << "{ \"schema_version\": 1 }\n";
        std::vector<json> records;
        for (int i = 0; i < 20; ++i)
            records.push_back(record(rng, hex32(rng)));
        for (int i = 0; i < 5; ++i) {
            json bad = record(rng, hex32(rng), false);
            bad["profile"] = "comfyui-cuda-linux";
            bad["pci_id"] = "10de:2335";
            bad["revision"] = "a1";
            bad["arch"] = "sm_90";
            bad["driver"] = "575.57.08";
            records.push_back(bad);
        }
        writeLines(d + "/r.jsonl", records);
        qputenv("STACKPILOT_HOME", dir.path().toUtf8() + "/home");
        const QString db = dir.path() + QStringLiteral("/l.db");
        const auto in = sp::test::runCliInProcess(
            {QStringLiteral("ledger"), QStringLiteral("ingest"),
             dir.path() + QStringLiteral("/r.jsonl"), QStringLiteral("--db"), db});
        QVERIFY2(in.rc == 0, (in.out + in.err).c_str());
        const auto propose = [&](const QString& out, const QString& now,
                                 const QString& from = QStringLiteral("/catalog")) {
            return sp::test::runCliInProcess(
                {QStringLiteral("ledger"), QStringLiteral("propose"), QStringLiteral("--db"), db,
                 QStringLiteral("--catalog-dir"), dir.path() + from, QStringLiteral("-o"), out,
                 QStringLiteral("--now"), now, QStringLiteral("--json")});
        };
        // Bad arguments: one line, nothing written.
        const auto same =
            propose(dir.path() + QStringLiteral("/catalog"), QStringLiteral("2026-11-28"));
        QCOMPARE(same.rc, 2);
        const auto badDate =
            propose(dir.path() + QStringLiteral("/out"), QStringLiteral("2026-13-40"));
        QCOMPARE(badDate.rc, 2);
        QVERIFY(!std::filesystem::exists(d + "/out"));

        const auto run = propose(dir.path() + QStringLiteral("/out"), QStringLiteral("2026-11-28"));
        QVERIFY2(run.rc == 0, (run.out + run.err).c_str());
        const json result = json::parse(run.out);
        QCOMPARE(result["changes"].size(), std::size_t(2));
        QCOMPARE(result["known_issue_drafts"].size(), std::size_t(1));
        QVERIFY(result["known_issue_drafts"][0]["driver_version"] == json("575.57.08"));
        std::ifstream changed(d + "/out/fixture-profiles.json");
        const json after = json::parse(changed);
        QVERIFY(after["profiles"][0]["status"] == json("tested"));
        QVERIFY(after["profiles"][0]["proof"]["passed_installs"] == json(20));
        QVERIFY(after["profiles"][1]["status"] == json("community"));
        QVERIFY(after["profiles"][1]["proof"]["failed_installs"] == json(5));
        // The counts per GPU family go with the proof: what the window of a PC with such a
        // card shows.
        QCOMPARE(after["profiles"][0]["proof"]["by_gpu"].dump(),
                 json::array({{{"arch", "gfx1031"},
                               {"passed_installs", 20},
                               {"failed_installs", 0},
                               {"installs", 20},
                               {"last_seen", "2026-11-28T19:58:21Z"}}})
                     .dump());
        QVERIFY(after["profiles"][1]["proof"]["by_gpu"][0]["arch"] == json("sm_90"));
        // Over the proposed catalog the same counts change nothing; with a new install's
        // failure, the tested profile keeps its status and its proof takes the new counts,
        // replaced in place.
        const auto again = propose(dir.path() + QStringLiteral("/again"),
                                   QStringLiteral("2026-11-28"), QStringLiteral("/out"));
        QVERIFY2(again.rc == 0, (again.out + again.err).c_str());
        QCOMPARE(json::parse(again.out)["changes"].size(), std::size_t(0));
        QCOMPARE(json::parse(again.out)["proof_updates"].size(), std::size_t(0));
        writeLines(d + "/more.jsonl", {record(rng, hex32(rng), false)});
        QCOMPARE(sp::test::runCliInProcess({QStringLiteral("ledger"), QStringLiteral("ingest"),
                                            dir.path() + QStringLiteral("/more.jsonl"),
                                            QStringLiteral("--db"), db})
                     .rc,
                 0);
        const auto updated = propose(dir.path() + QStringLiteral("/updated"),
                                     QStringLiteral("2026-11-28"), QStringLiteral("/out"));
        QVERIFY2(updated.rc == 0, (updated.out + updated.err).c_str());
        const json refreshed = json::parse(updated.out)["proof_updates"];
        QCOMPARE(refreshed.size(), std::size_t(1));
        QVERIFY(refreshed[0]["proof"]["by_gpu"][0]["failed_installs"] == json(1));
        std::ifstream patched(d + "/updated/fixture-profiles.json");
        const std::string text{std::istreambuf_iterator<char>(patched), {}};
        const json now = json::parse(text);
        QVERIFY(now["profiles"][0]["status"] == json("tested"));
        QVERIFY(now["profiles"][0]["proof"]["failed_installs"] == json(1));
        // Patched in place: the file keeps its lines, only the proof's line differs.
        std::ifstream before(d + "/out/fixture-profiles.json");
        const std::string old{std::istreambuf_iterator<char>(before), {}};
        QCOMPARE(std::count(text.begin(), text.end(), '\n'),
                 std::count(old.begin(), old.end(), '\n'));
        std::ifstream other(d + "/out/fixture-other.json");
        QCOMPARE(std::string(std::istreambuf_iterator<char>(other), {}),
                 std::string("{ \"schema_version\": 1 }\n"));
        // A window that ends before the records: nothing to change.
        const auto later =
            propose(dir.path() + QStringLiteral("/out2"), QStringLiteral("2027-12-31"));
        QVERIFY2(later.rc == 0, (later.out + later.err).c_str());
        QCOMPARE(json::parse(later.out)["changes"].size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestLedger)
#include "test_ledger.moc"
