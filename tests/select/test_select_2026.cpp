// The 2026 catalog's rules as acceptance tests, one per rule: AMD's own PyTorch on
// Windows for RDNA3 and later, a GPU stack for RDNA1/RDNA2, ROCm >= 6.4 without overrides
// for RDNA4 on Linux, no 11.0.0 for Strix Halo, CUDA >= 12.8 for Blackwell, Pascal and
// Kepler by compute capability, the seed fixes, llama-server and llamafile 0.10.6, and the
// override policy with its bans. Snapshots are built in code; the catalog is the shipped one.

#include "core/catalog/version_range.h"
#include "select_fixtures.h"

#include <QTemporaryDir>
#include <fstream>
#include <set>

using namespace fixtures;

namespace {

const std::string kAmdWheels = "https://stable.repo.amd.com/rocm/whl-next/";

bool versionAtLeast(const std::string& v, const std::string& min)
{
    const auto a = sp::parseVersion(v);
    const auto b = sp::parseVersion(min);
    return a && b && sp::compareVersions(*a, *b) >= 0;
}

const sp::PlanRuntime* runtimeOfKind(const sp::Plan& p, const std::string& kind)
{
    for (const auto& r : p.runtimes)
        if (r.kind == kind)
            return &r;
    return nullptr;
}

bool fallback(const sp::Plan& p)
{
    const sp::Profile* prof = shippedCatalog().profile(p.profile);
    return !prof || prof->fallback;
}

// The CUDA version of the plan's PyTorch, from its index (".../whl/cu130" -> 130), or 0.
int torchCuda(const sp::Plan& p)
{
    for (const auto& r : p.runtimes) {
        const sp::Runtime* rt = shippedCatalog().runtime(r.id);
        const auto at = rt ? rt->indexUrl.rfind("/cu") : std::string::npos;
        if (r.kind == "torch-wheels" && at != std::string::npos)
            return std::stoi(rt->indexUrl.substr(at + 3));
    }
    return 0;
}

bool anyStepHas(const sp::Plan& p, const std::string& part)
{
    for (const auto& step : p.steps)
        for (const auto& a : step)
            if (a.find(part) != std::string::npos)
                return true;
    return false;
}

} // namespace

class TestSelect2026 : public QObject
{
    Q_OBJECT
private slots:
    void windowsRx9070xtSdnextGetsAmdsNativeRoute()
    {
        const auto p =
            plan(machine("windows", {amd("AMD Radeon RX 9070 XT", "gfx1201", 16304)}), "sdnext");
        QVERIFY2(!fallback(p) && hasRuntime(p, "torch-wheels", "rocm10"), dump(p).c_str());
        QVERIFY(!hasRuntime(p, "zluda") && !hasRuntime(p, "hip-sdk"));
        QVERIFY(!contains(p.args, "--use-zluda") && contains(p.args, "--use-rocm"));
        // SD.Next installs the wheels for this card from AMD's index, on StackPilot's Python 3.13.
        const std::string cmd = p.env.at("TORCH_COMMAND");
        QVERIFY2(cmd.find("torch[device-gfx1201]") != std::string::npos &&
                     cmd.find(kAmdWheels) != std::string::npos,
                 cmd.c_str());
        QVERIFY(hasRuntime(p, "python", "3.13"));
        QVERIFY(contains(p.envUnset, "HIP_PATH"));
    }

