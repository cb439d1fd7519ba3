// The environment composer on its own: plans built in the test, no process started.
#include "core/launch/env_composer.h"

#include <QTest>
#include <algorithm>

using namespace sp;

namespace {

PlanRuntime runtime(const std::string& id, const std::string& kind, const std::string& dir)
{
    PlanRuntime r;
    r.id = id;
    r.kind = kind;
    r.dir = dir;
    return r;
}

// A Windows ZLUDA plan: HIP SDK 5.7 in Program Files, ZLUDA in StackPilot's data folder.
Plan zludaPlan()
{
    Plan p;
    p.workload = "sdnext";
    p.profile = "sdnext-zluda-hip5.7";
    p.runtimes = {runtime("hip-sdk-5.7.1", "hip-sdk", "C:\\Program Files\\AMD\\ROCm\\5.7"),
                  runtime("zluda-3.9.5", "zluda",
                          "C:\\Users\\u\\AppData\\Local\\StackPilot\\runtimes\\zluda")};
    p.path = {"C:\\Users\\u\\AppData\\Local\\StackPilot\\runtimes\\zluda",
              "C:\\Program Files\\AMD\\ROCm\\5.7\\bin"};
    p.env = {{"HIP_PATH", "C:\\Program Files\\AMD\\ROCm\\5.7\\"}, {"HIP_VISIBLE_DEVICES", "0"}};
    p.envWhy = {{"HIP_PATH", "ZLUDA loads the HIP SDK named here"},
                {"HIP_VISIBLE_DEVICES", "pin the RX 6750 XT, not the iGPU"}};
    p.command = {"C:\\sdnext\\webui.bat"};
    p.args = {"--use-zluda"};
    p.cwd = "C:\\sdnext";
    return p;
}

// A Linux ROCm 6.2 plan using the distribution's /opt/rocm-6.2.4.
Plan rocmPlan()
{
    Plan p;
    p.workload = "comfyui";
    p.profile = "comfyui-rocm6.2";
    p.runtimes = {runtime("rocm-6.2", "rocm", "/opt/rocm-6.2.4")};
    p.path = {"/opt/rocm-6.2.4/bin"};
    p.env = {{"HSA_OVERRIDE_GFX_VERSION", "10.3.0"}, {"TORCH_HOME", "/var/tmp/sp/torch"}};
    p.envWhy = {{"HSA_OVERRIDE_GFX_VERSION", "gfx1031 runs gfx1030 kernels"},
                {"TORCH_HOME", "the home is on NFS"}};
    p.envUnset = {"CUDA_VISIBLE_DEVICES"};
    p.command = {"/data/venvs/comfyui/bin/python", "main.py"};
    return p;
}

const EnvChange* change(const ComposedLaunch& c, const std::string& name)
{
    auto it = std::find_if(c.changes.begin(), c.changes.end(),
                           [&](const EnvChange& e) { return e.name == name; });
    return it == c.changes.end() ? nullptr : &*it;
}

} // namespace

class TestEnvComposer : public QObject
{
    Q_OBJECT

private slots:
    void staleHipPathsOfAnotherSdkAreRemoved()
    {
        const EnvMap user = {{"HIP_PATH", "C:\\Program Files\\AMD\\ROCm\\6.1\\"},
                             {"HIP_PATH_61", "C:\\Program Files\\AMD\\ROCm\\6.1\\"},
                             {"HIP_PATH_57", "c:/program files/amd/rocm/5.7"},
                             {"Path", "C:\\Windows;C:\\Program Files\\AMD\\ROCm\\6.1\\bin"}};
        const ComposedLaunch c = composeLaunch(zludaPlan(), user, "windows");
        QVERIFY(!c.env.count("HIP_PATH_61"));
        // Another spelling of the profile's own SDK folder is kept.
        QCOMPARE(c.env.at("HIP_PATH_57"), std::string("c:/program files/amd/rocm/5.7"));
        QCOMPARE(c.env.at("HIP_PATH"), std::string("C:\\Program Files\\AMD\\ROCm\\5.7\\"));
        QCOMPARE(change(c, "HIP_PATH")->kind, EnvChange::Changed);
        QVERIFY(change(c, "HIP_PATH_61")->reason.find("another HIP SDK") != std::string::npos);
        // Windows names are case-insensitive: "Path" is edited, not joined by "PATH".
        QVERIFY(!c.env.count("PATH"));
        QCOMPARE(c.env.at("Path"),
                 std::string("C:\\Users\\u\\AppData\\Local\\StackPilot\\runtimes\\zluda;"
                             "C:\\Program Files\\AMD\\ROCm\\5.7\\bin;C:\\Windows"));
        QVERIFY(change(c, "Path")->reason.find("ROCm\\6.1\\bin") != std::string::npos);
    }

    void cudaVariablesGoOnAnAmdStack()
    {
        const EnvMap user = {{"CUDA_PATH", "C:\\CUDA\\v12.4"},
                             {"CUDA_PATH_V12_4", "C:\\CUDA\\v12.4"},
                             {"PATH", "C:\\Windows"}};
        const ComposedLaunch c = composeLaunch(zludaPlan(), user, "windows");
        QVERIFY(!c.env.count("CUDA_PATH") && !c.env.count("CUDA_PATH_V12_4"));
        QCOMPARE(change(c, "CUDA_PATH")->kind, EnvChange::Removed);
        QVERIFY(!change(c, "CUDA_PATH")->reason.empty());
    }

