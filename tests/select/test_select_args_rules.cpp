// A workload's arguments that follow the card (`args_when`, issue 30 item 6): the SD
// apps' low-memory options are catalog rules, chosen by the card's VRAM like a profile's
// `match`, skipped where the plan already passes an option of the same group, and never
// given to a CPU stack. The shipped rules are checked as a table over recorded cards.

#include "args_rules_fixture.h"
#include "select_fixtures.h"

using namespace fixtures;

namespace {

sp::Catalog ruleCatalog()
{
    return catalogFromText(kArgsRulesCatalog, "rules.json");
}

std::vector<std::string> argsFor(const sp::Catalog& cat, const sp::HardwareSnapshot& snap,
                                 const std::string& workload,
                                 const sp::SelectSettings& st = settings())
{
    auto p = sp::makePlan(snap, cat, workload, st);
    if (!p)
        qFatal("plan failed: %s", p.error().message.c_str());
    return p->args;
}

} // namespace

class TestSelectArgsRules : public QObject
{
    Q_OBJECT
private slots:
    void rulesFollowTheCardsMemory()
    {
        const auto cat = ruleCatalog();
        using V = std::vector<std::string>;
        QCOMPARE(argsFor(cat, machine("linux", {nvidia("GTX 1650", "7.5", 4096)}), "sdapp"),
                 V{"--low"});
        QCOMPARE(argsFor(cat, machine("linux", {nvidia("RTX 3050", "8.6", 8192)}), "sdapp"),
                 V{"--mid"});
        QCOMPARE(argsFor(cat, machine("linux", {nvidia("RTX 4090", "8.9", 24564)}), "sdapp"), V{});
        // The 780M's 512 MB is carved from system memory: the low rule is for discrete cards.
        QCOMPARE(argsFor(cat, machine("linux", {amd("780M", "gfx1103", 512, true)}), "sdapp"), V{});
        // Unknown VRAM: no rule guesses.
        auto unknown = nvidia("Unknown", "8.6", 0);
        unknown.vramMb.reset();
        QCOMPARE(argsFor(cat, machine("linux", {unknown}), "sdapp"), V{});
        // The plan says why, and --json carries it.
        auto p = sp::makePlan(machine("linux", {nvidia("GTX 1650", "7.5", 4096)}), cat, "sdapp",
                              settings());
        QVERIFY(p.ok());
        QCOMPARE(p->argsNotes.size(), std::size_t(1));
        QCOMPARE(p->argsNotes[0].why.en, std::string("small card"));
        QCOMPARE(sp::toJson(*p)["args_why"][0]["args"][0].get<std::string>(), std::string("--low"));
    }

    void theUsersOwnOptionAndACpuStackWin()
    {
        const auto cat = ruleCatalog();
        const auto small = machine("linux", {nvidia("GTX 1650", "7.5", 4096)});
        auto st = settings();
        st.args = {"--normal"};
        QCOMPARE(argsFor(cat, small, "sdapp", st), std::vector<std::string>{"--normal"});
        st = settings();
        st.profile = "cpu";
        const auto cpu = argsFor(cat, small, "sdapp", st);
        QVERIFY2(!contains(cpu, "--low"), dump(*sp::makePlan(small, cat, "sdapp", st)).c_str());
        // No GPU at all: no rule.
        const auto none = argsFor(cat, machine("linux", {}), "sdapp");
        QVERIFY(!contains(none, "--low") && !contains(none, "--mid"));
    }

    // The shipped rules as a table: the card's memory → the SD apps' options.
    void theShippedRulesFollowTheCard()
    {
        struct Row
        {
            const char* workload;
            sp::HardwareSnapshot snap;
            const char* expected; // the low-memory option, "" for none
        };
        const std::vector<Row> rows = {
            {"comfyui", machine("linux", {nvidia("GTX 1650", "7.5", 4096)}), "--lowvram"},
            {"comfyui", machine("linux", {nvidia("RTX 3060", "8.6", 12288)}), ""},
            {"comfyui", machine("linux", {amd("780M", "gfx1103", 512, true)}), ""},
            {"sdnext", machine("windows", {amd("RX 6500 XT", "gfx1034", 4096)}), "--lowvram"},
            {"sdnext", machine("windows", {amd("RX 6600", "gfx1032", 8192)}), "--medvram"},
            {"sdnext", machine("windows", {amd("RX 6750 XT", "gfx1031", 12288)}), "--medvram"},
            {"sdnext", machine("linux", {nvidia("RTX 4090", "8.9", 24564)}), ""},
            {"sdnext", machine("linux", {amd("780M", "gfx1103", 512, true)}), ""},
        };
        for (const Row& r : rows) {
            const auto p = plan(r.snap, r.workload);
            const std::string what = std::string(r.workload) + " on " + r.snap.gpus[0].name + ": " +
                                     dump(p).substr(0, 400);
            QVERIFY2(!p.profile.empty(), what.c_str());
            for (const char* opt : {"--lowvram", "--medvram", "--novram"})
                QVERIFY2(contains(p.args, opt) == (std::string(opt) == r.expected), what.c_str());
            QCOMPARE(p.argsNotes.size(), std::size_t(*r.expected ? 1 : 0));
        }
    }

    void aRuleNeedsItsWhyAndASource()
    {
        sp::CatalogLoader loader;
        auto r = loader.addText(R"({"schema_version": 1, "workloads": [{"id": "w", "name": "W",
          "command": ["x"], "args_when": [{"when": {"max_vram_mb": 10}, "args": ["--a"],
          "why": {"en": "e"}}]}]})",
                                "norefs.json");
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("norefs.json:2:") != std::string::npos &&
                     r.error().message.find("public source") != std::string::npos,
                 r.error().message.c_str());
        sp::CatalogLoader l2;
        r = l2.addText(R"({"schema_version": 1, "workloads": [{"id": "w", "name": "W",
          "command": ["x"], "args_when": [{"when": {"min_vram_mb": 9, "max_vram_mb": 4},
          "args": ["--a"], "why": {"en": "e"}, "references": ["https://example.org"]}]}]})",
                       "range.json");
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("below 'min_vram_mb'") != std::string::npos,
                 r.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSelectArgsRules)
#include "test_select_args_rules.moc"
