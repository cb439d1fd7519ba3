// Issue 35, items 4 and 5, as the attacks: rollback to a profile that failed since it
// passed, or to a forged record's profile of another workload; and an evidence file that
// outgrew its own read limit, after which no verdict counted and nothing was recorded.

#include "core/evidence/evidence.h"
#include "core/evidence/smoke_judge.h"
#include "verify_world.h"

#include <QTest>

using namespace sp;
using namespace sp::test;
using nlohmann::json;

namespace {

// A result line of just under 64 KiB, of the smoke test for `profile`.
std::string bigLine(bool ok)
{
    const std::string filler(32700, 'a');
    return json{{"ok", ok},          {"device", "AMD Radeon RX 7900 XTX"},
                {"arch", "gfx1100"}, {"seconds", 0.1},
                {"error", filler},   {"junk", filler}}
        .dump();
}

// What Session::verify records for one smoke test, through the same judge.
EvidenceRecord smokeRecord(const std::string& profile, bool ok, int n)
{
    SmokeOutput out;
    out.line("loading the stack");
    out.line(bigLine(ok));
    SmokeEnd end;
    end.exitedWell = ok;
    end.exitText = ok ? "exited with code 0" : "exited with code 1";
    ExpectedDevice want{true, "amd", "AMD Radeon RX 7900 XTX", {"gfx1100"}, false};
    const SmokeVerdict v = judgeSmoke(out, end, want);
    EvidenceRecord r;
    r.at = "2026-11-28T07:" + std::to_string(10 + n % 50) + ":00Z";
    r.machine = {"1002:744c rev c8", "gfx1100", "6.8.0", "linux", "6.8"};
    r.workload = "hwork";
    r.profile = profile;
    r.catalog = "feed 142";
    r.runtimes = {{"torch-rocm", "2.9.1", {std::string(64, 'e'), std::string(64, 'f')}},
                  {"python", "3.12.8", {std::string(64, 'd')}}};
    r.passed = v.passed;
    r.seconds = v.seconds;
    r.reason = v.reason;
    r.cause = toString(v.cause);
    r.deviceCheck = v.deviceCheck;
    r.result = v.result;
    return r;
}

} // namespace

class HostileVerifyEvidence : public QObject
{
    Q_OBJECT

private slots:
    // Item 4: lastPassing ignored a later failure of the same profile, and took a forged
    // record naming another workload's profile, after which `run` failed until
    // settings.json was edited by hand.
    void item4_rollbackTakesTheLatestVerdictOfTheWorkloadsOwnProfiles()
    {
        HostileVerifyWorld w;
        QCOMPARE(w.verifyStack("h-ok").rc, 0);    // passed first
        QCOMPARE(w.verifyStack("h-flaky").rc, 0); // passed later...
        std::ofstream(w.root / "broken") << "x";
        QCOMPARE(w.verifyStack("h-flaky").rc, 1); // ...and failed since
        // The forgery: the newest passing records name another workload's profile and
        // one no catalog has, claiming to be hwork's, on this very card.
        json doc = w.evidence();
        json forged = doc["records"].front();
        forged["workload"] = "hwork";
        forged["profile"] = "o-other";
        forged["at"] = "2099-01-01T00:00:00Z";
        doc["records"].push_back(forged);
        forged["profile"] = "h-gone";
        doc["records"].push_back(forged);
        std::ofstream(w.home / "data" / "evidence.json") << doc.dump(1);

        const auto r = w.hcli({QStringLiteral("rollback"), QStringLiteral("hwork")});
        QVERIFY2(r.rc == 0, (r.out + r.err).c_str());
        QVERIFY2(r.out.find("now runs on h-ok") != std::string::npos, r.out.c_str());
        std::ifstream in(w.home / "config" / "settings.json");
        const json settings = json::parse(in, nullptr, false);
        QCOMPARE(settings["workloads"]["hwork"].value("profile", ""), std::string("h-ok"));
        // And the workload runs on it, no hand edit needed.
        const auto run = w.hcli({QStringLiteral("run"), QStringLiteral("hwork"),
                                 QStringLiteral("--yes"), QStringLiteral("--json")});
        QVERIFY2(run.rc == 0 && run.out.find("the workload ran") != std::string::npos,
                 (run.out + run.err).c_str());

        // Once every profile of hwork has failed since, there is nothing to return to.
        std::filesystem::remove(w.home / "data" / "evidence.json");
        QCOMPARE(w.verifyStack("h-flaky").rc, 1);
        const auto none = w.hcli({QStringLiteral("rollback"), QStringLiteral("hwork")});
        QVERIFY2(none.rc == 1 && none.err.find("no profile of hwork") != std::string::npos,
                 (none.out + none.err).c_str());
    }

