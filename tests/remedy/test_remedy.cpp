// Remedies applied and undone: every action writes its override into the settings,
// the next plan shows it, and undo brings back both the settings and the plan.

#include "core/remedy/remedy.h"
#include "core/select/workload_overrides.h"
#include "select/select_fixtures.h"

#include <QTest>

using namespace fixtures;

namespace {

const sp::FixedClock kClock(std::chrono::system_clock::from_time_t(1767323045)); // 2026-01-02

sp::HardwareSnapshot windowsRx6750()
{
    return machine("windows", {amd("AMD Radeon RX 6750 XT", "gfx1031", 12288)});
}

sp::HardwareSnapshot linux780m()
{
    return machine("linux", {amd("AMD Radeon 780M", "gfx1103", 4096, true)});
}

sp::Plan planWith(const sp::Settings& s, const sp::HardwareSnapshot& snap, const std::string& w,
                  const sp::Catalog& cat = shippedCatalog())
{
    auto p = sp::makePlan(snap, cat, w, sp::selectSettingsFor(s, w, settings()));
    if (!p)
        qFatal("plan failed: %s", p.error().message.c_str());
    return *p;
}

// Applies, checks the plan changed as `check` says, undoes, checks that settings and
// plan are back. `named` false: the workload is left for applyRemedy to find.
template <class Check>
void roundTrip(const sp::Catalog& cat, const sp::HardwareSnapshot& snap, const std::string& issue,
               const std::string& workload, Check check, bool named = true)
{
    sp::Settings s;
    const std::string before = s.toJson();
    const sp::Plan planBefore = planWith(s, snap, workload, cat);
    auto applied = sp::applyRemedy(s, cat, snap, issue, named ? workload : "", settings(), kClock);
    QVERIFY2(applied.ok(), applied.ok() ? "" : applied.error().message.c_str());
    QVERIFY(applied->changed);
    QCOMPARE(s.workloads.at(workload).remedies.at(0).appliedAt,
             std::string("2026-01-02T03:04:05Z"));
    const sp::Plan planAfter = planWith(s, snap, workload, cat);
    QVERIFY(applied->planned);
    QCOMPARE(applied->planAfter.profile, planAfter.profile);
    check(planBefore, planAfter, *applied);

    auto again = sp::applyRemedy(s, cat, snap, issue, workload, settings(), kClock);
    QVERIFY(again.ok() && !again->changed);
    QVERIFY2(again->message.find("already applied") != std::string::npos, again->message.c_str());

    auto undone = sp::undoRemedy(s, cat, snap, issue, named ? workload : "", settings());
    QVERIFY2(undone.ok(), undone.ok() ? "" : undone.error().message.c_str());
    QCOMPARE(s.toJson(), before);
    QCOMPARE(dump(planWith(s, snap, workload, cat)), dump(planBefore));
    QCOMPARE(undone->planAfter.profile, planBefore.profile);
    auto twice = sp::undoRemedy(s, issue, workload);
    QVERIFY(!twice.ok() && twice.error().code == sp::ErrorCode::Runtime);
}

} // namespace

class TestRemedy : public QObject
{
    Q_OBJECT
private slots:
    void switchProfileToNextBest()
    {
        roundTrip(shippedCatalog(), windowsRx6750(), "rocm-zluda-rocblas-access-violation",
                  "sdnext", [](const sp::Plan& before, const sp::Plan& after, const auto& change) {
                      QVERIFY(!before.profile.empty());
                      QVERIFY(after.profile != before.profile);
                      QVERIFY(!after.profile.empty());
                      const auto* alt = alternative(after, before.profile);
                      QVERIFY(alt && alt->verdict == "available");
                      QCOMPARE(change.planBefore.profile, before.profile);
                  });
    }