    void windowsRx7900xtxComfyuiGetsNativeRoute()
    {
        const auto p =
            plan(machine("windows", {amd("AMD Radeon RX 7900 XTX", "gfx1100", 24576)}), "comfyui");
        QVERIFY2(hasRuntime(p, "torch-wheels", "rocm10") && !hasRuntime(p, "zluda"),
                 dump(p).c_str());
        QVERIFY(anyStepHas(p, kAmdWheels) && anyStepHas(p, "torch[device-gfx1100]"));
        // ZLUDA stays an available alternative, ranked below by the catalog's preference: the
        // fork's route for RX 6800 and newer (HIP SDK 6.4.2); its HIP 5.7.1 route is only for
        // old APUs and RX 400/500.
        const auto* zluda = alternative(p, "comfyui-zluda-hip6.4");
        QVERIFY(zluda && zluda->verdict == "available");
        QCOMPARE(alternative(p, "comfyui-zluda-hip5.7")->verdict, std::string("rejected"));
        const auto why = sp::toJson(p).dump();
        QVERIFY2(why.find("prefers comfyui-rocm10-windows") != std::string::npos ||
                     why.find("status experimental is below") != std::string::npos,
                 why.c_str());
        // The same for SD.Next, whose ZLUDA profile has the same status: preference decides.
        const auto s =
            plan(machine("windows", {amd("AMD Radeon RX 7900 XTX", "gfx1100", 24576)}), "sdnext");
        QCOMPARE(s.profile, std::string("sdnext-rocm10-windows"));
        QVERIFY(alternative(s, "sdnext-zluda-hip6.2")->reasons.front().text.find("prefers") !=
                std::string::npos);
    }

    // ComfyUI-Zluda's README splits its routes: HIP SDK 5.7.1 with torch 2.2.1 only
    // for old APUs and RX 400/500 (with the gfx800-gfx900 rocBLAS pack), HIP SDK 6.2.4
    // for "VEGA through 6700" (Vega with the same pack's 6.2.4 build), HIP SDK 6.4.2 with
    // torch 2.7.0 for RX 6800 and newer; every torch is pinned.
    void windowsComfyuiZludaRoutesFollowTheForksSplit()
    {
        const auto rx580 =
            plan(machine("windows", {amd("Radeon RX 580", "gfx803", 8192)}), "comfyui");
        QCOMPARE(rx580.profile, std::string("comfyui-zluda-hip5.7"));
        QVERIFY2(hasRuntime(rx580, "rocblas-library", "gfx803") &&
                     hasRuntime(rx580, "hip-sdk", "5.7"),
                 dump(rx580).c_str());
        QVERIFY(anyStepHas(rx580, "torch==2.2.1") && anyStepHas(rx580, "torchvision==0.17.1"));
        const auto vega =
            plan(machine("windows", {amd("Radeon RX Vega 64", "gfx900", 8192)}), "comfyui");
        QCOMPARE(vega.profile, std::string("comfyui-zluda-hip6.2-rocblas-gfx900"));
        QVERIFY2(hasRuntime(vega, "hip-sdk", "6.2") &&
                     hasRuntime(vega, "rocblas-library", "gfx803-gfx900-hip6.2") &&
                     anyStepHas(vega, "torch==2.7.0"),
                 dump(vega).c_str());
        QCOMPARE(alternative(vega, "comfyui-zluda-hip5.7")->verdict, std::string("rejected"));
        const auto rx6800 =
            plan(machine("windows", {amd("Radeon RX 6800 XT", "gfx1030", 16384)}), "comfyui");
        QCOMPARE(rx6800.profile, std::string("comfyui-zluda-hip6.4"));
        QVERIFY(hasRuntime(rx6800, "hip-sdk", "6.4") && anyStepHas(rx6800, "torch==2.7.0"));
        QCOMPARE(alternative(rx6800, "comfyui-zluda-hip5.7")->verdict, std::string("rejected"));
        for (const auto& prof : shippedCatalog().profiles)
            if (prof.workload == "comfyui" && prof.id.find("zluda") != std::string::npos)
                for (const auto& step : prof.steps)
                    for (const auto& arg : step)
                        QVERIFY2(arg != "torch", (prof.id + ": torch is not pinned").c_str());
    }

