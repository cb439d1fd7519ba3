// Self-verifying stacks end to end through `stackpilot-cli` (real processes, a loopback
// server): a missing download is skipped before any byte, a smoke test that fails names
// its known issue and gives way, the next one passes and runs; the next run goes
// straight to it; a driver update makes it re-check; rollback; bench.

#include "verify_fixture.h"

#include <QTest>

using namespace sp::test;
using nlohmann::json;

class TestVerifyCli : public QObject
{
    Q_OBJECT

    static QStringList run(std::initializer_list<const char*> extra)
    {
        QStringList a{QStringLiteral("run"), QStringLiteral("vwork"), QStringLiteral("--yes"),
                      QStringLiteral("--json")};
        for (const char* e : extra)
            a << QString::fromUtf8(e);
        return a;
    }

    // The profile `plan --json` chooses now, or what the plan said instead.
    static std::string plannedProfile(const VerifyWorld& w)
    {
        const auto r = w.cli({QStringLiteral("plan"), QStringLiteral("--workload"),
                              QStringLiteral("vwork"), QStringLiteral("--json")});
        const json p = json::parse(r.out, nullptr, false);
        if (!p.is_object() || !p["profile"].is_object())
            return "no plan (rc " + std::to_string(r.rc) + "): " + r.out + r.err;
        return p["profile"].value("id", "");
    }

    static std::string exitText(const std::vector<json>& lines)
    {
        const auto exits = events(lines, "exit");
        return exits.empty() ? std::string("no exit") : exits.back().dump();
    }

private slots:
    void fallsBackPastAMissingDownloadAndAFailedSmokeTest()
    {
        VerifyWorld w;
        auto r = w.cli(run({"--auto-fallback"}));
        QVERIFY2(r.rc == 0, (r.err + r.out).c_str());
        const auto lines = jsonLines(r.out);
        // v-a: the preflight finds its artifact gone; nothing of it is downloaded.
        const auto pre = events(lines, "preflight");
        QVERIFY(!pre.empty());
        QCOMPARE(pre.front().value("profile", ""), std::string("v-a"));
        QCOMPARE(pre.front().value("available", true), false);
        QVERIFY2(pre.front().value("reason", "").find("HTTP 404") != std::string::npos,
                 pre.front().dump().c_str());
        QCOMPARE(w.server.stats("/rt/gone.tar.gz").bodyBytes, std::uint64_t(0));
        // v-b: installed, its smoke test fails with the known issue; v-c passes and runs.
        const auto verified = events(lines, "verified");
        QCOMPARE(verified.size(), std::size_t(2));
        QCOMPARE(verified[0].value("profile", ""), std::string("v-b"));
        QCOMPARE(verified[0].value("passed", true), false);
        QCOMPARE(verified[0].value("known_issue", ""), std::string("v-fixture-crash"));
        QCOMPARE(verified[1].value("profile", ""), std::string("v-c"));
        QCOMPARE(verified[1].value("passed", false), true);
        const auto switches = events(lines, "profile_switch");
        QCOMPARE(switches.size(), std::size_t(2));
        QCOMPARE(switches[0].value("to", ""), std::string("v-b"));
        QCOMPARE(switches[1].value("to", ""), std::string("v-c"));
        QVERIFY2(r.out.find("the workload ran") != std::string::npos, r.out.c_str());

        // The second run goes straight to v-c: no preflight of v-a, no smoke test again.
        r = w.cli(run({}));
        QVERIFY2(r.rc == 0, (r.err + r.out).c_str());
        const auto again = jsonLines(r.out);
        QVERIFY2(events(again, "preflight").empty(), r.out.c_str());
        QVERIFY2(events(again, "verified").empty(), r.out.c_str());
        QVERIFY2(events(again, "profile_switch").empty(), r.out.c_str());
        QVERIFY2(r.out.find("the workload ran") != std::string::npos, r.out.c_str());
        const auto plan = w.cli({QStringLiteral("plan"), QStringLiteral("--workload"),
                                 QStringLiteral("vwork"), QStringLiteral("--json")});
        const json p = json::parse(plan.out, nullptr, false);
        QCOMPARE(p["profile"].value("id", ""), std::string("v-c"));
        QVERIFY2(p.value("local_evidence", "").rfind("passed on this machine on ", 0) == 0,
                 plan.out.c_str());

        // A driver update: v-c is "unverified here" and is checked again before it runs.
        r = w.cli(run({}), "snap-new-driver.json");
        QVERIFY2(r.rc == 0, (r.err + r.out).c_str());
        const auto updated = jsonLines(r.out);
        const auto rechecked = events(updated, "verified");
        QCOMPARE(rechecked.size(), std::size_t(1));
        QCOMPARE(rechecked[0].value("profile", ""), std::string("v-c"));
        QVERIFY(r.out.find("\"verified\"") < r.out.find("the workload ran"));
    }

