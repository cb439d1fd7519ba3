// This machine's evidence (core/evidence): records kept across processes, the verdicts
// selection ranks by (passed, failed, unverified after a driver update, another card
// ignored), a damaged file named in the error, and the export without what names
// the user.

#include "core/evidence/evidence.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

using namespace sp;

class TestEvidence : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

    static MachineFingerprint card(const std::string& driver = "6.8.0")
    {
        return {"1002:744c rev c8", "gfx1100", driver, "linux", "6.8"};
    }

    static EvidenceRecord record(const std::string& profile, bool passed, const std::string& at,
                                 const MachineFingerprint& m = card())
    {
        EvidenceRecord r;
        r.at = at;
        r.machine = m;
        r.workload = "comfyui";
        r.profile = profile;
        r.passed = passed;
        r.reason = passed ? "" : "HIP error: invalid device function";
        r.result = {{"ok", passed},
                    {"device", "AMD Radeon RX 7900 XTX"},
                    {"arch", "gfx1100"},
                    {"traceback", "/home/zorbulon/venv/lib/torch/__init__.py"}};
        return r;
    }

    std::filesystem::path file(const char* name) const
    {
        return std::filesystem::path(m_tmp.path().toStdString()) / name;
    }

private slots:
    void recordsSurviveAndTheLastOneCounts()
    {
        const EvidenceStore store(file("evidence.json"));
        QVERIFY(store.add(record("rocm", false, "2026-11-20T10:00:00Z")).ok());
        QVERIFY(store.add(record("rocm", true, "2026-11-21T10:00:00Z")).ok());
        QVERIFY(store.add(record("zluda", false, "2026-11-21T11:00:00Z")).ok());
        auto all = store.records();
        QVERIFY(all.ok());
        QCOMPARE(all->size(), std::size_t(3));
        const auto v = verdictsFor(*all, card());
        QCOMPARE(v.at("rocm").state, LocalVerdict::State::Passed);
        QCOMPARE(v.at("rocm").text, std::string("passed on this machine on 2026-11-21"));
        QCOMPARE(v.at("zluda").state, LocalVerdict::State::Failed);
        QVERIFY(v.at("zluda").text.find("invalid device function") != std::string::npos);
    }

    void aDriverUpdateMakesThemUnverified()
    {
        const std::vector<EvidenceRecord> records{record("rocm", true, "2026-11-21T10:00:00Z")};
        const auto v = verdictsFor(records, card("6.9.0"));
        QCOMPARE(v.at("rocm").state, LocalVerdict::State::Unverified);
        QVERIFY2(v.at("rocm").text.rfind("unverified here", 0) == 0, v.at("rocm").text.c_str());
        // Another card says nothing about this one.
        MachineFingerprint other = card();
        other.gpu = "10de:2684 rev a1";
        QVERIFY(verdictsFor(records, other).empty());
    }

    void onlyTheNewestAreKept()
    {
        const EvidenceStore store(file("many.json"), 10);
        for (std::size_t i = 0; i < 13; ++i)
            QVERIFY(store.add(record("p" + std::to_string(i), true, "2026-11-21T10:00:00Z")).ok());
        auto all = store.records();
        QCOMPARE(all->size(), std::size_t(10));
        QCOMPARE(all->front().profile, std::string("p3"));
    }

    // Launch records make room first: the smoke tests' verdicts outlive many launches.
    void launchRecordsGoBeforeSmokeTests()
    {
        const EvidenceStore store(file("launches.json"), 4);
        QVERIFY(store.add(record("verified-first", true, "2026-11-20T10:00:00Z")).ok());
        for (int i = 0; i < 5; ++i) {
            EvidenceRecord launch =
                record("launch" + std::to_string(i), true, "2026-11-21T10:00:00Z");
            launch.kind = EvidenceKind::Launch;
            QVERIFY(store.add(launch).ok());
        }
        auto all = store.records();
        QCOMPARE(all->size(), std::size_t(4));
        QCOMPARE(all->front().profile, std::string("verified-first"));
        QCOMPARE(all->back().profile, std::string("launch4"));
        QCOMPARE(verdictsFor(*all, card()).at("verified-first").state, LocalVerdict::State::Passed);
        // With only smoke tests left, the oldest goes as before.
        for (int i = 0; i < 4; ++i)
            QVERIFY(store.add(record("v" + std::to_string(i), true, "2026-11-22T10:00:00Z")).ok());
        all = store.records();
        QCOMPARE(all->front().profile, std::string("v0"));
    }

    void aDamagedFileIsNamedAndKept()
    {
        const auto f = file("damaged.json");
        std::ofstream(f) << "{\"records\": [ {\"kind\": \"verify\", ";
        const EvidenceStore store(f);
        auto all = store.records();
        QVERIFY(!all.ok());
        QVERIFY2(all.error().message.find("damaged.json") != std::string::npos,
                 all.error().message.c_str());
        QVERIFY(!store.add(record("rocm", true, "2026-11-21T10:00:00Z")).ok());
        std::ifstream in(f);
        const std::string left((std::istreambuf_iterator<char>(in)), {});
        QCOMPARE(left, std::string("{\"records\": [ {\"kind\": \"verify\", ")); // nothing lost
    }

    void theExportKeepsTheStackNotTheUser()
    {
        const auto j = exportJson({record("rocm", false, "2026-11-21T10:00:00Z")});
        const std::string text = j.dump();
        QVERIFY2(text.find("zorbulon") == std::string::npos, text.c_str());
        QCOMPARE(j["records"][0]["result"].value("arch", ""), std::string("gfx1100"));
        QVERIFY(!j["records"][0]["result"].contains("traceback"));
    }
};

QTEST_GUILESS_MAIN(TestEvidence)
#include "test_evidence.moc"