    // HIP SDK 7.1.1 + ZLUDA 3.9.6 (issue 23): Windows 11 only (os_build >= 22000, from the
    // kernel version), ranked below the fork's HIP SDK 6.4.2 route; a build the snapshot does not
    // give is not Windows 11.
    void windowsHip71ZludaNeedsWindows11()
    {
        auto m = machine("windows", {amd("AMD Radeon RX 7800 XT", "gfx1101", 16384)});
        m.os.extra["kernel"] = "10.0.22631";
        const auto win11 = plan(m, "comfyui");
        const auto* z = alternative(win11, "comfyui-zluda-hip7.1");
        QVERIFY2(z && z->verdict == "available", dump(win11).c_str());
        QVERIFY(win11.profile != "comfyui-zluda-hip7.1");
        m.os.extra["kernel"] = "10.0.19045";
        const auto win10 = plan(m, "comfyui");
        const auto* r = alternative(win10, "comfyui-zluda-hip7.1");
        QVERIFY(r && r->verdict == "rejected");
        QVERIFY2(sp::toJson(win10).dump().find("needs OS build >=22000; this machine's build is "
                                               "19045") != std::string::npos,
                 dump(win10).c_str());
        m.os.extra.erase("kernel");
        QCOMPARE(alternative(plan(m, "comfyui"), "comfyui-zluda-hip7.1")->verdict,
                 std::string("rejected"));
    }

    void windowsRx6600AndRx5700xtGetAGpuStack()
    {
        for (const auto& gpu : {amd("AMD Radeon RX 6600", "gfx1032", 8176),
                                amd("AMD Radeon RX 5700 XT", "gfx1010", 8176)}) {
            const auto snap = machine("windows", {gpu});
            for (const char* w : {"sdnext", "comfyui", "pytorch", "llamafile", "llama-server"}) {
                const auto p = plan(snap, w);
                QVERIFY2(!p.profile.empty() && !fallback(p),
                         (gpu.name + " " + w + ": " + dump(p)).c_str());
            }
        }
        // RDNA2 keeps the ZLUDA + HIP SDK route with the card's rocBLAS pack first.
        const auto rx6600 = plan(machine("windows", {amd("RX 6600", "gfx1032", 8176)}), "comfyui");
        QVERIFY2(hasRuntime(rx6600, "zluda") && hasRuntime(rx6600, "rocblas-library", "gfx1032"),
                 dump(rx6600).c_str());
        QCOMPARE(alternative(rx6600, "comfyui-rocm10-windows-rdna2")->verdict,
                 std::string("available"));
        // RDNA1: the HIP build of llama.cpp has no gfx1010 kernels, Vulkan runs it.
        const auto rdna1 =
            plan(machine("windows", {amd("RX 5700 XT", "gfx1010", 8176)}), "llama-server");
        QCOMPARE(rdna1.profile, std::string("llama-server-vulkan-windows"));
        QVERIFY(citesIssue(alternative(rdna1, "llama-server-hip-windows"), "rocm-unsupported-gfx"));
    }

    void linuxRx9070xtGetsRocm64OrNewerWithoutOverride()
    {
        const auto snap = machine("linux", {amd("AMD Radeon RX 9070 XT", "gfx1201", 16304)});
        for (const char* w : {"sdnext", "comfyui", "pytorch", "llama-server"}) {
            const auto p = plan(snap, w);
            const auto* rocm = runtimeOfKind(p, "rocm");
            QVERIFY2(rocm && versionAtLeast(rocm->version, "6.4"), (w + (": " + dump(p))).c_str());
            QVERIFY2(!p.env.count("HSA_OVERRIDE_GFX_VERSION"), w);
        }
    }

    void linuxRadeon8060sNeverGets1100()
    {
        const auto snap = machine("linux", {amd("AMD Radeon 8060S", "gfx1151", 32768, true)});
        for (const auto& w : shippedCatalog().workloads) {
            const auto p = plan(snap, w.id);
            QVERIFY2(!p.env.count("HSA_OVERRIDE_GFX_VERSION") ||
                         p.env.at("HSA_OVERRIDE_GFX_VERSION") != "11.0.0",
                     (w.id + ": " + dump(p)).c_str());
        }
    }

