// Plans for a bare machine: every Python step and command runs StackPilot's own
// Python (never a bare system python, py or pip), no step runs git, Windows SD.Next
// carries the managed Python and Git, and seed 000's plan neither copies ZLUDA nor
// writes into the HIP SDK under Program Files.

#include "core/launch/env_composer.h"
#include "select_fixtures.h"

using namespace fixtures;

namespace {

const std::vector<std::string> kBare = {"python", "python3", "py", "pip", "pip3", "python.exe"};

// The machine a profile's `match` describes (as test_select_rules does).
sp::HardwareSnapshot matchingMachine(const sp::Profile& prof)
{
    const auto& m = prof.match;
    auto snap = machine(m.os.empty() ? "linux" : m.os.front(), {});
    if (prof.fallback)
        return snap;
    const std::string vendor = m.vendors.empty() ? "amd" : m.vendors.front();
    std::string gfx = m.gfx.empty() ? "gfx1100" : m.gfx.front();
    if (gfx.back() == '*')
        gfx.back() = '0';
    snap.gpus.push_back(vendor == "nvidia" ? nvidia("gpu", "8.6", 16384) : amd("gpu", gfx, 16384));
    return snap;
}

std::string programName(const std::string& path)
{
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

class TestSelectBareMachine : public QObject
{
    Q_OBJECT
private slots:
    void noBarePythonPipOrGitInAnyShippedPlan()
    {
        int checked = 0;
        for (const auto& prof : shippedCatalog().profiles) {
            auto st = settings();
            st.profile = prof.id;
            auto p = sp::makePlan(matchingMachine(prof), shippedCatalog(), prof.workload, st);
            if (!p)
                continue; // ruled out by a known issue on its own machine (HIP 6.1 + ZLUDA)
            ++checked;
            std::vector<std::vector<std::string>> argvs = p->steps;
            argvs.push_back(p->command);
            for (const auto& argv : argvs) {
                QVERIFY(!argv.empty());
                const std::string prog = programName(argv.front());
                QVERIFY2(!contains(kBare, prog) ||
                             argv.front().find("runtimes") != std::string::npos ||
                             argv.front().find("venvs") != std::string::npos,
                         (prof.id + ": " + argv.front()).c_str());
                QVERIFY2(argv.front().find('{') == std::string::npos,
                         (prof.id + ": unexpanded " + argv.front()).c_str());
            }
            for (const auto& step : p->steps)
                QVERIFY2(programName(step.front()) != "git" &&
                             programName(step.front()) != "git.exe",
                         prof.id.c_str());
            for (const char* var : {"PYTHON", "GIT"})
                if (p->env.count(var))
                    QVERIFY2(p->env.at(var).find("/data/sp") == 0, (prof.id + ": " + var).c_str());
            // The environment the launch composes puts the managed runtimes first.
            const std::string os = prof.match.os.empty() ? "linux" : prof.match.os.front();
            const sp::EnvMap user = {{"PATH", os == "windows" ? "C:\\Windows" : "/usr/bin"}};
            const auto env = sp::composeLaunch(*p, user, os).env;
            if (!p->path.empty())
                QVERIFY2(env.at("PATH").rfind(p->path.front(), 0) == 0,
                         (prof.id + ": PATH " + env.at("PATH")).c_str());
        }
        QVERIFY(checked >= 40);
    }

    void windowsSdnextCarriesManagedPythonAndGit()
    {
        // ZLUDA's stack runs Python 3.11, AMD's own PyTorch for Windows Python 3.13.
        for (const auto& [gfx, python] : std::vector<std::pair<std::string, std::string>>{
                 {"gfx1031", "python-3.11.15-windows"}, {"gfx1100", "python-3.13.13-windows"}}) {
            const auto p = plan(machine("windows", {amd("Radeon", gfx, 12288)}), "sdnext");
            QVERIFY2(hasRuntime(p, "python", python) && hasRuntime(p, "git"), p.profile.c_str());
            QCOMPARE(p.env.at("PYTHON"), "/data/sp\\runtimes\\" + python + "\\python.exe");
            QCOMPARE(p.env.at("GIT"),
                     std::string("/data/sp\\runtimes\\git-2.53.0-windows\\cmd\\git.exe"));
            // The managed runtimes are on PATH.
            QVERIFY(contains(p.path, "/data/sp\\runtimes\\" + python));
            QVERIFY(contains(p.path, "/data/sp\\runtimes\\git-2.53.0-windows\\cmd"));
        }
        // An NVIDIA card on Windows too.
        const auto n = plan(machine("windows", {nvidia("RTX 3060", "8.6", 12288)}), "sdnext");
        QVERIFY2(hasRuntime(n, "python") && hasRuntime(n, "git"), n.profile.c_str());
    }

    void venvProfilesRunTheVenvsPython()
    {
        auto p = plan(machine("windows", {nvidia("RTX 3060", "8.6", 12288)}), "comfyui");
        QCOMPARE(p.command.front(),
                 std::string("/data/sp\\venvs\\" + p.profile + "\\Scripts\\python.exe"));
        QCOMPARE(p.steps.front().front(),
                 std::string("/data/sp\\runtimes\\python-3.11.15-windows\\python.exe"));
        p = plan(machine("linux", {nvidia("RTX 3060", "8.6", 12288)}), "comfyui");
        QCOMPARE(p.command.front(), std::string("/data/sp/venvs/" + p.profile + "/bin/python"));
        QCOMPARE(p.steps.front(),
                 (std::vector<std::string>{"/data/sp/runtimes/python-3.11.15-linux/bin/python3",
                                           "-m", "venv", "/data/sp/venvs/" + p.profile}));
    }

    void seed000WritesNothingIntoTheSdkAndCopiesNoZluda()
    {
        const auto p =
            plan(machine("windows", {amd("AMD Radeon RX 6750 XT", "gfx1031", 12288)}), "sdnext");
        QCOMPARE(p.profile, std::string("sdnext-zluda-hip5.7-rocblas-gfx1031"));
        for (const auto& step : p.steps)
            for (const auto& a : step) {
                QVERIFY2(a.find("Program Files") == std::string::npos, a.c_str());
                QVERIFY2(a.find("zluda") == std::string::npos, a.c_str());
            }
        QCOMPARE(p.env.at("ZLUDA"), std::string("/data/sp\\runtimes\\zluda-3.9.5-rocm5"));
        // The pack's rocblas.dll shadows the SDK's from its own folder, first on PATH.
        const std::string pack = "/data/sp\\runtimes\\rocblas-gfx1031-hip5.7.1";
        QCOMPARE(p.path.at(0), pack);
        QVERIFY(contains(p.path, "C:\\Program Files\\AMD\\ROCm\\5.7\\bin"));
        QCOMPARE(p.env.at("ROCBLAS_TENSILE_LIBPATH"), pack + "\\library");
    }
};

QTEST_GUILESS_MAIN(TestSelectBareMachine)
#include "test_select_bare_machine.moc"