    void switchProfileToNamedProfile()
    {
        sp::Catalog cat = shippedCatalog();
        sp::KnownIssue k;
        k.id = "test-switch";
        k.applies.workloads = {"llamafile"};
        k.remedy.action = sp::RemedyAction::SwitchProfile;
        k.remedy.profile = "llamafile-0.8.1-cpu-linux";
        cat.knownIssues.push_back(k);
        // The issue names one workload, so none is given.
        roundTrip(
            cat, linux780m(), "test-switch", "llamafile",
            [](const sp::Plan&, const sp::Plan& after, const auto&) {
                QCOMPARE(after.profile, std::string("llamafile-0.8.1-cpu-linux"));
            },
            false);
    }

    void setEnv()
    {
        roundTrip(shippedCatalog(), windowsRx6750(), "non-ascii-path-encoding", "sdnext",
                  [](const sp::Plan& before, const sp::Plan& after, const auto& change) {
                      QVERIFY(!before.env.count("PYTHONUTF8"));
                      QCOMPARE(after.env.at("PYTHONUTF8"), std::string("1"));
                      QCOMPARE(after.envWhy.at("PYTHONUTF8"), std::string(sp::kUserEnvChoice));
                      QCOMPARE(change.envAdded().at("PYTHONUTF8"), std::string("1"));
                  });
    }

    void addArgs()
    {
        sp::Catalog cat = shippedCatalog();
        sp::KnownIssue k;
        k.id = "test-args";
        k.applies.workloads = {"pytorch"};
        k.remedy.action = sp::RemedyAction::AddArgs;
        k.remedy.args = {"--low-vram", "--cache={cache}/x"};
        cat.knownIssues.push_back(k);
        roundTrip(cat, linux780m(), "test-args", "pytorch",
                  [](const sp::Plan& before, const sp::Plan& after, const auto& change) {
                      auto expected = before.args;
                      expected.push_back("--low-vram");
                      expected.push_back("--cache=/home/u/.cache/stackpilot/x");
                      QVERIFY(after.args == expected);
                      QCOMPARE(int(change.argsAdded().size()), 2);
                  });
    }

    void addArgsAlreadyInTheProfileAreNotDoubled()
    {
        sp::Settings s;
        auto r = sp::applyRemedy(s, shippedCatalog(), linux780m(), "hipblas-status-unknown", "",
                                 settings(), kClock);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        const auto& args = planWith(s, linux780m(), "llamafile").args;
        QCOMPARE(std::count(args.begin(), args.end(), std::string("--tinyblas")), 1);
    }

    void relocateCachesOnALocalHome()
    {
        roundTrip(shippedCatalog(), linux780m(), "hsa-aperture-violation", "pytorch",
                  [](const sp::Plan& before, const sp::Plan& after, const auto&) {
                      QVERIFY(!before.env.count("TORCH_HOME"));
                      QVERIFY(after.env.count("TORCH_HOME"));
                      QVERIFY(after.env.at("TORCH_HOME").rfind("/home/u", 0) != 0);
                      QVERIFY(after.envWhy.at("TORCH_HOME").find("a remedy asked for it") !=
                              std::string::npos);
                  });
    }

    void repairRuntimeOfAKind()
    {
        roundTrip(shippedCatalog(), windowsRx6750(), "zluda-files-quarantined", "sdnext",
                  [](const sp::Plan& before, const sp::Plan& after, const auto&) {
                      QVERIFY(before.repair.empty());
                      QCOMPARE(int(after.repair.size()), 1);
                      QVERIFY(hasRuntime(after, "zluda", after.repair.front()));
                      QVERIFY(sp::toJson(after)["repair"].size() == 1);
                  });
    }