    void rtx5090GetsCuda128OrNewerTorch()
    {
        for (const char* os : {"windows", "linux"}) {
            const auto snap = machine(os, {nvidia("NVIDIA GeForce RTX 5090", "12.0", 32607)});
            for (const char* w : {"sdnext", "comfyui", "pytorch", "autotrain-advanced"}) {
                const auto p = plan(snap, w);
                QVERIFY2(torchCuda(p) >= 128, (std::string(os) + " " + w + ": " + dump(p)).c_str());
            }
            // SD.Next installs the same build, not its own default.
            QVERIFY(plan(snap, "sdnext").env.at("TORCH_COMMAND").find("+cu130") !=
                    std::string::npos);
        }
    }

    void gtx1080LlamafileKeepsSeed003Fix()
    {
        for (const char* os : {"windows", "linux"}) {
            const auto p =
                plan(machine(os, {nvidia("NVIDIA GeForce GTX 1080", "6.1", 8192)}), "llamafile");
            QVERIFY2(hasRuntime(p, "llamafile", "llamafile-0.8") &&
                         !hasRuntime(p, "llamafile", "0.8.1") &&
                         !hasRuntime(p, "llamafile", "0.10"),
                     dump(p).c_str());
            const std::string suffix = std::string("-cuda-") + os;
            QVERIFY(citesIssue(alternative(p, "llamafile-0.8.1" + suffix), "cuda-arch-mismatch"));
            // The current release has no Pascal kernels either, and the plan says so.
            const auto* current = alternative(p, "llamafile-0.10.6" + suffix);
            QVERIFY(citesIssue(current, "cuda-arch-mismatch"));
            QVERIFY(current->reasons.front().text.find("compute capability 6.1") !=
                    std::string::npos);
        }
    }

    void allFiveSeedsStillHold()
    {
        // The profile each seed report's machine gets (test_select_seeds checks the details).
        QCOMPARE(plan(machine("windows", {amd("RX 6750 XT", "gfx1031", 12288)}), "sdnext").profile,
                 std::string("sdnext-zluda-hip5.7-rocblas-gfx1031"));
        for (const char* gfx : {"gfx1103", "gfx1101"}) {
            const auto p = plan(machine("linux", {amd("780M", gfx, 2048)}), "llamafile");
            QVERIFY2(contains(p.args, "--recompile") && contains(p.args, "--tinyblas"), gfx);
        }
        const auto bnb =
            plan(machine("linux", {amd("RX 7900 XTX", "gfx1100", 24576)}), "autotrain-advanced");
        QVERIFY(anyStepHas(bnb, "-DBNB_ROCM_ARCH=gfx1100") && anyStepHas(bnb, "bitsandbytes-src"));
        QVERIFY(hasRuntime(plan(machine("windows", {nvidia("GTX 1080", "6.1", 8192)}), "llamafile"),
                           "llamafile", "llamafile-0.8"));
        const auto nfs =
            plan(machine("linux", {amd("RX 7900 XTX", "gfx1100", 24576)}, "nfs"), "pytorch");
        QVERIFY(nfs.env.count("TORCH_HOME") && nfs.env.at("TORCH_HOME").rfind("/home/u", 0) != 0);
    }

