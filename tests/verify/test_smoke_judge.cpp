// The smoke test's judge (core/evidence/smoke_judge.h) on the cases the device check
// must get right beyond the hostile ones: an HSA override, ZLUDA, arch suffixes, a CPU
// fallback, missing fields; and the deadline as catalog data.

#include "core/catalog/loader.h"
#include "core/evidence/smoke_judge.h"

#include <QTest>

using namespace sp;

namespace {

SmokeVerdict judge(const std::string& line, const ExpectedDevice& want, bool exitedWell = true)
{
    SmokeOutput out;
    out.line("some log line");
    out.line(line);
    SmokeEnd end;
    end.exitedWell = exitedWell;
    end.exitText = exitedWell ? "exited with code 0" : "exited with code 1";
    end.deadlineS = 300;
    return judgeSmoke(out, end, want);
}

HardwareSnapshot rx6750()
{
    HardwareSnapshot s;
    s.os.family = "linux";
    GpuInfo g;
    g.vendor = Vendor::Amd;
    g.name = "AMD Radeon RX 6750 XT";
    g.pciId = "1002:73df";
    g.gfx = "gfx1031";
    s.gpus.push_back(g);
    return s;
}

std::string load(const std::string& text, CatalogLoader& loader)
{
    auto r = loader.addText(text, "c.json");
    return r ? std::string() : r.error().message;
}

} // namespace

class TestSmokeJudge : public QObject
{
    Q_OBJECT

private slots:
    void anOverrideMakesROCmReportTheVersionItNames()
    {
        Plan plan;
        plan.gpu = 0;
        plan.env["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0";
        const ExpectedDevice want = expectedDevice(rx6750(), plan, false);
        QCOMPARE(want.arch, (std::vector<std::string>{"gfx1031", "gfx1030"}));
        auto v =
            judge(R"({"ok": true, "device": "AMD Radeon RX 6750 XT", "arch": "gfx1030"})", want);
        QVERIFY2(v.passed && v.deviceCheck == "matched", v.deviceCheck.c_str());
        // Another card of the family is still another card.
        v = judge(R"({"ok": true, "device": "AMD Radeon RX 6900 XT", "arch": "gfx1030"})", want);
        QCOMPARE(v.cause, SmokeCause::DeviceMismatch);
    }

    void zludaIsComparedByName()
    {
        Plan plan;
        plan.gpu = 0;
        PlanRuntime zluda;
        zluda.id = "zluda-3.9.5";
        zluda.kind = "zluda";
        plan.runtimes.push_back(zluda);
        const ExpectedDevice want = expectedDevice(rx6750(), plan, false);
        auto v = judge(
            R"({"ok": true, "device": "AMD Radeon RX 6750 XT [ZLUDA]", "arch": "sm_88"})", want);
        QVERIFY2(v.passed, v.reason.c_str());
        v = judge(R"({"ok": true, "device": "NVIDIA GeForce RTX 3060", "arch": "sm_86"})", want);
        QCOMPARE(v.cause, SmokeCause::DeviceMismatch);
        QVERIFY2(v.reason.find("NVIDIA GeForce RTX 3060 (sm_86)") != std::string::npos &&
                     v.reason.find("AMD Radeon RX 6750 XT (gfx1031)") != std::string::npos,
                 v.reason.c_str());
    }

    void archSuffixesAndDotsDoNotCount()
    {
        const ExpectedDevice mi = {true, "amd", "AMD Instinct MI210", {"gfx90a"}, false};
        QVERIFY(judge(R"({"ok": true, "arch": "gfx90a:sramecc+:xnack-"})", mi).passed);
        const ExpectedDevice rtx = {true, "nvidia", "NVIDIA GeForce RTX 4090", {"sm_89"}, false};
        QVERIFY(judge(R"({"ok": true, "device": "NVIDIA GeForce RTX 4090", "arch": "SM_8.9"})", rtx)
                    .passed);
    }

    void aCpuFallbackAndMissingFieldsAreRecordedNotFailed()
    {
        Plan plan;
        plan.gpu = 0;
        const ExpectedDevice cpu = expectedDevice(rx6750(), plan, true);
        auto v = judge(R"({"ok": true, "device": "x86_64", "arch": "x86_64"})", cpu);
        QVERIFY(v.passed);
        QVERIFY2(v.deviceCheck.rfind("not checked", 0) == 0, v.deviceCheck.c_str());
        const ExpectedDevice gpu = expectedDevice(rx6750(), plan, false);
        v = judge(R"({"ok": true, "arch": "gfx1031"})", gpu);
        QVERIFY(v.passed);
        QVERIFY2(v.deviceCheck.find("did not name its device") != std::string::npos,
                 v.deviceCheck.c_str());
        // A failure keeps its own cause: the device check does not hide it.
        v = judge(R"({"ok": false, "error": "HIP error", "arch": "sm_90"})", gpu, false);
        QCOMPARE(v.cause, SmokeCause::ReportedFailure);
        QCOMPARE(v.reason, std::string("HIP error"));
    }

    void onlyTheKnownFieldsAreKept()
    {
        const ExpectedDevice none;
        const auto v = judge(R"({"ok": true, "seconds": 0.5, "error": ")" + std::string(1000, 'e') +
                                 R"(", "junk": "x", "torch": {"nested": 1}})",
                             none);
        QVERIFY(v.passed);
        QVERIFY(!v.result.contains("junk") && !v.result.contains("torch"));
        QCOMPARE(v.result["error"].get<std::string>().size(), std::size_t(256));
        QCOMPARE(*v.seconds, 0.5);
    }

    void theDeadlineIsCatalogData()
    {
        CatalogLoader ok;
        QCOMPARE(load(R"({"schema_version": 1, "workloads": [{"id": "w", "name": "W",
            "command": ["x"], "verify": ["y"], "verify_timeout_s": 120}],
            "profiles": [{"id": "p", "workload": "w", "status": "community",
            "verify_timeout_s": 30}]})",
                      ok),
                 std::string());
        QCOMPARE(ok.catalog().workload("w")->verifyTimeoutS, std::optional<int>(120));
        QCOMPARE(ok.catalog().profile("p")->verifyTimeoutS, std::optional<int>(30));
        CatalogLoader bad;
        const auto e = load("{\"schema_version\": 1, \"workloads\": [{\"id\": \"w\", \"name\": "
                            "\"W\",\n \"command\": [\"x\"], \"verify_timeout_s\": 0}]}",
                            bad);
        QVERIFY2(e.find("c.json:2:") != std::string::npos &&
                     e.find("'verify_timeout_s' must be 1..86400 seconds") != std::string::npos,
                 e.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSmokeJudge)
#include "test_smoke_judge.moc"