    void repairRuntimeWithoutSuchRuntimeFails()
    {
        sp::Settings s;
        auto r = sp::applyRemedy(s, shippedCatalog(), linux780m(), "zluda-files-quarantined",
                                 "pytorch", settings(), kClock);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("no runtime of kind 'zluda'") != std::string::npos,
                 r.error().message.c_str());
        QVERIFY(s.workloads.empty());
    }

    void infoIsAdviceOnly()
    {
        sp::Settings s;
        auto r = sp::applyRemedy(s, shippedCatalog(), linux780m(), "gpu-out-of-memory", "pytorch",
                                 settings(), kClock);
        QVERIFY(!r.ok());
        QVERIFY(r.error().code == sp::ErrorCode::Usage);
        QVERIFY2(r.error().message.find("advice only") != std::string::npos &&
                     r.error().message.find("batch size") != std::string::npos,
                 r.error().message.c_str());
        // Said before anything else: the issue applies to any workload, none is named.
        r = sp::applyRemedy(s, shippedCatalog(), linux780m(), "gpu-out-of-memory", "", settings(),
                            kClock);
        QVERIFY(!r.ok() && r.error().message.find("advice only") != std::string::npos);
        QVERIFY(s.workloads.empty());
    }

    void excludedProfilesAreRejected()
    {
        auto st = settings();
        const auto best = plan(windowsRx6750(), "sdnext", st);
        st.excludeProfiles = {best.profile};
        const auto next = plan(windowsRx6750(), "sdnext", st);
        QVERIFY(next.profile != best.profile);
        const auto* alt = alternative(next, best.profile);
        QVERIFY(alt && alt->verdict == "rejected");
    }

    // The window's profiles menu: a profile rejected for a known issue can be forced
    // once the user confirms; the plan then carries the reasons as warnings. A profile
    // for another OS stays refused, confirmed or not.
    void aConfirmedRejectedProfileIsPlannedWithItsReasons()
    {
        const char* hip61 = "sdnext-zluda-hip6.1-rocblas-gfx1031";
        sp::Settings s;
        s.workloads["sdnext"].profile = hip61;
        auto refused = sp::makePlan(windowsRx6750(), shippedCatalog(), "sdnext",
                                    sp::selectSettingsFor(s, "sdnext", settings()));
        QVERIFY(!refused.ok());
        s.workloads["sdnext"].acceptRejected = true;
        const auto p = planWith(s, windowsRx6750(), "sdnext");
        QCOMPARE(p.profile, std::string(hip61));
        QVERIFY(std::any_of(p.warnings.begin(), p.warnings.end(), [](const std::string& w) {
            return w.find("rocm-zluda-rocblas-access-violation") != std::string::npos;
        }));
        auto reread = sp::Settings::parse(s.toJson(), "settings.json");
        QVERIFY(reread.ok() && reread->workloads.at("sdnext").acceptRejected);
        s.workloads["sdnext"].profile = "sdnext-rocm6.2";
        QVERIFY(!sp::makePlan(windowsRx6750(), shippedCatalog(), "sdnext",
                              sp::selectSettingsFor(s, "sdnext", settings()))
                     .ok());
    }

    void commandLineProfileWinsOverSettings()
    {
        sp::Settings s;
        s.workloads["sdnext"].profile = "sdnext-cpu-windows";
        s.workloads["sdnext"].args = {"--x"};
        auto base = settings();
        QCOMPARE(sp::selectSettingsFor(s, "sdnext", base).profile,
                 std::string("sdnext-cpu-windows"));
        base.profile = "chosen";
        const auto st = sp::selectSettingsFor(s, "sdnext", base);
        QCOMPARE(st.profile, std::string("chosen"));
        QVERIFY(st.args == std::vector<std::string>{"--x"});
        QVERIFY(sp::selectSettingsFor(s, "pytorch", settings()).args.empty());
    }

    // ["--fixed", "yes"] is one unit; "yes" elsewhere in the args does not
    // drop it, a unit the profile already passes is not repeated.
    void addedArgsAreAppendedFlagByFlag()
    {
        std::vector<std::string> args = {"--listen", "yes", "--low-vram"};
        sp::appendArgs(args, {"--fixed", "yes", "--low-vram", "--cache=x"});
        QCOMPARE(args, (std::vector<std::string>{"--listen", "yes", "--low-vram", "--fixed", "yes",
                                                 "--cache=x"}));
        sp::appendArgs(args, {"--fixed", "yes"});
        QCOMPARE(args.size(), std::size_t{6});
    }

    void workloadMustBeKnownOrSingle()
    {
        sp::Settings s;
        auto r = sp::applyRemedy(s, shippedCatalog(), linux780m(), "hsa-aperture-violation", "",
                                 settings(), kClock);
        QVERIFY(!r.ok() && r.error().code == sp::ErrorCode::Usage);
        QVERIFY2(r.error().message.find("--workload") != std::string::npos,
                 r.error().message.c_str());
        r = sp::applyRemedy(s, shippedCatalog(), linux780m(), "no-such-issue", "pytorch",
                            settings(), kClock);
        QVERIFY(!r.ok() && r.error().code == sp::ErrorCode::Usage);
        r = sp::applyRemedy(s, shippedCatalog(), linux780m(), "hsa-aperture-violation", "nope",
                            settings(), kClock);
        QVERIFY(!r.ok() && r.error().code == sp::ErrorCode::Usage);
    }

    void undoKeepsWhatWasThereBefore()
    {
        // A value the user set by hand survives apply + undo.
        sp::Settings s;
        s.workloads["sdnext"].env["PYTHONUTF8"] = "0";
        const std::string before = s.toJson();
        auto r = sp::applyRemedy(s, shippedCatalog(), windowsRx6750(), "non-ascii-path-encoding",
                                 "sdnext", settings(), kClock);
        QVERIFY(r.ok());
        QCOMPARE(s.workloads.at("sdnext").env.at("PYTHONUTF8"), std::string("1"));
        QVERIFY(sp::undoRemedy(s, "non-ascii-path-encoding", "").ok());
        QCOMPARE(s.toJson(), before);
    }

    void undoInOrderWhenRemediesOverlap()
    {
        sp::Settings s;
        const std::string before = s.toJson();
        auto snap = windowsRx6750();
        QVERIFY(sp::applyRemedy(s, shippedCatalog(), snap, "rocm-zluda-rocblas-access-violation",
                                "sdnext", settings(), kClock)
                    .ok());
        sp::Catalog cat = shippedCatalog();
        sp::KnownIssue k;
        k.id = "test-switch-cpu";
        k.remedy.action = sp::RemedyAction::SwitchProfile;
        k.remedy.profile = "sdnext-cpu-windows";
        cat.knownIssues.push_back(k);
        QVERIFY(
            sp::applyRemedy(s, cat, snap, "test-switch-cpu", "sdnext", settings(), kClock).ok());
        auto early = sp::undoRemedy(s, "rocm-zluda-rocblas-access-violation", "sdnext");
        QVERIFY(!early.ok());
        QVERIFY2(early.error().message.find("undo it first") != std::string::npos,
                 early.error().message.c_str());
        QVERIFY(sp::undoRemedy(s, "test-switch-cpu", "sdnext").ok());
        QVERIFY(sp::undoRemedy(s, "rocm-zluda-rocblas-access-violation", "sdnext").ok());
        QCOMPARE(s.toJson(), before);
    }

    void changeAsJson()
    {
        sp::Settings s;
        auto r = sp::applyRemedy(s, shippedCatalog(), windowsRx6750(), "zluda-files-quarantined",
                                 "sdnext", settings(), kClock);
        QVERIFY(r.ok());
        const auto j = sp::toJson(*r);
        QCOMPARE(j["action"].get<std::string>(), std::string("repair_runtime"));
        QCOMPARE(j["workload"].get<std::string>(), std::string("sdnext"));
        QVERIFY(j["changed"].get<bool>());
        QVERIFY(j["plan_before"]["repair"].empty());
        QCOMPARE(j["plan_after"]["repair"].size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestRemedy)
#include "test_remedy.moc"
