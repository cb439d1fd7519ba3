// The five field reports StackPilot was built to answer (a 6750 XT
// on HIP SDK 6.1 + ZLUDA, llamafile on a 780M, bitsandbytes on ROCm, llamafile 0.8.1 on
// compute capability 6.1, caches on an NFS home) as acceptance tests, plus the counter-tests:
// cards that need no workaround get none.

#include "select_fixtures.h"

using namespace fixtures;

class TestSelectSeeds : public QObject
{
    Q_OBJECT
private slots:
    void seed000_windowsRx6750xtSdnextUsesHip57ZludaAndRocblas()
    {
        const auto snap = machine("windows", {amd("AMD Radeon RX 6750 XT", "gfx1031", 12288)});
        const auto p = plan(snap, "sdnext");
        QVERIFY2(hasRuntime(p, "hip-sdk", "5.7"), dump(p).c_str());
        QVERIFY(hasRuntime(p, "zluda", "rocm5"));
        QVERIFY(hasRuntime(p, "rocblas-library", "gfx1031"));
        QVERIFY(!hasRuntime(p, "hip-sdk", "6."));
        QVERIFY(contains(p.args, "--use-zluda"));
        QCOMPARE(p.env.at("HIP_PATH"), std::string("C:\\Program Files\\AMD\\ROCm\\5.7\\"));
        QVERIFY(!p.envWhy.at("HIP_PATH").empty());
        QVERIFY(contains(p.envUnset, "HIP_PATH_61"));
        QVERIFY(!p.env.count("HSA_OVERRIDE_GFX_VERSION")); // never on Windows
        QCOMPARE(p.env.at("HIP_VISIBLE_DEVICES"), std::string("0"));
        const auto* hip61 = alternative(p, "sdnext-zluda-hip6.1-rocblas-gfx1031");
        QVERIFY2(hip61 && hip61->verdict == "rejected", dump(p).c_str());
        QVERIFY(citesIssue(hip61, "rocm-zluda-rocblas-access-violation"));
        // Every env variable is explained.
        for (const auto& [k, v] : p.env)
            QVERIFY2(p.envWhy.count(k) && !p.envWhy.at(k).empty(), k.c_str());
    }

    void seed000_discreteCardIsPinnedPastTheApu()
    {
        // An APU's iGPU listed first: the discrete RX 6750 XT is chosen and pinned as AMD device 1.
        const auto snap = machine("windows", {amd("AMD Radeon(TM) Graphics", "gfx1036", 512, true),
                                              amd("AMD Radeon RX 6750 XT", "gfx1031", 12288)});
        const auto p = plan(snap, "sdnext");
        QCOMPARE(*p.gpu, 1);
        QCOMPARE(p.env.at("HIP_VISIBLE_DEVICES"), std::string("1"));
        QVERIFY(hasRuntime(p, "rocblas-library", "gfx1031"));
    }

    void seed001_linux780mLlamafileUsesTinyblas()
    {
        for (const auto& gfx : {"gfx1103", "gfx1101"}) {
            const auto snap = machine(
                "linux", {amd("AMD Radeon 780M", gfx, 2048, std::string(gfx) == "gfx1103")});
            const auto p = plan(snap, "llamafile");
            QVERIFY2(contains(p.args, "--recompile") && contains(p.args, "--tinyblas"),
                     dump(p).c_str());
            QCOMPARE(p.env.at("ROCR_VISIBLE_DEVICES"), std::string("0"));
        }
    }

    void seed002_autotrainBuildsBitsandbytesForTheGpusGfx()
    {
        for (const std::string gfx : {"gfx1100", "gfx1030"}) {
            const auto snap = machine("linux", {amd("AMD Radeon RX", gfx, 24576)});
            const auto p = plan(snap, "autotrain-advanced");
            bool build = false;
            for (const auto& step : p.steps) {
                const bool hip = contains(step, "-DCOMPUTE_BACKEND=hip");
                const bool arch = contains(step, "-DBNB_ROCM_ARCH=" + gfx);
                // The source is the pinned bitsandbytes checkout (0.50.1 carries the ROCm
                // backend that once lived on the multi-backend-refactor branch).
                const bool source = std::any_of(step.begin(), step.end(), [](const std::string& a) {
                    return a.find("bitsandbytes-src") != std::string::npos;
                });
                build = build || (hip && arch && source);
            }
            QVERIFY2(build, dump(p).c_str());
            const auto src = std::find_if(p.runtimes.begin(), p.runtimes.end(),
                                          [](const auto& r) { return r.id == "bitsandbytes-src"; });
            QVERIFY(src != p.runtimes.end() && !src->unpinned);
        }
    }