    // Item 5: with 64 KiB result lines and 2,000 records kept, evidence.json passed its
    // 16 MiB read limit at record 278; from then on every verdict was ignored and nothing
    // new was recorded.
    void item5_evidenceStaysReadableAfter5000SmokeTests()
    {
        // The arithmetic: the worst record (every string 10 KiB of control characters,
        // which JSON writes as six bytes each; 100 runtimes of 100 digests) fits its bound,
        // and kKept of those fit the read limit.
        EvidenceRecord worst = smokeRecord("h-ok", true, 0);
        const std::string ctl(10240, '\x01');
        for (std::string* s :
             {&worst.at, &worst.machine.gpu, &worst.machine.arch, &worst.machine.driver,
              &worst.machine.os, &worst.machine.osBuild, &worst.workload, &worst.profile,
              &worst.catalog, &worst.knownIssue, &worst.reason, &worst.cause, &worst.deviceCheck})
            *s = ctl;
        worst.runtimes.assign(100, {ctl, ctl, std::vector<std::string>(100, ctl.substr(0, 100))});
        for (const char* k : {"device", "arch", "error", "torch", "hip", "cuda", "rocm", "backend",
                              "check", "max_error"})
            worst.result[k] = ctl;
        QVERIFY(storedSize(worst) > 1000000);
        const EvidenceRecord bounded = boundedRecord(worst);
        QVERIFY2(storedSize(bounded) <= kMaxRecordBytes,
                 std::to_string(storedSize(bounded)).c_str());
        QVERIFY(EvidenceStore::kKept * (kMaxRecordBytes + 2) + 64 <
                EvidenceStore::kReadLimits.maxBytes);

        // 5,000 smoke tests with 64 KiB lines, through the judge and the store: h-ok passes
        // every time, and the 5,000th fails. That last verdict counts. (The store keeps
        // 300 here, past the 278 at which the old file outgrew its limit, so its window
        // turns over 16 times quickly; the full window of kKept worst-case records is
        // checked next.)
        HostileVerifyWorld w;
        const auto file = w.home / "data" / "evidence.json";
        // Each add is fsynced: on a busy disk that, not the store, is most of the time, so
        // the 5,000 go to a memory file system where there is one.
        QTemporaryDir shm(QStringLiteral("/dev/shm/hostile-evidence-XXXXXX"));
        const auto many = shm.isValid()
                              ? std::filesystem::path(shm.path().toStdString()) / "evidence.json"
                              : file;
        QElapsedTimer t;
        t.start();
        {
            const EvidenceStore store(many, 300);
            for (int i = 1; i <= 5000; ++i) {
                const auto added = store.add(smokeRecord("h-ok", i < 5000, i));
                QVERIFY2(added.ok(), (std::to_string(i) + ": " + added.error().message).c_str());
            }
            qInfo("5,000 smoke tests recorded in %.1f s; evidence.json %llu bytes",
                  double(t.elapsed()) / 1000.0,
                  static_cast<unsigned long long>(std::filesystem::file_size(many)));
            auto records = store.records();
            QVERIFY2(records.ok(), records.ok() ? "" : records.error().message.c_str());
            QCOMPARE(records->size(), std::size_t(300));
            const auto verdicts = verdictsFor(*records, records->back().machine);
            QCOMPARE(int(verdicts.at("h-ok").state), int(LocalVerdict::State::Failed));
        }
        // The full window: kKept records of the worst size stay readable, and the next
        // smoke test (a pass now) is recorded and counts.
        json full = {{"bounded_records", true}, {"records", json::array()}};
        for (std::size_t i = 0; i < EvidenceStore::kKept; ++i)
            full["records"].push_back(toJson(bounded));
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file) << full.dump(1) << "\n";
        qInfo("kKept worst-case records: %llu bytes",
              static_cast<unsigned long long>(std::filesystem::file_size(file)));
        QVERIFY(std::filesystem::file_size(file) < EvidenceStore::kReadLimits.maxBytes);
        const EvidenceStore store(file);
        QVERIFY(store.add(smokeRecord("h-ok", true, 5001)).ok());
        QVERIFY(std::filesystem::file_size(file) < EvidenceStore::kReadLimits.maxBytes);
        auto records = store.records();
        QVERIFY2(records.ok(), records.ok() ? "" : records.error().message.c_str());
        QCOMPARE(records->size(), EvidenceStore::kKept);
        QCOMPARE(int(verdictsFor(*records, records->back().machine).at("h-ok").state),
                 int(LocalVerdict::State::Passed));

        // Through the real CLI: a file the old store left past 16 MiB (280 records with
        // 64 KiB results) is compacted by the next smoke test, whose verdict counts.
        json old = {{"records", json::array()}};
        for (int i = 0; i < 280; ++i) {
            json r = toJson(smokeRecord("h-ok", false, i));
            r["result"]["junk"] = std::string(65000, 'j');
            old["records"].push_back(r);
        }
        std::ofstream(file) << old.dump(1);
        QVERIFY(std::filesystem::file_size(file) > EvidenceStore::kReadLimits.maxBytes);
        for (int i = 0; i < 3; ++i) {
            const auto r = w.verifyStack("h-big");
            QVERIFY2(r.rc == 0 && lastVerified(r).value("passed", false), (r.out + r.err).c_str());
        }
        QVERIFY(std::filesystem::file_size(file) < EvidenceStore::kReadLimits.maxBytes);
        const json doc = w.evidence();
        QCOMPARE(doc["records"].size(), std::size_t(283));
        QCOMPARE(doc["records"].back().value("profile", ""), std::string("h-big"));
        const auto plan = w.hcli({QStringLiteral("plan"), QStringLiteral("--workload"),
                                  QStringLiteral("hwork"), QStringLiteral("--json")});
        const json p = json::parse(plan.out, nullptr, false);
        QCOMPARE(p["profile"].value("id", ""), std::string("h-big"));
        QVERIFY2(p.value("local_evidence", "").rfind("passed on this machine", 0) == 0,
                 plan.out.c_str());
    }
};

QTEST_GUILESS_MAIN(HostileVerifyEvidence)
#include "verify_evidence.moc"
