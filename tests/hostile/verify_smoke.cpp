// Issue 35, items 3 and 7, as the attacks: a smoke test that never ends, one that leaves
// a child running, and one that ran on another device than the card it was planned for,
// each through the real stackpilot-cli (verify-stack, run --auto-fallback, bench).

#include "verify_world.h"

#include <QTest>

using namespace sp::test;
using nlohmann::json;

class HostileVerifySmoke : public QObject
{
    Q_OBJECT

private slots:
    // Item 3: `verify-stack` on a smoke test that sleeps ran until Ctrl-C, `run
    // --auto-fallback` never fell back, and a test that printed "ok": true but left a
    // setsid child running made `verify-stack` and `bench` wait forever.
    void item3_smokeTestsHaveADeadlineForTheWholeTree()
    {
        HostileVerifyWorld w;
        // The sleeper fails at its 2 s deadline (a stop waits 2 s before it kills), with
        // its own cause, and the sleeping process is gone.
        double took = 0;
        auto r = w.verifyStack("h-sleep", &took);
        json v = lastVerified(r);
        QVERIFY2(r.rc == 1 && !v.value("passed", true), (r.out + r.err).c_str());
        QCOMPARE(v.value("cause", ""), std::string("timeout"));
        QCOMPARE(v.value("reason", ""), std::string("the smoke test did not finish within 2 s"));
        qInfo("verify-stack h-sleep (deadline 2 s): %.1f s", took);
        QVERIFY2(took < 2.0 + 2.0 + 10.0, std::to_string(took).c_str()); // start-up under load
        QVERIFY(HostileVerifyWorld::goneWithin(w.pidIn("sleep.pid"), 5000));
        const json rec = w.evidence()["records"].back();
        QCOMPARE(rec.value("cause", ""), std::string("timeout"));
        QCOMPARE(rec.value("passed", true), false);

        // run --auto-fallback: the sleeper is ranked first (the failure above is gone with
        // a fresh home), times out, and the run moves on to h-ok, which launches.
        std::filesystem::remove(w.home / "data" / "evidence.json");
        r = w.hcli({QStringLiteral("run"), QStringLiteral("hwork"), QStringLiteral("--yes"),
                    QStringLiteral("--json"), QStringLiteral("--auto-fallback")},
                   &took);
        QVERIFY2(r.rc == 0, (r.out + r.err).c_str());
        const auto switches = events(jsonLines(r.out), "profile_switch");
        QVERIFY2(!switches.empty() && switches.back().value("from", "") == "h-sleep" &&
                     switches.back().value("to", "") == "h-ok",
                 r.out.c_str());
        QVERIFY2(switches.back().value("reason", "").find("did not finish within 2 s") !=
                     std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find("the workload ran") != std::string::npos, r.out.c_str());
        qInfo("run --auto-fallback past h-sleep: %.1f s", took);
        QVERIFY2(took < 30.0, std::to_string(took).c_str());

        // The leaver passes (its first process exited 0 with its result) within the 3 s
        // grace after that exit plus the stop's 2 s, and its setsid child is gone.
        r = w.verifyStack("h-leaver", &took);
        v = lastVerified(r);
        QVERIFY2(r.rc == 0 && v.value("passed", false), (r.out + r.err).c_str());
        qInfo("verify-stack h-leaver: %.1f s", took);
        QVERIFY2(took < 3.0 + 2.0 + 10.0, std::to_string(took).c_str());
        QVERIFY(HostileVerifyWorld::goneWithin(w.pidIn("leaver.pid"), 5000));

        // bench runs every installed stack's smoke test, the sleeper and the leaver
        // included, and comes back; the leaver's second child is gone too.
        std::filesystem::remove(w.root / "leaver.pid");
        r = w.hcli({QStringLiteral("bench"), QStringLiteral("hwork")}, &took, 180000);
        qInfo("bench hwork: %.1f s", took);
        QVERIFY2(r.rc != -2 && took < 90.0, (std::to_string(took) + r.out + r.err).c_str());
        QVERIFY2(r.out.find("h-leaver") != std::string::npos, r.out.c_str());
        QVERIFY(HostileVerifyWorld::goneWithin(w.pidIn("leaver.pid"), 5000));

        // STACKPILOT_VERIFY_TIMEOUT_S overrides the catalog's deadline (docs/VERIFY.md).
        qputenv("STACKPILOT_VERIFY_TIMEOUT_S", "1");
        r = w.verifyStack("h-sleep", &took);
        qunsetenv("STACKPILOT_VERIFY_TIMEOUT_S");
        QCOMPARE(lastVerified(r).value("reason", ""),
                 std::string("the smoke test did not finish within 1 s"));
    }

    // Item 7: a result that claimed "NVIDIA H100, sm_90" on an RX 7900 XTX was recorded as a
    // pass and ranked first; a test that ran on the iGPU passed the discrete card.
    void item7_smokeTestOnAnotherDeviceFails()
    {
        HostileVerifyWorld w;
        auto r = w.verifyStack("h-h100");
        json v = lastVerified(r);
        QVERIFY2(r.rc == 1 && !v.value("passed", true), (r.out + r.err).c_str());
        QCOMPARE(v.value("cause", ""), std::string("device-mismatch"));
        const std::string reason = v.value("reason", "");
        QVERIFY2(reason.find("NVIDIA H100 80GB HBM3 (sm_90)") != std::string::npos &&
                     reason.find("AMD Radeon RX 7900 XTX (gfx1100)") != std::string::npos,
                 reason.c_str());
        QCOMPARE(w.evidence()["records"].back().value("cause", ""), std::string("device-mismatch"));
        // Recorded as a failure, it ranks last, not first.
        const auto plan = w.hcli({QStringLiteral("plan"), QStringLiteral("--workload"),
                                  QStringLiteral("hwork"), QStringLiteral("--json")});
        QVERIFY2(json::parse(plan.out, nullptr, false)["profile"].value("id", "") != "h-h100",
                 plan.out.c_str());

        // The iGPU of the same vendor: its arch (gfx1103) and model (780) give it away.
        r = w.verifyStack("h-igpu");
        v = lastVerified(r);
        QVERIFY2(r.rc == 1 && v.value("cause", "") == "device-mismatch", (r.out + r.err).c_str());
        QVERIFY2(v.value("reason", "").find("AMD Radeon 780M Graphics (gfx1103)") !=
                     std::string::npos,
                 v.dump().c_str());

        // A missing device and arch is no mismatch, but the record says so.
        r = w.verifyStack("h-quiet");
        v = lastVerified(r);
        QVERIFY2(r.rc == 0 && v.value("passed", false), (r.out + r.err).c_str());
        QVERIFY2(
            w.evidence()["records"].back().value("device_check", "").rfind("not reported", 0) == 0,
            w.evidence().dump().c_str());
        // The card it was planned for passes.
        r = w.verifyStack("h-ok");
        v = lastVerified(r);
        QVERIFY2(r.rc == 0 && v.value("device_check", "") == "matched", (r.out + r.err).c_str());
    }
};

QTEST_GUILESS_MAIN(HostileVerifySmoke)
#include "verify_smoke.moc"
