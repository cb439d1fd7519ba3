// Selection rules beyond the seeds: HSA overrides, GPU choice, ranking, errors and
// determinism, partly on small in-memory catalogs.

#include "core/catalog/version_range.h"
#include "select_fixtures.h"
#include "url_fixtures.h"

using namespace fixtures;

namespace {

sp::Catalog tinyCatalog(const std::string& extraProfiles = {})
{
    // One ROCm that only supports gfx1100 and gfx1030, and three pytorch profiles.
    const std::string text = R"({"schema_version": 1,
      "runtimes": [
        {"id": "py", "kind": "python", "version": "3.11", "system": true, "executable": {"linux": "bin/python3", "windows": "python.exe"}},
        {"id": "rocm-x", "kind": "rocm", "version": "6.2", "system": true,
         "supported_gfx": ["gfx1100", "gfx90a"]},
        {"id": "rocm-old", "kind": "rocm", "version": "5.7", "system": true, "supported_gfx": ["gfx1030", "gfx1100"]}],
      "workloads": [{"id": "pytorch", "name": "PyTorch", "command": ["{python}"]}],
      "profiles": [
        {"id": "generic", "workload": "pytorch", "status": "community", "match": {"os": ["linux"], "vendor": "amd"},
         "runtimes": ["py", "rocm-x"]},
        {"id": "older", "workload": "pytorch", "status": "community", "match": {"os": ["linux"], "vendor": "amd"},
         "runtimes": ["py", "rocm-old"]},
        {"id": "narrow", "workload": "pytorch", "status": "experimental",
         "match": {"os": ["linux"], "vendor": "amd", "gfx": ["gfx1100"]}, "runtimes": ["py", "rocm-x"]},
        {"id": "cpu", "workload": "pytorch", "status": "community", "fallback": true, "runtimes": ["py"]}
        )" + extraProfiles + R"(],
      "gfx_overrides": [
        {"gfx": "gfx1031", "hsa_override": "10.3.0", "os": ["linux"], "confidence": "established", "evidence": "e"},
        {"gfx": "gfx1103", "hsa_override": "11.0.0", "os": ["linux"], "confidence": "reported", "evidence": "e"}]})";
    return catalogFromText(text, "tiny.json");
}

// Two equal routes that differ only in whether their download's asset name was seen.
sp::Catalog urlEvidenceCatalog()
{
    const std::string text = kUrlEvidenceCatalog;
    sp::CatalogLoader loader;
    auto r = loader.addText(text, "urls.json");
    if (!r)
        qFatal("%s", r.error().message.c_str());
    return loader.catalog();
}

} // namespace

class TestSelectRules : public QObject
{
    Q_OBJECT
private slots:
    void hsaOverrideOnlyWhenNeededAndSameMajor()
    {
        const auto cat = tinyCatalog();
        // gfx1103 has no kernels in rocm-x; 11.0.0 (gfx1100) is the same major and supported.
        auto p = sp::makePlan(machine("linux", {amd("780M", "gfx1103", 2048, true)}), cat,
                              "pytorch", settings());
        QVERIFY(p.ok());
        QCOMPARE(p->profile, std::string("generic"));
        QCOMPARE(p->env.at("HSA_OVERRIDE_GFX_VERSION"), std::string("11.0.0"));
        // gfx1031 maps to 10.3.0 (gfx1030), which rocm-x does not support: the profile is
        // rejected, citing rocm-unsupported-gfx, never chosen with a warning. rocm-old has
        // gfx1030 kernels, so "older" runs the card through the override.
        p = sp::makePlan(machine("linux", {amd("RX 6750 XT", "gfx1031", 12288)}), cat, "pytorch",
                         settings());
        QVERIFY(p.ok());
        QCOMPARE(p->profile, std::string("older"));
        QCOMPARE(p->env.at("HSA_OVERRIDE_GFX_VERSION"), std::string("10.3.0"));
        const auto* generic = alternative(*p, "generic");
        QVERIFY(generic && generic->verdict == "rejected");
        QCOMPARE(generic->reasons.front().knownIssue, std::string("rocm-unsupported-gfx"));
        QVERIFY(std::none_of(p->warnings.begin(), p->warnings.end(), [](const std::string& w) {
            return w.find("not supported") != std::string::npos;
        }));
        // Supported natively: nothing set.
        p = sp::makePlan(machine("linux", {amd("RX 7900 XTX", "gfx1100", 24576)}), cat, "pytorch",
                         settings());
        QVERIFY(!p->env.count("HSA_OVERRIDE_GFX_VERSION"));
        // Never on Windows: the conventions are for Linux, so the ROCm profiles do not
        // support the 780M there (and these runtimes are not Linux-only here).
        p = sp::makePlan(machine("windows", {amd("780M", "gfx1103", 2048, true)}), cat, "pytorch",
                         settings());
        QVERIFY(!p->env.count("HSA_OVERRIDE_GFX_VERSION"));
        QCOMPARE(p->profile, std::string("cpu"));
    }