    void llamaServerHipVulkanOrCudaByCard()
    {
        auto profile = [](const std::string& os, const sp::GpuInfo& g) {
            return plan(machine(os, {g}), "llama-server").profile;
        };
        // HIP for the targets the build lists, Vulkan for the rest of AMD and for Intel.
        QCOMPARE(profile("windows", amd("RX 7900 XTX", "gfx1100", 24576)),
                 std::string("llama-server-hip-windows"));
        QCOMPARE(profile("windows", amd("780M", "gfx1103", 4096, true)),
                 std::string("llama-server-vulkan-windows"));
        QCOMPARE(profile("linux", amd("RX 9070 XT", "gfx1201", 16304)),
                 std::string("llama-server-rocm-linux"));
        QCOMPARE(profile("linux", amd("RX 5700 XT", "gfx1010", 8176)),
                 std::string("llama-server-vulkan-linux"));
        sp::GpuInfo arc;
        arc.vendor = sp::Vendor::Intel;
        arc.name = "Intel Arc A770";
        arc.vramMb = 16384;
        QCOMPARE(profile("windows", arc), std::string("llama-server-vulkan-windows"));
        // CUDA for NVIDIA, Blackwell through PTX on Windows; Kepler has no code in any build.
        QCOMPARE(profile("windows", nvidia("RTX 5090", "12.0", 32607)),
                 std::string("llama-server-cuda-windows"));
        QCOMPARE(profile("linux", nvidia("GTX 1060", "6.1", 6144)),
                 std::string("llama-server-cuda-linux"));
        QCOMPARE(profile("linux", nvidia("GTX 780", "3.5", 3072)),
                 std::string("llama-server-cpu-linux"));
        // The URL llama-server prints is the workload's.
        const auto p =
            plan(machine("linux", {amd("RX 7900 XTX", "gfx1100", 24576)}), "llama-server");
        QVERIFY(p.command.front().find("llama-cpp-b10217-linux-rocm7.2") != std::string::npos);
        QVERIFY(hasRuntime(p, "rocm", "rocm-7.2"));
    }

    void llamafileAtItsCurrentRelease()
    {
        const auto cuda = plan(machine("linux", {nvidia("RTX 3060", "8.6", 12288)}), "llamafile");
        QVERIFY2(hasRuntime(cuda, "llamafile", "0.10.6"), dump(cuda).c_str());
        QVERIFY(contains(cuda.args, "nvidia"));
        const auto vulkan =
            plan(machine("windows", {amd("RX 9070 XT", "gfx1201", 16304)}), "llamafile");
        QVERIFY2(hasRuntime(vulkan, "llamafile", "0.10.6") && contains(vulkan.args, "vulkan"),
                 dump(vulkan).c_str());
        // Its artifact is pinned.
        const auto* rt = shippedCatalog().runtime("llamafile-0.10.6");
        QVERIFY(rt && !rt->hasUnpinnedArtifact());
    }

    void nvidiaBuildsByComputeCapability()
    {
        // Every PyTorch CUDA build an NVIDIA profile uses records the capabilities it has
        // kernels for (torch-cu118 serves ZLUDA on AMD cards only).
        std::set<std::string> cudaBuilds;
        for (const auto& prof : shippedCatalog().profiles) {
            if (!contains(prof.match.vendors, "nvidia"))
                continue;
            for (const auto& id : prof.runtimes) {
                const auto* r = shippedCatalog().runtime(id);
                if (r->kind == "torch-wheels") {
                    cudaBuilds.insert(id);
                    QVERIFY2(!r->supportedCc.empty(), (prof.id + ": " + id).c_str());
                }
            }
        }
        QVERIFY(cudaBuilds.size() >= 2);
        // Pascal and Maxwell get a build that still carries them.
        for (const char* cc : {"6.1", "5.2"}) {
            const auto p = plan(machine("linux", {nvidia("GeForce", cc, 4096)}), "pytorch");
            QVERIFY2(hasRuntime(p, "torch-wheels", "cu126"), (std::string(cc) + dump(p)).c_str());
        }
        // Kepler falls back to the CPU, and the alternatives say why.
        const auto kepler = plan(machine("linux", {nvidia("GTX 780", "3.5", 3072)}), "pytorch");
        QVERIFY(fallback(kepler));
        const auto* cu126 = alternative(kepler, "pytorch-cuda126-linux");
        QVERIFY(citesIssue(cu126, "cuda-arch-mismatch"));
        QVERIFY2(cu126->reasons.front().text.find("compute capability 3.5") != std::string::npos,
                 cu126->reasons.front().text.c_str());
    }