    void seed003_nvidiaCc61AvoidsLlamafile081()
    {
        const auto snap = machine("windows", {nvidia("NVIDIA GeForce GTX 1080", "6.1", 8192)});
        const auto p = plan(snap, "llamafile");
        QVERIFY2(!hasRuntime(p, "llamafile", "0.8.1"), dump(p).c_str());
        QVERIFY(hasRuntime(p, "llamafile", "llamafile-0.8"));
        const auto* v081 = alternative(p, "llamafile-0.8.1-cuda-windows");
        QVERIFY(v081 && v081->verdict == "rejected");
        QVERIFY(citesIssue(v081, "cuda-arch-mismatch"));
        QCOMPARE(p.env.at("CUDA_VISIBLE_DEVICES"), std::string("0"));
        // The CPU fallback does not use the GPU, so the GPU's known issue does not reject it.
        const auto* cpu = alternative(p, "llamafile-0.8.1-cpu-windows");
        QVERIFY(cpu && cpu->verdict == "available");
    }

    void seed004_nfsHomeMovesCachesOffTheHome()
    {
        const auto snap =
            machine("linux", {amd("AMD Radeon RX 7900 XTX", "gfx1100", 24576)}, "nfs");
        const auto p = plan(snap, "pytorch");
        for (const char* var :
             {"TORCH_HOME", "XDG_CACHE_HOME", "MIOPEN_USER_DB_PATH", "MIOPEN_CUSTOM_CACHE_DIR",
              "HF_HOME", "PIP_CACHE_DIR", "TRITON_CACHE_DIR"}) {
            QVERIFY2(p.env.count(var), var);
            QVERIFY2(p.env.at(var).rfind("/home/u", 0) != 0, p.env.at(var).c_str());
            QVERIFY(p.envWhy.at(var).find("nfs") != std::string::npos);
        }
        // A local app cache folder is used as is.
        auto st = settings();
        st.cacheDir = "/var/cache/stackpilot";
        const auto q = plan(snap, "pytorch", st);
        QCOMPARE(q.env.at("TORCH_HOME"), std::string("/var/cache/stackpilot/torch"));
    }

    // --- counter-tests
    void linux7900xtxPytorchNeedsNoOverride()
    {
        const auto p =
            plan(machine("linux", {amd("AMD Radeon RX 7900 XTX", "gfx1100", 24576)}), "pytorch");
        QVERIFY2(!p.env.count("HSA_OVERRIDE_GFX_VERSION"), dump(p).c_str());
        QVERIFY(hasRuntime(p, "rocm", "7.2")); // newest community ROCm wins
    }

    void windows7900xtxSdnextNeedsNoRocblas()
    {
        // RDNA3 on Windows runs AMD's own PyTorch: no rocBLAS pack, no HIP SDK, no ZLUDA.
        const auto p =
            plan(machine("windows", {amd("AMD Radeon RX 7900 XTX", "gfx1100", 24576)}), "sdnext");
        QVERIFY2(!hasRuntime(p, "rocblas-library"), dump(p).c_str());
        QVERIFY(!hasRuntime(p, "hip-sdk"));
        QVERIFY(!hasRuntime(p, "zluda"));
        QVERIFY(!contains(p.args, "--use-zluda"));
    }

    void rtx3080KeepsLlamafile081()
    {
        const auto p = plan(machine("windows", {nvidia("NVIDIA GeForce RTX 3080", "8.6", 10240)}),
                            "llamafile");
        QVERIFY2(hasRuntime(p, "llamafile", "0.8.1"), dump(p).c_str());
        const auto* v081 = alternative(p, "llamafile-0.8.1-cuda-windows");
        QVERIFY(!v081); // it is the chosen one
    }

    void localHomeKeepsCaches()
    {
        const auto p = plan(
            machine("linux", {amd("AMD Radeon RX 7900 XTX", "gfx1100", 24576)}, "ext4"), "pytorch");
        for (const char* var : {"TORCH_HOME", "XDG_CACHE_HOME", "MIOPEN_USER_DB_PATH"})
            QVERIFY2(!p.env.count(var), var);
    }
};

QTEST_GUILESS_MAIN(TestSelectSeeds)
#include "test_select_seeds.moc"