    void shippedCatalogOverridesGfx1031OnLinux()
    {
        const auto p =
            plan(machine("linux", {amd("AMD Radeon RX 6750 XT", "gfx1031", 12288)}), "pytorch");
        QCOMPARE(p.env.at("HSA_OVERRIDE_GFX_VERSION"), std::string("10.3.0"));
        QVERIFY(!p.envWhy.at("HSA_OVERRIDE_GFX_VERSION").empty());
        const auto& cat = shippedCatalog();
        QVERIFY(!cat.gfxOverride("gfx1100", "linux"));
        QVERIFY(!cat.gfxOverride("gfx1031", "windows"));
        QCOMPARE(cat.gfxOverride("gfx90c", "linux")->hsaOverride, std::string("9.0.0"));
        // RDNA1 never gets 10.3.0: users report crashes with it.
        QVERIFY(!cat.gfxOverride("gfx1010", "linux"));
        QVERIFY(!cat.gfxOverride("gfx1012", "linux"));
    }

    void rankingStatusThenSpecificityThenNewest()
    {
        const auto cat = tinyCatalog();
        auto p = sp::makePlan(machine("linux", {amd("RX 7900 XTX", "gfx1100", 24576)}), cat,
                              "pytorch", settings());
        // community beats the narrower experimental; among community, newer ROCm wins.
        QCOMPARE(p->profile, std::string("generic"));
        const auto* older = alternative(*p, "older");
        QVERIFY(older && older->verdict == "available");
        QVERIFY(older->reasons.front().text.find("older") != std::string::npos);
        const auto* narrow = alternative(*p, "narrow");
        QVERIFY(narrow && narrow->verdict == "available");
        // With equal status, the narrower match wins.
        const auto cat2 = tinyCatalog(
            R"(, {"id": "narrow-community", "workload": "pytorch", "status": "community",
            "match": {"os": ["linux"], "vendor": "amd", "gfx": ["gfx1100"]}, "runtimes": ["py", "rocm-old"]})");
        p = sp::makePlan(machine("linux", {amd("RX 7900 XTX", "gfx1100", 24576)}), cat2, "pytorch",
                         settings());
        QCOMPARE(p->profile, std::string("narrow-community"));
    }

    // What other PCs with a card of this family reported ranks after this PC's own
    // evidence and before the status: the experimental stack that 12 gfx1100 PCs passed
    // beats the community one most of them failed; on a gfx90a card, where nobody reported,
    // the status decides again. The plan says it in its words.
    void crowdCountsOfThisGpuFamilyRankBeforeStatus()
    {
        const std::string proven = R"(, {"id": "crowd-passed", "workload": "pytorch",
            "status": "experimental", "match": {"os": ["linux"], "vendor": "amd"},
            "runtimes": ["py", "rocm-x"], "proof": {"passed_installs": 30, "failed_installs": 1,
            "installs": 31, "window_days": 180, "last_seen": "2026-11-20T10:00:00Z",
            "by_gpu": [{"arch": "gfx1100", "passed_installs": 12, "failed_installs": 1,
            "installs": 13, "last_seen": "2026-11-20T10:00:00Z"}]}})";
        const std::string failing = R"(, {"id": "crowd-failed", "workload": "pytorch",
            "status": "community", "match": {"os": ["linux"], "vendor": "amd", "gfx": ["gfx1100", "gfx90a"]},
            "runtimes": ["py", "rocm-x"], "proof": {"passed_installs": 2, "failed_installs": 9,
            "installs": 11, "window_days": 180, "last_seen": "2026-11-21T10:00:00Z",
            "by_gpu": [{"arch": "gfx1100", "passed_installs": 2, "failed_installs": 9,
            "installs": 11, "last_seen": "2026-11-21T10:00:00Z"}]}})";
        const auto cat = tinyCatalog(proven + failing);
        auto p = sp::makePlan(machine("linux", {amd("RX 7900 XTX", "gfx1100", 24576)}), cat,
                              "pytorch", settings());
        QVERIFY(p.ok());
        QCOMPARE(p->profile, std::string("crowd-passed"));
        QCOMPARE(p->sharedEvidence,
                 std::string("passed on 12 PCs with a gfx1100 card, 1 failed (last: 2026-11-20)"));
        const auto* failed = alternative(*p, "crowd-failed");
        QVERIFY(failed && failed->verdict == "available");
        QCOMPARE(failed->reasons.front().rank, std::string("crowd"));
        QVERIFY2(failed->reasons.front().text.find("12 passed, 1 failed with crowd-passed, 2 "
                                                   "passed, 9 failed with this one") !=
                     std::string::npos,
                 failed->reasons.front().text.c_str());
        // No family data for gfx90a: the status and the match decide, and the plan says that
        // the counts come from other cards.
        p = sp::makePlan(machine("linux", {amd("MI210", "gfx90a", 65536)}), cat, "pytorch",
                         settings());
        QVERIFY(p.ok());
        QCOMPARE(p->profile, std::string("crowd-failed"));
        QCOMPARE(p->sharedEvidence, std::string("passed on 2 PCs with other cards (none yet with "
                                                "a gfx90a card), 9 failed (last: 2026-11-21)"));
    }

    void gpuChoiceDiscreteThenVram()
    {
        auto s = machine("linux", {amd("iGPU", "gfx1036", 512, true), amd("small", "gfx1030", 8192),
                                   amd("big", "gfx1100", 24576)});
        QCOMPARE(*sp::chooseGpu(s), 2);
        auto p = plan(s, "pytorch");
        QCOMPARE(p.env.at("ROCR_VISIBLE_DEVICES"), std::string("2"));
        QCOMPARE(p.env.at("HIP_VISIBLE_DEVICES"), std::string("0"));
        // NVIDIA index counts NVIDIA GPUs only.
        s = machine("linux", {amd("iGPU", "gfx1036", 512, true), nvidia("RTX 3080", "8.6", 10240)});
        p = plan(s, "pytorch");
        QCOMPARE(*p.gpu, 1);
        QCOMPARE(p.env.at("CUDA_VISIBLE_DEVICES"), std::string("0"));
    }

    void noGpuFallsBackToCpu()
    {
        const auto p = plan(machine("linux", {}), "llamafile");
        QVERIFY(!p.gpu);
        QCOMPARE(p.profile, std::string("llamafile-0.8.1-cpu-linux"));
        QVERIFY(!p.env.count("CUDA_VISIBLE_DEVICES") && !p.env.count("HIP_VISIBLE_DEVICES"));
        QVERIFY(sp::toJson(p)["gpu"].is_null());
    }

    // A route whose download URL no public source shows ranks below an equal route whose
    // downloads all have evidence (after status and preference), and its plan says so.
    void unverifiedUrlRanksBelowAndSaysSo()
    {
        const auto cat = urlEvidenceCatalog();
        const auto snap = machine("linux", {amd("RX 7900 XTX", "gfx1100", 24576)});
        auto p = sp::makePlan(snap, cat, "w", settings());
        QVERIFY(p.ok());
        QCOMPARE(p->profile, std::string("b-seen")); // not a-guessed, though its id sorts first
        const auto* guessed = alternative(*p, "a-guessed");
        QVERIFY(guessed && guessed->verdict == "available");
        QVERIFY2(guessed->reasons.front().text.find("url_unverified") != std::string::npos,
                 guessed->reasons.front().text.c_str());
        // Status still comes first: the verified experimental route stays below.
        QCOMPARE(alternative(*p, "c-seen-experimental")->reasons.front().text.find("status"),
                 std::string("ranked below b-seen: ").size());
        sp::SelectSettings forced = settings();
        forced.profile = "a-guessed";
        auto g = sp::makePlan(snap, cat, "w", forced);
        QVERIFY(g.ok());
        QVERIFY(std::any_of(g->warnings.begin(), g->warnings.end(), [](const std::string& w) {
            return w.find("no public source shows the download URL of guessed") == 0;
        }));
        QVERIFY(sp::toJson(*g).dump().find("\"url_unverified\":true") != std::string::npos);
    }

    void errors()
    {
        const auto& cat = shippedCatalog();
        const auto snap = machine("windows", {amd("RX 6750 XT", "gfx1031", 12288)});
        auto p = sp::makePlan(snap, cat, "no-such-workload", settings());
        QVERIFY(!p.ok() && p.error().code == sp::ErrorCode::Usage);
        auto st = settings();
        st.profile = "no-such-profile";
        p = sp::makePlan(snap, cat, "sdnext", st);
        QVERIFY(!p.ok() && p.error().code == sp::ErrorCode::Usage);
        st.profile = "sdnext-zluda-hip6.1-rocblas-gfx1031";
        p = sp::makePlan(snap, cat, "sdnext", st);
        QVERIFY(!p.ok() && p.error().code == sp::ErrorCode::Runtime);
        QVERIFY2(p.error().message.find("rocm-zluda-rocblas-access-violation") != std::string::npos,
                 p.error().message.c_str());
        st.profile = "sdnext-zluda-hip6.2-rocblas-gfx1031"; // fits, so forcing it works
        p = sp::makePlan(snap, cat, "sdnext", st);
        QVERIFY(p.ok() && p->profile == st.profile);
        // The stack it would have chosen is not "below" the forced one: it says so.
        const auto* best = alternative(*p, "sdnext-zluda-hip5.7-rocblas-gfx1031");
        QVERIFY(best && best->verdict == "available");
        QCOMPARE(best->reasons.front().rank, std::string("chosen"));
        QVERIFY2(best->reasons.front().text.find("ranks higher") != std::string::npos,
                 best->reasons.front().text.c_str());
    }

    void everyShippedProfileCanBeChosenSomewhere()
    {
        // Build, for each profile, the machine its `match` describes; the profile must
        // then fit, or be ruled out only by a known issue (as HIP 6.1 + ZLUDA is).
        for (const auto& prof : shippedCatalog().profiles) {
            const auto& m = prof.match;
            sp::HardwareSnapshot snap = machine(m.os.empty() ? "linux" : m.os.front(), {},
                                                m.networkHome.value_or(false) ? "nfs" : "ext4");
            if (m.osBuild) // a Windows 11 build (the only os_build the catalog names)
                snap.os.extra["kernel"] = "10.0.26100";
            if (!prof.fallback) {
                const std::string vendor = m.vendors.empty() ? "amd" : m.vendors.front();
                std::string gfx = m.gfx.empty() ? "gfx1100" : m.gfx.front();
                if (gfx.back() == '*')
                    gfx.back() = '0';
                sp::GpuInfo g =
                    vendor == "nvidia" ? nvidia("gpu", "8.6", 16384) : amd("gpu", gfx, 16384);
                if (m.computeCapability) {
                    for (const char* cc : {"8.6", "7.5", "6.1", "5.0", "9.0"})
                        if (m.computeCapability->range.contains(std::string(cc))) {
                            g.computeCapability = cc;
                            break;
                        }
                }
                g.integrated = m.integrated.value_or(false);
                snap.gpus.push_back(g);
            }
            const auto p = plan(snap, prof.workload);
            if (p.profile == prof.id)
                continue;
            const auto* alt = alternative(p, prof.id);
            QVERIFY2(alt, prof.id.c_str());
            if (alt->verdict == "available")
                continue;
            for (const auto& r : alt->reasons)
                QVERIFY2(!r.knownIssue.empty(), (prof.id + ": " + r.text).c_str());
        }
    }

    void planIsAPureFunction()
    {
        const auto snap = machine("windows", {amd("AMD Radeon RX 6750 XT", "gfx1031", 12288)});
        const auto a = dump(plan(snap, "sdnext"));
        const auto b = dump(plan(snap, "sdnext"));
        QCOMPARE(a, b);
        // Through a JSON round trip of the snapshot (as plan --hardware reads it): same bytes.
        auto reread = sp::snapshotFromJson(sp::toJson(snap), "snap");
        QVERIFY(reread.ok());
        QCOMPARE(dump(plan(*reread, "sdnext")), a);
        // Paths follow the snapshot's OS, not the host's.
        const auto j = sp::toJson(plan(snap, "sdnext"));
        const auto src = std::find_if(j["runtimes"].begin(), j["runtimes"].end(),
                                      [](const auto& r) { return r["id"] == "sdnext-src"; });
        QVERIFY(src != j["runtimes"].end());
        QCOMPARE((*src)["dir"].get<std::string>(), std::string("/data/sp\\runtimes\\sdnext-src"));
        QVERIFY(j["command"][0].get<std::string>().find("\\webui.bat") != std::string::npos);
        const auto linux =
            sp::toJson(plan(machine("linux", {amd("RX", "gfx1100", 24576)}), "sdnext"));
        QVERIFY(linux["command"][0].get<std::string>() == "/data/sp/runtimes/sdnext-src/webui.sh");
    }
};

QTEST_GUILESS_MAIN(TestSelectRules)
#include "test_select_rules.moc"