    void linuxRocmStacksPerVersion()
    {
        const auto& cat = shippedCatalog();
        for (const char* v : {"6.4", "7.0", "7.1", "7.2"}) {
            const auto* rocm = cat.runtime(std::string("rocm-") + v);
            const auto* torch = cat.runtime(std::string("torch-rocm") + v);
            QVERIFY2(rocm && torch, v);
            QVERIFY(!rocm->supportedGfx.empty() && !rocm->references.empty());
            QCOMPARE(torch->indexUrl, "https://download.pytorch.org/whl/rocm" + std::string(v));
            for (const char* w : {"comfyui", "pytorch"})
                QVERIFY2(cat.profile(std::string(w) + "-rocm" + v), v);
            // RDNA4 native from 6.4 on; Strix Halo only where the build lists it (7.2).
            QVERIFY(contains(rocm->supportedGfx, "gfx1201"));
            QCOMPARE(contains(rocm->supportedGfx, "gfx1151"), std::string(v) == "7.2");
        }
    }

    void gfx1151NativeWhereTheRocmBuildListsIt()
    {
        const auto snap = machine("linux", {amd("AMD Radeon 8060S", "gfx1151", 32768, true)});
        const auto p = plan(snap, "pytorch");
        QVERIFY2(hasRuntime(p, "rocm", "rocm-7.2") && !p.env.count("HSA_OVERRIDE_GFX_VERSION"),
                 dump(p).c_str());
        QVERIFY(citesIssue(alternative(p, "pytorch-rocm6.4"), "rocm-unsupported-gfx"));
    }

