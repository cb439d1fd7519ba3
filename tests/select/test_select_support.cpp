// The support rule (a profile is rejected when its runtimes do not support the GPU's
// gfx), the policy tables as catalog data that a user's --catalog-dir extends without
// a rebuild, and the plan stages one by one.

#include "core/catalog/version_range.h"
#include "core/select/coverage.h"
#include "core/select/env_stages.h"
#include "core/select/gpu_support.h"
#include "core/select/visibility.h"
#include "select_fixtures.h"

#include <QProcess>
#include <QTemporaryDir>
#include <fstream>

using namespace fixtures;

namespace {

// Every plan a user could get for these cards, workloads and OSes: the chosen profile's
// runtimes support the GPU, and no warning says otherwise.
void checkNoChosenUnsupported(const sp::HardwareSnapshot& snap)
{
    const auto& cat = shippedCatalog();
    for (const auto& w : cat.workloads) {
        const auto p = plan(snap, w.id);
        const std::string where = snap.gpus.front().name + "/" + snap.os.family + "/" + w.id;
        for (const auto& warn : p.warnings)
            QVERIFY2(warn.find("not supported") == std::string::npos,
                     (where + ": " + warn).c_str());
        if (p.profile.empty() || !snap.gpus.front().gfx)
            continue;
        const auto support = sp::profileGfxSupport(*cat.profile(p.profile), cat,
                                                   *snap.gpus.front().gfx, snap.os.family);
        QVERIFY2(support.level != sp::GpuSupport::Unsupported,
                 (where + " -> " + p.profile).c_str());
    }
}

} // namespace

class TestSelectSupport : public QObject
{
    Q_OBJECT
private slots:
    void overrideTargets()
    {
        QCOMPARE(*sp::gfxForOverride("10.3.0"), std::string("gfx1030"));
        QCOMPARE(*sp::gfxForOverride("9.0.10"), std::string("gfx90a"));
        QCOMPARE(*sp::gfxForOverride("11.5.1"), std::string("gfx1151"));
        QVERIFY(!sp::gfxForOverride("10.3"));
        QVERIFY(!sp::gfxForOverride("10.16.0"));
        QCOMPARE(sp::gfxMajor("gfx1031"), std::string("10"));
        QCOMPARE(sp::gfxMajor("gfx90c"), std::string("9"));
        QCOMPARE(sp::gfxMajor("gfx"), std::string());
    }

    void rdna4OnLinuxGetsRocm64WithoutOverride()
    {
        const auto snap = machine("linux", {amd("AMD Radeon RX 9070 XT", "gfx1201", 16304)});
        for (const char* w : {"sdnext", "comfyui", "pytorch"}) {
            const auto p = plan(snap, w);
            const bool rocm64 =
                std::any_of(p.runtimes.begin(), p.runtimes.end(), [](const auto& r) {
                    return r.kind == "rocm" && sp::compareVersions(*sp::parseVersion(r.version),
                                                                   *sp::parseVersion("6.4")) >= 0;
                });
            QVERIFY2(rocm64, (std::string(w) + " -> " + p.profile).c_str());
            QVERIFY(!p.env.count("HSA_OVERRIDE_GFX_VERSION"));
            // The older ROCm profile is rejected with the reason and the known issue.
            const std::string old = std::string(w) + "-rocm6.2";
            QVERIFY2(citesIssue(alternative(p, old), "rocm-unsupported-gfx"), old.c_str());
        }
    }

    void rdna1NeverGets1030()
    {
        const auto snap = machine("linux", {amd("AMD Radeon RX 5700 XT", "gfx1010", 8176)});
        for (const auto& w : shippedCatalog().workloads) {
            const auto p = plan(snap, w.id);
            QVERIFY2(!p.env.count("HSA_OVERRIDE_GFX_VERSION"), (w.id + " -> " + p.profile).c_str());
            QVERIFY2(!hasRuntime(p, "rocm"), (w.id + " -> " + p.profile).c_str());
        }
    }