    void otherRocmAndCudaLibrariesLeaveTheLibraryPath()
    {
        const EnvMap user = {
            {"LD_LIBRARY_PATH",
             "/opt/rocm-5.7.0/lib:/usr/local/cuda-12.4/lib64:/opt/rocm-6.2.4/lib:/home/u/lib"},
            {"PATH", "/usr/bin:/opt/rocm-5.7.0/bin"}};
        const ComposedLaunch c = composeLaunch(rocmPlan(), user, "linux");
        QCOMPARE(c.env.at("LD_LIBRARY_PATH"),
                 std::string("/opt/rocm-6.2.4/bin:/opt/rocm-6.2.4/lib:/home/u/lib"));
        QCOMPARE(c.env.at("PATH"), std::string("/opt/rocm-6.2.4/bin:/usr/bin"));
        const std::string why = change(c, "LD_LIBRARY_PATH")->reason;
        QVERIFY2(why.find("/opt/rocm-5.7.0/lib") != std::string::npos &&
                     why.find("/usr/local/cuda-12.4/lib64") != std::string::npos,
                 why.c_str());
    }

    void pythonPoisonRemovedAndUserSiteOff()
    {
        const EnvMap user = {{"PYTHONPATH", "/x"},
                             {"PYTHONHOME", "/y"},
                             {"VIRTUAL_ENV", "/v"},
                             {"CONDA_PREFIX", "/c"},
                             {"HOME", "/home/u"}};
        const ComposedLaunch c = composeLaunch(rocmPlan(), user, "linux");
        for (const char* name : {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "CONDA_PREFIX"}) {
            QVERIFY2(!c.env.count(name), name);
            QCOMPARE(change(c, name)->kind, EnvChange::Removed);
        }
        QCOMPARE(c.env.at("PYTHONNOUSERSITE"), std::string("1"));
        QCOMPARE(c.env.at("HOME"), std::string("/home/u"));
        QVERIFY(!change(c, "HOME"));
    }

    void planVariablesPinningOverrideAndCachesCarryTheirReasons()
    {
        const EnvMap user = {{"CUDA_VISIBLE_DEVICES", "1"}, {"TORCH_HOME", "/nfs/home/u/.torch"}};
        const ComposedLaunch c = composeLaunch(rocmPlan(), user, "linux");
        QCOMPARE(c.env.at("HSA_OVERRIDE_GFX_VERSION"), std::string("10.3.0"));
        QCOMPARE(change(c, "HSA_OVERRIDE_GFX_VERSION")->reason,
                 std::string("gfx1031 runs gfx1030 kernels"));
        QCOMPARE(change(c, "TORCH_HOME")->kind, EnvChange::Changed);
        QCOMPARE(change(c, "TORCH_HOME")->before, std::string("/nfs/home/u/.torch"));
        QVERIFY(!c.env.count("CUDA_VISIBLE_DEVICES"));
        QCOMPARE(change(c, "CUDA_VISIBLE_DEVICES")->reason, std::string("the profile unsets it"));
        for (const EnvChange& e : c.changes)
            QVERIFY2(!e.reason.empty(), e.name.c_str());
    }

    void argvAndFolderFromThePlan()
    {
        const ComposedLaunch c = composeLaunch(zludaPlan(), {}, "windows", {"--listen"});
        QCOMPARE(c.argv,
                 (std::vector<std::string>{"C:\\sdnext\\webui.bat", "--use-zluda", "--listen"}));
        QCOMPARE(c.cwd, std::string("C:\\sdnext"));
    }

    // A CPU profile loses them too (LD_LIBRARY_PATH=/opt/rocm-6.1.0/lib was
    // kept while HIP_PATH went).
    void cpuProfilesDropOtherStacksFolders()
    {
        Plan p;
        p.command = {"/bin/true"};
        const EnvMap user = {{"LD_LIBRARY_PATH", "/opt/rocm-6.1.0/lib:/home/u/lib"},
                             {"HIP_PATH", "/opt/rocm"}};
        const ComposedLaunch c = composeLaunch(p, user, "linux");
        QCOMPARE(c.env.at("LD_LIBRARY_PATH"), std::string("/home/u/lib"));
        QVERIFY(change(c, "LD_LIBRARY_PATH")->reason.find("/opt/rocm-6.1.0/lib") !=
                std::string::npos);
        QVERIFY(!c.env.count("HIP_PATH")); // names an SDK this profile does not use
    }

    // What the dry run shows is what the workload gets, or it is not set.
    void variablesNoProcessCanHoldAreNotSet()
    {
        Plan p;
        p.command = {"/bin/true"};
        p.env = {{"A=B", "c"}, {"", "x"}, {"BIG", std::string(200 * 1024, 'v')}, {"OK", "1"}};
        const ComposedLaunch c = composeLaunch(p, {}, "linux");
        QCOMPARE(c.env.count("A=B") + c.env.count("") + c.env.count("BIG"), std::size_t{0});
        QCOMPARE(c.env.at("OK"), std::string("1"));
        for (const char* name : {"A=B", "", "BIG"}) {
            const EnvChange* ch = change(c, name);
            QVERIFY2(ch && ch->kind == EnvChange::Removed && ch->reason.rfind("not set: ", 0) == 0,
                     name);
        }
    }

    void pathEntriesKnowTheirStack()
    {
        QCOMPARE(stackOfPathEntry("/opt/rocm-6.2.4/lib"), std::string("rocm"));
        QCOMPARE(stackOfPathEntry("C:\\Program Files\\AMD\\ROCm\\6.1\\bin"), std::string("rocm"));
        QCOMPARE(stackOfPathEntry("/usr/local/cuda/lib64"), std::string("cuda"));
        QCOMPARE(
            stackOfPathEntry("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\bin"),
            std::string("cuda"));
        QCOMPARE(stackOfPathEntry("/usr/lib/x86_64-linux-gnu"), std::string());
    }
};

QTEST_GUILESS_MAIN(TestEnvComposer)
#include "test_env_composer.moc"