    void overridePolicyWithEvidence()
    {
        const auto& cat = shippedCatalog();
        QCOMPARE(cat.gfxOverride("gfx1150", "linux")->hsaOverride, std::string("11.5.1"));
        QVERIFY(cat.gfxOverride("gfx1152", "linux"));
        for (const auto& o : cat.gfxOverrides) {
            QVERIFY2(!o.evidence.empty() && !o.references.empty(), o.gfx.c_str());
            QVERIFY2(!(o.gfx.rfind("gfx115", 0) == 0 && o.hsaOverride == "11.0.0"), o.gfx.c_str());
            QVERIFY2(!(o.gfx.rfind("gfx101", 0) == 0 && o.hsaOverride == "10.3.0"), o.gfx.c_str());
        }
        QVERIFY(!cat.gfxOverride("gfx1200", "linux") && !cat.gfxOverride("gfx1201", "linux"));
        QVERIFY(cat.gfxOverrideBans.size() >= 3);
        for (const auto& b : cat.gfxOverrideBans)
            QVERIFY2(!b.evidence.empty() && !b.references.empty(), b.id.c_str());
        // gfx1150 runs gfx1151 code where only that is built: a ROCm with gfx1151 alone.
        const QTemporaryDir dir;
        const auto only1151 = catalogWith(R"({"schema_version": 1,
          "runtimes": [{"id": "rocm-x", "kind": "rocm", "version": "7.2.0", "os": ["linux"],
                        "system": true, "supported_gfx": ["gfx1151"]}],
          "profiles": [{"id": "pytorch-x", "workload": "pytorch", "status": "tested",
                        "match": {"os": ["linux"], "vendor": "amd"},
                        "runtimes": ["python-3.11.15-linux", "rocm-x"]}]})",
                                          dir);
        auto st = settings();
        st.profile = "pytorch-x";
        const auto p890 = sp::makePlan(machine("linux", {amd("890M", "gfx1150", 4096, true)}),
                                       only1151, "pytorch", st);
        QVERIFY2(p890 && p890->env.at("HSA_OVERRIDE_GFX_VERSION") == "11.5.1",
                 p890 ? dump(*p890).c_str() : p890.error().message.c_str());
    }

    void bannedOverridesAreRefusedEvenFromAUserFile()
    {
        // A user file adds the conventions the bans refuse; a plan never uses them, and the
        // rejection names the ban.
        const QTemporaryDir dir;
        const auto cat = catalogWith(R"({"schema_version": 1,
          "gfx_overrides": [
            {"gfx": "gfx1151", "hsa_override": "11.0.0", "os": ["linux"], "confidence": "inferred", "evidence": "t"},
            {"gfx": "gfx1010", "hsa_override": "10.3.0", "os": ["linux"], "confidence": "inferred", "evidence": "t"},
            {"gfx": "gfx1201", "hsa_override": "12.0.0", "os": ["linux"], "confidence": "inferred", "evidence": "t"}],
          "runtimes": [{"id": "rocm-gfx1200-only", "kind": "rocm", "version": "7.1.0", "os": ["linux"],
                        "system": true, "supported_gfx": ["gfx1200"]},
                       {"id": "rocm-old-gfx1200-only", "kind": "rocm", "version": "6.4.0",
                        "os": ["linux"], "system": true, "supported_gfx": ["gfx1200"]}],
          "profiles": [{"id": "pytorch-gfx1200-only", "workload": "pytorch", "status": "tested",
                        "match": {"os": ["linux"], "vendor": "amd"},
                        "runtimes": ["python-3.11.15-linux", "rocm-gfx1200-only"]},
                       {"id": "pytorch-old-gfx1200-only", "workload": "pytorch", "status": "tested",
                        "match": {"os": ["linux"], "vendor": "amd"},
                        "runtimes": ["python-3.11.15-linux", "rocm-old-gfx1200-only"]}]})",
                                     dir);
        auto planOn = [&](const sp::GpuInfo& g) {
            auto p = sp::makePlan(machine("linux", {g}), cat, "pytorch", settings());
            if (!p)
                qFatal("%s", p.error().message.c_str());
            return *p;
        };
        const auto halo = planOn(amd("8060S", "gfx1151", 32768, true));
        QVERIFY2(!halo.env.count("HSA_OVERRIDE_GFX_VERSION"), dump(halo).c_str());
        const auto* old = alternative(halo, "pytorch-rocm6.4");
        QVERIFY2(old &&
                     old->reasons.front().text.find("no-11.0.0-for-rdna3.5") != std::string::npos,
                 dump(halo).c_str());
        const auto rdna1 = planOn(amd("RX 5700 XT", "gfx1010", 8176));
        QVERIFY2(!rdna1.env.count("HSA_OVERRIDE_GFX_VERSION"), dump(rdna1).c_str());
        QVERIFY(alternative(rdna1, "pytorch-rocm7.2")
                    ->reasons.front()
                    .text.find("never-10.3.0-for-rdna1") != std::string::npos);
        // RDNA4: refused on ROCm >= 7, where it is native; an older ROCm may still use it.
        const auto rdna4 = planOn(amd("RX 9070 XT", "gfx1201", 16304));
        QVERIFY(alternative(rdna4, "pytorch-gfx1200-only")
                    ->reasons.front()
                    .text.find("no-override-for-rdna4-on-rocm7") != std::string::npos);
        QCOMPARE(rdna4.profile, std::string("pytorch-old-gfx1200-only"));
        QCOMPARE(rdna4.env.at("HSA_OVERRIDE_GFX_VERSION"), std::string("12.0.0"));
    }

    void everyNewEntryCitesASource()
    {
        const auto& cat = shippedCatalog();
        for (const auto& r : cat.runtimes)
            QVERIFY2(!r.references.empty(), r.id.c_str());
        for (const auto& p : cat.profiles)
            QVERIFY2(!p.references.empty(), p.id.c_str());
        for (const auto& k : cat.knownIssues)
            QVERIFY2(!k.references.empty(), k.id.c_str());
        // The digests of the new downloads are pinned, except where none is published.
        for (const char* id :
             {"python-3.13.13-windows", "llamafile-0.10.6", "llama-cpp-b10217-win-hip",
              "llama-cpp-b10217-win-vulkan", "llama-cpp-b10217-win-cuda12.4",
              "llama-cpp-b10217-linux-rocm7.2", "llama-cpp-b11457-linux-cuda12.8"})
            QVERIFY2(cat.runtime(id) && !cat.runtime(id)->hasUnpinnedArtifact(), id);
    }
};

QTEST_GUILESS_MAIN(TestSelect2026)
#include "test_select_2026.moc"