    void withoutAutoFallbackItStopsAndNamesTheNext()
    {
        VerifyWorld w;
        const auto r = w.cli(run({}));
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.out.find("StackPilot can switch to v-b") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("--auto-fallback") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("runtime_started") == std::string::npos, r.out.c_str());
    }

    void rollbackReturnsToTheLastPassingProfile()
    {
        VerifyWorld w;
        QCOMPARE(w.cli(run({"--auto-fallback"})).rc, 0);
        // A forced switch: the user (or a remedy) chose v-d.
        const auto settings = w.home / "config" / "settings.json";
        std::filesystem::create_directories(settings.parent_path());
        std::ofstream(settings) << R"({"workloads": {"vwork": {"profile": "v-d"}}})";
        const std::string forced = plannedProfile(w);
        QVERIFY2(forced == "v-d", forced.c_str());
        const auto r = w.cli({QStringLiteral("rollback"), QStringLiteral("vwork")});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("now runs on v-c") != std::string::npos, r.out.c_str());
        const std::string back = plannedProfile(w);
        QVERIFY2(back == "v-c", back.c_str());
    }

    // A lab's settings name the profiles its machines may use (docs/LAB.md).
    void allowedProfilesLimitTheChoice()
    {
        VerifyWorld w;
        const auto settings = w.home / "config" / "settings.json";
        std::filesystem::create_directories(settings.parent_path());
        std::ofstream(settings) << R"({"allowed_profiles": ["v-d"], "lab_note": "kept"})";
        QCOMPARE(plannedProfile(w), std::string("v-d"));
        const auto r = w.cli({QStringLiteral("plan"), QStringLiteral("--workload"),
                              QStringLiteral("vwork"), QStringLiteral("--json")});
        QVERIFY2(r.out.find("not among the profiles this machine's settings allow") !=
                     std::string::npos,
                 r.out.c_str());
    }

    void benchTimesEveryInstalledStack()
    {
        VerifyWorld w;
        QCOMPARE(w.cli(run({"--auto-fallback"})).rc, 0);
        const auto r = w.cli({QStringLiteral("bench"), QStringLiteral("vwork")});
        QVERIFY2(r.rc == 0, (r.err + r.out).c_str());
        // v-c and v-d pass with 0.2 s and 0.1 s: v-d is the best, v-c twice as slow.
        auto row = [&](const std::string& id) {
            const auto at = r.out.find("\n" + id + " ");
            return at == std::string::npos
                       ? std::string()
                       : r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
        };
        QVERIFY2(row("v-c").find("0.2000") != std::string::npos, r.out.c_str());
        QVERIFY2(row("v-c").find("2.00") != std::string::npos, r.out.c_str());
        QVERIFY2(row("v-d").find("0.1000") != std::string::npos, r.out.c_str());
        QVERIFY2(row("v-d").find("1.00") != std::string::npos, r.out.c_str());
        QVERIFY2(row("v-b").find("failed") != std::string::npos, r.out.c_str());
        // The records travel in the diagnostics bundle too.
        const auto diag =
            w.cli({QStringLiteral("diag"), QStringLiteral("export"), QStringLiteral("--list")});
        QVERIFY2(diag.rc == 0 && diag.out.find("evidence.json") != std::string::npos,
                 (diag.out + diag.err).c_str());
    }
};

QTEST_GUILESS_MAIN(TestVerifyCli)
#include "test_verify_cli.moc"
