// Stale GPU variables in the caller's environment, planted for three profiles of the
// shipped catalog (ROCm 7.2 on Linux, ZLUDA on Windows, CPU): none reaches the
// composed environment unless the plan or the workload's settings set it, and every
// removal is listed in `changes` with its reason.
#include "core/launch/env_composer.h"
#include "core/strings.h"
#include "select/select_fixtures.h"

#include <QTest>
#include <sstream>

using namespace sp;
using namespace fixtures;

namespace {

// The caller's environment of someone who followed old guides, on Linux and Windows.
EnvMap plantedLinux()
{
    return {{"HSA_OVERRIDE_GFX_VERSION", "10.3.0"},
            {"HIP_VISIBLE_DEVICES", "1"},
            {"ROCR_VISIBLE_DEVICES", "1"},
            {"CUDA_VISIBLE_DEVICES", "1"},
            {"GPU_DEVICE_ORDINAL", "1"},
            {"ROCM_PATH", "/opt/rocm-6.1.0"},
            {"ROCM_HOME", "/opt/rocm-6.1.0"},
            {"HIP_PATH", "/opt/rocm-6.1.0"},
            {"HIP_PATH_61", "/opt/rocm-6.1.0"},
            {"CUDA_PATH", "/usr/local/cuda-12.4"},
            {"CUDA_PATH_V12_4", "/usr/local/cuda-12.4"},
            {"CUDA_HOME", "/usr/local/cuda-12.4"},
            {"PATH", "/usr/bin:/opt/rocm-6.1.0/bin:/usr/local/cuda-12.4/bin"},
            {"LD_LIBRARY_PATH", "/opt/rocm-6.1.0/lib:/usr/local/cuda/lib64:/home/u/lib"},
            {"HOME", "/home/u"}};
}

EnvMap plantedWindows()
{
    const std::string sdk61 = "C:\\Program Files\\AMD\\ROCm\\6.1\\";
    const std::string cuda = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4";
    return {{"HSA_OVERRIDE_GFX_VERSION", "10.3.0"},
            {"hip_visible_devices", "1"}, // Windows names have no case
            {"ROCR_VISIBLE_DEVICES", "1"},
            {"CUDA_VISIBLE_DEVICES", "1"},
            {"GPU_DEVICE_ORDINAL", "1"},
            {"ROCM_PATH", sdk61},
            {"ROCM_HOME", sdk61},
            {"HIP_PATH", sdk61},
            {"HIP_PATH_61", sdk61},
            {"CUDA_PATH", cuda},
            {"CUDA_PATH_V12_4", cuda},
            {"CUDA_HOME", cuda},
            {"Path", "C:\\Windows;" + sdk61 + "bin;" + cuda + "\\bin"}};
}

Plan forcedPlan(const HardwareSnapshot& snap, const std::string& workload,
                const std::string& profile, const std::map<std::string, std::string>& env = {})
{
    SelectSettings st = settings();
    st.profile = profile;
    st.acceptRejected = true;
    st.env = env;
    Plan p = plan(snap, workload, st);
    if (p.profile != profile)
        qFatal("planned %s instead of %s", p.profile.c_str(), profile.c_str());
    return p;
}

Plan rocm72()
{
    return forcedPlan(machine("linux", {amd("AMD Radeon RX 7900 XTX", "gfx1100", 24576)}),
                      "comfyui", "comfyui-rocm7.2");
}
Plan zluda()
{
    return forcedPlan(machine("windows", {amd("AMD Radeon RX 6750 XT", "gfx1031", 12288)}),
                      "sdnext", "sdnext-zluda-hip5.7-rocblas-gfx1031");
}
Plan cpu()
{
    return forcedPlan(machine("linux", {amd("AMD Radeon RX 7900 XTX", "gfx1100", 24576)}),
                      "comfyui", "comfyui-cpu");
}

const EnvChange* change(const ComposedLaunch& c, const std::string& name)
{
    for (const EnvChange& e : c.changes)
        if (e.name == name)
            return &e;
    return nullptr;
}

const std::string* planValue(const Plan& p, const std::string& name, bool windows)
{
    for (const auto& [k, v] : p.env)
        if (windows ? lower(k) == lower(name) : k == name)
            return &v;
    return nullptr;
}

// Every planted variable is the plan's value or gone, with a `removed` change.
void checkOwned(const Plan& p, const EnvMap& planted, const std::string& os)
{
    const bool windows = os == "windows";
    const ComposedLaunch c = composeLaunch(p, planted, os);
    for (const auto& [name, value] : planted) {
        if (lower(name) == "path" || name == "LD_LIBRARY_PATH" || name == "HOME")
            continue;
        const std::string what = p.profile + ": " + name;
        if (const std::string* set = planValue(p, name, windows)) {
            QVERIFY2(c.env.count(name) && c.env.at(name) == *set, what.c_str());
            continue;
        }
        QVERIFY2(!c.env.count(name), what.c_str());
        const EnvChange* ch = change(c, name);
        QVERIFY2(ch && ch->kind == EnvChange::Removed && ch->before == value, what.c_str());
        QVERIFY2(!ch->reason.empty(), what.c_str());
    }
    // No folder of another ROCm or CUDA install is left on a search path, and each
    // dropped one is named in the reason.
    for (const auto& [name, value] : c.env) {
        if (lower(name) != "path" && name != "LD_LIBRARY_PATH")
            continue;
        std::string entry;
        std::stringstream in(value);
        while (std::getline(in, entry, windows ? ';' : ':')) {
            const bool planOwn =
                std::any_of(p.runtimes.begin(), p.runtimes.end(), [&](const PlanRuntime& rt) {
                    return !rt.dir.empty() && lower(entry).rfind(lower(rt.dir), 0) == 0;
                });
            QVERIFY2(planOwn || stackOfPathEntry(entry).empty(),
                     (p.profile + ": " + entry).c_str());
        }
        const EnvChange* ch = change(c, name);
        QVERIFY2(ch &&
                     ch->reason.find(windows ? "6.1\\bin" : "/opt/rocm-6.1.0") != std::string::npos,
                 (p.profile + ": " + name).c_str());
    }
}

} // namespace