    void noChosenPlanUsesAnUnsupportedRuntime()
    {
        const std::vector<std::pair<std::string, std::string>> cards = {
            {"RX 5700 XT", "gfx1010"},  {"RX 6600", "gfx1032"},      {"RX 6750 XT", "gfx1031"},
            {"RX 6800 XT", "gfx1030"},  {"RX 7600", "gfx1102"},      {"RX 7800 XT", "gfx1101"},
            {"RX 7900 XTX", "gfx1100"}, {"RX 9070 XT", "gfx1201"},   {"Radeon 780M", "gfx1103"},
            {"Radeon 890M", "gfx1150"}, {"Radeon 8060S", "gfx1151"}, {"Radeon Vega 8", "gfx90c"}};
        for (const char* os : {"linux", "windows"})
            for (const auto& [name, gfx] : cards)
                checkNoChosenUnsupported(machine(os, {amd(name, gfx, 8192)}));
    }

    void nativeRanksAbovePackAboveOverride()
    {
        sp::CatalogLoader loader;
        auto r = loader.addText(R"({"schema_version": 1,
          "runtimes": [
            {"id": "sdk-a", "kind": "rocm", "version": "6.0", "system": true, "supported_gfx": ["gfx1030"]},
            {"id": "sdk-b", "kind": "rocm", "version": "6.0", "system": true, "supported_gfx": ["gfx1030", "gfx1031"]},
            {"id": "pack-1031", "kind": "rocblas-library", "version": "6.0", "system": true,
             "supported_gfx": ["gfx1031"], "requires": ["sdk-a"]}],
          "workloads": [{"id": "w", "name": "W", "command": ["x"]}],
          "profiles": [
            {"id": "a-override", "workload": "w", "status": "community", "runtimes": ["sdk-a"]},
            {"id": "a-pack", "workload": "w", "status": "community", "runtimes": ["sdk-a", "pack-1031"]},
            {"id": "b-native", "workload": "w", "status": "community", "runtimes": ["sdk-b"]}],
          "gfx_overrides": [{"gfx": "gfx1031", "hsa_override": "10.3.0", "os": ["linux"],
                             "confidence": "established", "evidence": "e"}]})",
                                "t.json");
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(loader.checkReferences().ok());
        auto cat = loader.catalog();
        const auto snap = machine("linux", {amd("RX 6750 XT", "gfx1031", 12288)});
        auto p = sp::makePlan(snap, cat, "w", settings());
        QCOMPARE(p->profile, std::string("b-native"));
        QVERIFY(!p->env.count("HSA_OVERRIDE_GFX_VERSION"));
        QCOMPARE(p->alternatives.at(0).profile, std::string("a-pack"));
        QCOMPARE(p->alternatives.at(1).profile, std::string("a-override"));
        QVERIFY(p->alternatives.at(1).reasons.front().text.find("weaker") != std::string::npos);
        // Without the native profile, the pack wins over the override.
        cat.profiles.erase(cat.profiles.begin() + 2);
        p = sp::makePlan(snap, cat, "w", settings());
        QCOMPARE(p->profile, std::string("a-pack"));
        QVERIFY(!p->env.count("HSA_OVERRIDE_GFX_VERSION"));
        // The override alone: chosen, with the variable and its evidence.
        cat.profiles.erase(cat.profiles.begin() + 1);
        p = sp::makePlan(snap, cat, "w", settings());
        QCOMPARE(p->profile, std::string("a-override"));
        QCOMPARE(p->env.at("HSA_OVERRIDE_GFX_VERSION"), std::string("10.3.0"));
        // On Windows the convention does not hold: rejected.
        p = sp::makePlan(machine("windows", {amd("RX 6750 XT", "gfx1031", 12288)}), cat, "w",
                         settings());
        QVERIFY(p->profile.empty());
        QVERIFY(citesIssue(alternative(*p, "a-override"), "rocm-unsupported-gfx"));
    }

    void cudaBuildsByComputeCapability()
    {
        QVERIFY(sp::ccRunsBuild("6.1", "6.0"));
        QVERIFY(sp::ccRunsBuild("8.9", "8.6"));
        QVERIFY(!sp::ccRunsBuild("8.6", "8.9"));
        QVERIFY(!sp::ccRunsBuild("12.0", "9.0")); // no PTX JIT across majors
        sp::CatalogLoader loader;
        auto r = loader.addText(R"({"schema_version": 1,
          "runtimes": [
            {"id": "torch-old", "kind": "torch-wheels", "version": "2.5", "supported_cc": ["5.0", "6.0", "7.0", "7.5", "8.0", "8.6", "9.0"]},
            {"id": "torch-new", "kind": "torch-wheels", "version": "2.8", "supported_cc": ["7.5", "8.0", "8.6", "9.0", "10.0", "12.0"]}],
          "workloads": [{"id": "w", "name": "W", "command": ["x"]}],
          "profiles": [
            {"id": "old", "workload": "w", "status": "community", "match": {"vendor": "nvidia"}, "runtimes": ["torch-old"]},
            {"id": "new", "workload": "w", "status": "community", "match": {"vendor": "nvidia"}, "runtimes": ["torch-new"]},
            {"id": "cpu", "workload": "w", "status": "community", "fallback": true}]})",
                                "t.json");
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        const auto cat = loader.catalog();
        auto pick = [&](const std::string& cc) {
            auto p =
                sp::makePlan(machine("linux", {nvidia("card", cc, 8192)}), cat, "w", settings());
            return *p;
        };
        QCOMPARE(pick("12.0").profile, std::string("new")); // Blackwell: only the new build
        QVERIFY(citesIssue(alternative(pick("12.0"), "old"), "cuda-arch-mismatch"));
        QCOMPARE(pick("6.1").profile, std::string("old")); // Pascal: only the old build
        QCOMPARE(pick("8.9").profile, std::string("new")); // both: the newer runtime
        const auto kepler = pick("3.5");
        QCOMPARE(kepler.profile, std::string("cpu"));
        QVERIFY(citesIssue(alternative(kepler, "new"), "cuda-arch-mismatch"));
        // A bad entry is a load error with its position.
        sp::CatalogLoader bad;
        auto e = bad.addText(R"({"schema_version": 1, "runtimes": [
          {"id": "t", "kind": "k", "version": "1", "supported_cc": ["sm_86"]}]})",
                             "bad.json");
        QVERIFY(!e.ok());
        QVERIFY2(e.error().message.rfind("bad.json:2:", 0) == 0, e.error().message.c_str());
    }

    void blackwellNeverGetsACu124Torch()
    {
        // Blackwell gets the CUDA 13 build; the cu126 build has no kernels for it and says so.
        const auto snap = machine("windows", {nvidia("GeForce RTX 5090", "12.0", 32768)});
        for (const char* w : {"comfyui", "pytorch", "autotrain-advanced"}) {
            const auto p = plan(snap, w);
            QVERIFY2(hasRuntime(p, "torch-wheels", "cu130"),
                     (std::string(w) + " -> " + p.profile).c_str());
        }
        QVERIFY(citesIssue(alternative(plan(snap, "comfyui"), "comfyui-cuda126-windows"),
                           "cuda-arch-mismatch"));
        // An RTX 3060 gets the CUDA 13 build too, a Pascal card the cu126 one.
        QVERIFY(hasRuntime(plan(machine("windows", {nvidia("RTX 3060", "8.6", 12288)}), "comfyui"),
                           "torch-wheels", "cu130"));
        QVERIFY(hasRuntime(plan(machine("windows", {nvidia("GTX 1060", "6.1", 6144)}), "comfyui"),
                           "torch-wheels", "cu126"));
    }

    void catalogDirAddsOverrideAndCacheVariable()
    {
        // A user file adds a convention for a gfx the shipped tables lack, overrides one
        // entry, and adds a cache variable; the plan shows all three without a rebuild.
        QTemporaryDir dir;
        const auto cat = catalogWith(R"({"schema_version": 1,
          "gfx_overrides": [
            {"gfx": "gfx1033", "hsa_override": "10.3.0", "os": ["linux"], "confidence": "inferred",
             "evidence": "test"},
            {"gfx": "gfx1031", "hsa_override": "10.3.0", "os": ["linux"], "confidence": "reported",
             "evidence": "my own", "warning": "from my rules file"}],
          "cache_variables": [{"name": "MY_TOOL_CACHE", "subdir": "my-tool", "why": "test"}]})",
                                     dir);
        auto p = sp::makePlan(machine("linux", {amd("Van Gogh", "gfx1033", 1024)}), cat, "pytorch",
                              settings());
        QCOMPARE(p->env.at("HSA_OVERRIDE_GFX_VERSION"), std::string("10.3.0"));
        p = sp::makePlan(machine("linux", {amd("RX 6750 XT", "gfx1031", 12288)}, "nfs"), cat,
                         "pytorch", settings());
        QVERIFY(std::any_of(p->warnings.begin(), p->warnings.end(), [](const std::string& w) {
            return w.find("from my rules file") != std::string::npos;
        }));
        QCOMPARE(p->env.at("MY_TOOL_CACHE"), std::string("/var/tmp/stackpilot-u/my-tool"));
        QCOMPARE(p->env.at("TORCH_HOME"), std::string("/var/tmp/stackpilot-u/torch"));
        // The shipped catalog alone does neither.
        const auto shipped =
            plan(machine("linux", {amd("RX 6750 XT", "gfx1031", 12288)}, "nfs"), "pytorch");
        QVERIFY(!shipped.env.count("MY_TOOL_CACHE"));
        QVERIFY(shipped.env.count("TORCH_HOME"));
    }

    void catalogDirThroughTheCli()
    {
        QTemporaryDir dir; // the rules file; every .json in it is read as catalog
        QTemporaryDir snapDir;
        {
            std::ofstream(dir.filePath(QStringLiteral("rules.json")).toStdString())
                << R"({"schema_version": 1,
              "gfx_overrides": [{"gfx": "gfx1033", "hsa_override": "10.3.0", "os": ["linux"],
                                 "confidence": "inferred", "evidence": "test"}],
              "cache_variables": [{"name": "MY_TOOL_CACHE", "subdir": "my-tool", "why": "test"}]})";
            std::ofstream(snapDir.filePath(QStringLiteral("snap.json")).toStdString())
                << R"({"schema": 1, "os": {"family": "linux"},
              "home": {"path": "/home/u", "filesystem": "nfs"},
              "gpus": [{"vendor": "amd", "name": "Van Gogh", "gfx": "gfx1033", "vram_mb": 1024}]})";
        }
        QProcess cli;
        cli.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"),
                  {QStringLiteral("plan"), QStringLiteral("--workload"), QStringLiteral("pytorch"),
                   QStringLiteral("--json"), QStringLiteral("--hardware"),
                   snapDir.filePath(QStringLiteral("snap.json")), QStringLiteral("--catalog-dir"),
                   dir.path()});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        const auto j = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
        QCOMPARE(j["env"]["HSA_OVERRIDE_GFX_VERSION"].get<std::string>(), std::string("10.3.0"));
        QVERIFY(j["env"]["MY_TOOL_CACHE"].get<std::string>().find("my-tool") != std::string::npos);
    }

    // The visibility stage: each runtime's variables, each with its API's index; an index
    // the snapshot does not show is named as a belief.
    void stageVisibility()
    {
        sp::Catalog cat;
        sp::Runtime rocm, sdk, cu;
        rocm.id = "rocm";
        rocm.visibleDevices = {
            {"ROCR_VISIBLE_DEVICES", "rocr", "", {"linux"}, {}, "r"},
            {"HIP_VISIBLE_DEVICES", "hip", "ROCR_VISIBLE_DEVICES", {"linux"}, {}, "h"}};
        sdk.id = "sdk";
        sdk.visibleDevices = {{"HIP_VISIBLE_DEVICES", "hip", "", {"windows"}, {}, "w"}};
        cu.id = "cu";
        cu.visibleDevices = {
            {"CUDA_VISIBLE_DEVICES", "cuda", "", {}, {{"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}}, "c"}};
        cat.runtimes = {rocm, sdk, cu};
        sp::Profile prof;
        prof.runtimes = {"rocm", "sdk", "cu"};

        auto linux =
            machine("linux", {amd("igpu", "gfx1103", 512, true), amd("card", "gfx1100", 24576)});
        linux.gpus[0].indices = {{"rocr", 1}};
        linux.gpus[1].indices = {{"rocr", 0}};
        sp::Plan p;
        sp::applyVisibility(p, linux, cat, prof, 1);
        QCOMPARE(p.env.at("ROCR_VISIBLE_DEVICES"), std::string("0"));
        QCOMPARE(p.env.at("HIP_VISIBLE_DEVICES"), std::string("0"));
        QVERIFY(!p.env.count("CUDA_VISIBLE_DEVICES")); // CUDA numbers no AMD card
        QVERIFY(p.warnings.empty());

        sp::Plan w; // Windows, no hipInfo: believed, and the plan says so
        sp::applyVisibility(
            w,
            machine("windows", {amd("igpu", "gfx1103", 512, true), amd("card", "gfx1100", 24576)}),
            cat, prof, 1);
        QCOMPARE(w.env.at("HIP_VISIBLE_DEVICES"), std::string("1"));
        QVERIFY(!w.env.count("ROCR_VISIBLE_DEVICES"));
        QCOMPARE(w.warnings.size(), std::size_t(1));
        QVERIFY(w.warnings[0].find("believed to be that card") != std::string::npos);

        auto two =
            machine("linux", {nvidia("rtx 4090", "8.9", 24564), nvidia("rtx 3060", "8.6", 12288)});
        two.gpus[0].pciBus = "0000:02:00.0";
        two.gpus[1].pciBus = "0000:01:00.0";
        sp::Plan n; // learned from the bus order CUDA_DEVICE_ORDER=PCI_BUS_ID gives
        sp::applyVisibility(n, two, cat, prof, 0);
        QCOMPARE(n.env.at("CUDA_VISIBLE_DEVICES"), std::string("1"));
        QCOMPARE(n.env.at("CUDA_DEVICE_ORDER"), std::string("PCI_BUS_ID"));
        QVERIFY(n.warnings.empty());
        for (const auto& [k, v] : n.env)
            QVERIFY(!n.envWhy.at(k).empty());

        // Vulkan: vulkaninfo's number only. One GPU without it: nothing to hide, no variable;
        // two: the snapshot's order, named as a belief. The only AMD GPU is HIP device 0.
        sp::Runtime vk;
        vk.id = "vk";
        vk.visibleDevices = {{"GGML_VK_VISIBLE_DEVICES", "vulkan", "", {}, {}, "v"}};
        cat.runtimes.push_back(vk);
        sp::Profile vkProf;
        vkProf.runtimes = {"vk", "sdk"};
        sp::Plan one;
        sp::applyVisibility(one, machine("windows", {amd("card", "gfx1100", 24576)}), cat, vkProf,
                            0);
        QVERIFY(!one.env.count("GGML_VK_VISIBLE_DEVICES"));
        QCOMPARE(one.env.at("HIP_VISIBLE_DEVICES"), std::string("0"));
        QVERIFY(one.warnings.empty());
        sp::Plan both;
        sp::applyVisibility(both, two, cat, vkProf, 1);
        QCOMPARE(both.env.at("GGML_VK_VISIBLE_DEVICES"), std::string("1"));
        QCOMPARE(both.warnings.size(), std::size_t(1));
    }

    void stageCacheRelocationBase()
    {
        const auto& cat = shippedCatalog();
        auto st = settings(); // cacheDir is under /home/u
        const auto nfs = machine("linux", {}, "nfs");
        QCOMPARE(sp::cacheRelocationBase(nfs, cat, st), std::string("/var/tmp/stackpilot-u"));
        const auto win = machine("windows", {}, "cifs");
        auto winSt = st;
        winSt.cacheDir = "C:\\Users\\u\\AppData\\Local\\cache\\stackpilot";
        QCOMPARE(sp::cacheRelocationBase(win, cat, winSt), std::string("C:\\StackPilotCache\\u"));
        st.cacheDir = "/scratch/sp-cache"; // a cache folder off the home is used as it is
        QCOMPARE(sp::cacheRelocationBase(nfs, cat, st), std::string("/scratch/sp-cache"));
        st.localCacheDir = "/fast/local";
        QCOMPARE(sp::cacheRelocationBase(nfs, cat, st), std::string("/fast/local"));
        // A local home moves nothing; only pip's shared cache is set, in StackPilot's cache.
        sp::Plan p;
        sp::relocateCaches(p, machine("linux", {}), cat, settings());
        QCOMPARE(p.env.size(), std::size_t(1));
        QCOMPARE(p.env.at("PIP_CACHE_DIR"), std::string("/home/u/.cache/stackpilot/pip"));
        // One wheel cache for every profile: two profiles share it.
        const auto a = plan(machine("linux", {nvidia("RTX 3060", "8.6", 12288)}), "comfyui");
        const auto b = plan(machine("linux", {nvidia("RTX 3060", "8.6", 12288)}), "pytorch");
        QVERIFY(a.profile != b.profile);
        QCOMPARE(a.env.at("PIP_CACHE_DIR"), b.env.at("PIP_CACHE_DIR"));
    }

    void stageZludaCacheOnlyFromItsVersion()
    {
        const auto& cat = shippedCatalog();
        sp::Plan p;
        p.runtimes.push_back({"zluda-3.9.5-rocm5", "zluda", "3.9.5", "", false, false, false, {}});
        sp::relocateCaches(p, machine("windows", {}, "cifs"), cat, settings());
        QVERIFY(p.env.count("TORCH_HOME"));
        QVERIFY(!p.env.count("ZLUDA_CACHE_DIR")); // 3.9.5 has no such variable
    }

    void targetOsFolders()
    {
        sp::SelectSettings host;
        host.dataDir = "/host/data";
        auto s = sp::settingsForSnapshot(machine("windows", {}), host, false);
        QCOMPARE(s.dataDir, std::string("C:\\Users\\u\\AppData\\Local\\stackpilot"));
        s = sp::settingsForSnapshot(machine("windows", {}), host, true); // portable: host's
        QCOMPARE(s.dataDir, std::string("/host/data"));
        s = sp::settingsForSnapshot(machine("linux", {}), host, false);
        QCOMPARE(s.dataDir, std::string("/host/data"));
    }

    void coverageTable()
    {
        auto list = sp::loadCoverageList(STACKPILOT_SOURCE_DIR "/profiles/gpu/coverage-gpus.json");
        QVERIFY2(list.ok(), list.ok() ? "" : list.error().message.c_str());
        QVERIFY(list->gpus.size() >= 17);
        const auto all =
            sp::coverage(shippedCatalog(), list->gpus, {"windows", "linux"}, settings());
        QCOMPARE(all.columns.size(), shippedCatalog().workloads.size() * 2);
        const auto t = sp::coverage(shippedCatalog(), list->gpus, {"windows", "linux"}, settings(),
                                    list->workloads);
        QCOMPARE(t.columns.size(), list->workloads.size() * 2);
        auto cell = [&](const std::string& gpu, const std::string& w, const std::string& os) {
            for (const auto& row : t.rows)
                for (std::size_t c = 0; c < t.columns.size(); ++c)
                    if (row.gpu.name == gpu && t.columns[c] == std::make_pair(w, os))
                        return row.cells[c];
            qFatal("no cell");
        };
        const auto rtx = cell("GeForce RTX 3060", "sdnext", "linux");
        QVERIFY(rtx.gpu && rtx.profile == "sdnext-cuda-linux");
        // RDNA1 on Linux: AMD's ROCm 10.1 wheels with the gfx1010 device package (issue 23).
        const auto rdna1 = cell("Radeon RX 5700 XT", "sdnext", "linux");
        QVERIFY2(rdna1.gpu && rdna1.profile == "sdnext-rocm10.1-linux-rdna1", rdna1.note.c_str());
        // Kepler: no CUDA build in the catalog has code for CC 3.5, so the CPU, with the reason.
        const auto kepler = cell("GeForce GTX 780", "sdnext", "linux");
        QVERIFY(!kepler.gpu && kepler.profile == "sdnext-cpu-linux");
        QVERIFY2(kepler.note.find("no kernels for compute capability 3.5") != std::string::npos,
                 kepler.note.c_str());
        const auto seed000 = cell("Radeon RX 6700 XT", "sdnext", "windows");
        QCOMPARE(seed000.profile, std::string("sdnext-zluda-hip5.7-rocblas-gfx1031"));
        QVERIFY(!sp::loadCoverageList(STACKPILOT_SOURCE_DIR "/no-such-file.json").ok());
    }

    void alternativeGroups()
    {
        const auto p = plan(machine("windows", {amd("RX 6750 XT", "gfx1031", 12288)}), "sdnext");
        const auto g = sp::groupAlternatives(p);
        QVERIFY(contains(g.otherMachine, "sdnext-rocm6.2")); // made for Linux
        QVERIFY(std::any_of(g.explained.begin(), g.explained.end(), [](const auto* a) {
            return a->profile == "sdnext-zluda-hip6.1-rocblas-gfx1031"; // a known issue
        }));
        QCOMPARE(g.explained.size() + g.otherMachine.size(), p.alternatives.size());
    }
};

QTEST_GUILESS_MAIN(TestSelectSupport)
#include "test_select_support.moc"