class TestEnvStaleGpu : public QObject
{
    Q_OBJECT

private slots:
    void rocm72OwnsEveryGpuVariable()
    {
        const Plan p = rocm72();
        checkOwned(p, plantedLinux(), "linux");
        // The RX 7900 XTX runs its own kernels: the caller's global override is gone.
        const ComposedLaunch c = composeLaunch(p, plantedLinux(), "linux");
        QVERIFY(!c.env.count("HSA_OVERRIDE_GFX_VERSION"));
        QVERIFY(change(c, "HSA_OVERRIDE_GFX_VERSION")->reason.find("override") !=
                std::string::npos);
        QVERIFY(c.env.at("LD_LIBRARY_PATH").find("/opt/rocm-6.1.0") == std::string::npos);
    }

    void zludaOwnsEveryGpuVariable()
    {
        const Plan p = zluda();
        QVERIFY(hasRuntime(p, "zluda"));
        checkOwned(p, plantedWindows(), "windows");
    }

    void cpuProfileOwnsEveryGpuVariable()
    {
        const Plan p = cpu();
        QVERIFY(p.runtimes.empty() || !hasRuntime(p, "rocm"));
        checkOwned(p, plantedLinux(), "linux");
        const ComposedLaunch c = composeLaunch(p, plantedLinux(), "linux");
        QCOMPARE(c.env.at("LD_LIBRARY_PATH").find("/opt/rocm"), std::string::npos);
        QCOMPARE(c.env.at("PATH").find("/usr/local/cuda"), std::string::npos);
    }

    // A user who really wants one keeps it through the workload's settings, and the
    // change says it is the user's choice.
    void theUsersSettingsKeepOne()
    {
        const std::map<std::string, std::string> mine = {{"HSA_OVERRIDE_GFX_VERSION", "11.0.0"},
                                                         {"ROCM_PATH", "/opt/rocm-6.1.0"}};
        for (const std::string profile : {"comfyui-rocm7.2", "comfyui-cpu"}) {
            const Plan p =
                forcedPlan(machine("linux", {amd("AMD Radeon RX 7900 XTX", "gfx1100", 24576)}),
                           "comfyui", profile, mine);
            const ComposedLaunch c = composeLaunch(p, plantedLinux(), "linux");
            QCOMPARE(c.env.at("HSA_OVERRIDE_GFX_VERSION"), std::string("11.0.0"));
            QCOMPARE(change(c, "HSA_OVERRIDE_GFX_VERSION")->reason, std::string(kUserEnvChoice));
            // Same value as the caller's: unchanged, not removed.
            QCOMPARE(c.env.at("ROCM_PATH"), std::string("/opt/rocm-6.1.0"));
            QVERIFY(!change(c, "ROCM_PATH"));
            QVERIFY(!c.env.count("ROCR_VISIBLE_DEVICES") ||
                    c.env.at("ROCR_VISIBLE_DEVICES") == p.env.at("ROCR_VISIBLE_DEVICES"));
        }
    }
};

QTEST_GUILESS_MAIN(TestEnvStaleGpu)
#include "test_env_stale_gpu.moc"
