// The doctor's checks of paths and of the host: install path (a), /dev/kfd (b),
// several stack versions (c), network home (f), git on PATH (i). Each check gets a
// fixture that trips it and one that does not.

#include "core/paths.h"
#include "doctor_fixtures.h"

#include <QTest>
#include <sys/stat.h>
#include <unistd.h>

using namespace doctor_fixtures;
using fixtures::amd;
using fixtures::machine;
using fixtures::nvidia;
using fixtures::shippedCatalog;

class TestDoctorHost : public QObject
{
    Q_OBJECT

private slots:
    void installPathTrips()
    {
        QTemporaryDir dir;
        const auto snap = machine("windows", {});
        auto in = inputFor(snap, shippedCatalog(), dir);
        in.dataDir = sp::paths::fromUtf8("C:\\Users\\Jos\xc3\xa9\\OneDrive - Contoso\\StackPilot");
        auto f = sp::doctor::checkInstallPath(in);
        QVERIFY(hasFinding(f, "install-path-non-ascii"));
        QVERIFY(hasFinding(f, "install-path-onedrive"));
        QVERIFY(!hasFinding(f, "install-path-program-files"));
        in.dataDir = "C:\\PROGRAM FILES\\StackPilot";
        f = sp::doctor::checkInstallPath(in);
        QVERIFY(hasFinding(f, "install-path-program-files"));
        QVERIFY(!f.front().fix.empty());
    }
    void installPathClean()
    {
        QTemporaryDir dir;
        const auto snap = machine("windows", {});
        auto in = inputFor(snap, shippedCatalog(), dir);
        in.dataDir = "C:\\Users\\jose\\AppData\\Local\\StackPilot\\NotOneDrive";
        QVERIFY(sp::doctor::checkInstallPath(in).empty());
    }

    void kfdMissing()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {amd("RX 6700 XT", "gfx1031", 12288)});
        const auto f = sp::doctor::checkKfdAccess(inputFor(snap, shippedCatalog(), dir));
        QVERIFY(hasFinding(f, "kfd-missing"));
    }
    void kfdPermissions()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {amd("RX 6700 XT", "gfx1031", 12288)});
        auto in = inputFor(snap, shippedCatalog(), dir);
        const auto kfd = fs::path(in.fsRoot) / "dev/kfd";
        touch(kfd);
        QCOMPARE(::chmod(kfd.c_str(), 0660), 0);
        struct stat st
        {};
        QCOMPARE(::stat(kfd.c_str(), &st), 0);
        // Neither the owner nor in the device's group: no access.
        in.uid = st.st_uid + 1;
        in.gids = {st.st_gid + 1};
        auto f = sp::doctor::checkKfdAccess(in);
        QVERIFY(hasFinding(f, "kfd-permissions"));
        QVERIFY(f.front().fix.find("sudo usermod -aG") != std::string::npos);
        // In the group: access.
        in.gids.push_back(st.st_gid);
        QVERIFY(sp::doctor::checkKfdAccess(in).empty());
        // Not for an NVIDIA machine.
        const auto nv = machine("linux", {nvidia("RTX 3060", "8.6", 12288)});
        QVERIFY(sp::doctor::checkKfdAccess(inputFor(nv, shippedCatalog(), dir)).empty());
    }

    void severalRocmUnderOpt()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {});
        auto in = inputFor(snap, shippedCatalog(), dir);
        fs::create_directories(fs::path(in.fsRoot) / "opt/rocm-6.1.2");
        QVERIFY(sp::doctor::checkStackVersions(in).empty());
        fs::create_directories(fs::path(in.fsRoot) / "opt/rocm-6.4.0");
        QVERIFY(hasFinding(sp::doctor::checkStackVersions(in), "several-rocm"));
    }
    void severalHipSdks()
    {
        QTemporaryDir dir;
        const auto snap = machine("windows", {});
        auto in = inputFor(snap, shippedCatalog(), dir);
        in.env["HIP_PATH_57"] = "C:\\Program Files\\AMD\\ROCm\\5.7\\";
        QVERIFY(sp::doctor::checkStackVersions(in).empty());
        in.env["HIP_PATH_61"] = "C:\\Program Files\\AMD\\ROCm\\6.1\\";
        QVERIFY(hasFinding(sp::doctor::checkStackVersions(in), "several-hip-sdk"));
    }
    void mixedPathEntries()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {});
        auto in = inputFor(snap, shippedCatalog(), dir);
        in.env["PATH"] = "/opt/rocm-6.1.2/bin:/usr/bin:/usr/local/cuda-12.1/bin";
        in.env["LD_LIBRARY_PATH"] = "/opt/rocm-6.1.2/lib:/opt/rocm-6.1.2/lib64";
        QVERIFY(sp::doctor::checkStackVersions(in).empty());
        in.env["LD_LIBRARY_PATH"] = "/opt/rocm-6.1.2/lib:/opt/rocm-5.7.1/lib";
        in.env["PATH"] = "/usr/local/cuda-12.1/bin:/usr/local/cuda-11.8/bin";
        const auto f = sp::doctor::checkStackVersions(in);
        QVERIFY(hasFinding(f, "mixed-rocm-ld_library_path"));
        QVERIFY(hasFinding(f, "mixed-cuda-path"));
    }

    // A GPU variable set globally is named, with how to remove it on that OS;
    // nothing is said of a clean environment.
    void staleGpuVariablesAreNamed()
    {
        QTemporaryDir dir;
        sp::SelectSettings folders;
        folders.dataDir = "/d";
        folders.cacheDir = "/c";
        const auto linux = machine("linux", {amd("AMD Radeon RX 7900 XTX", "gfx1100", 24576)});
        const auto plan = sp::makePlan(linux, shippedCatalog(), "comfyui", folders);
        QVERIFY(plan.ok());
        auto in = inputFor(linux, shippedCatalog(), dir);
        in.plan = &*plan;
        in.env = {{"HOME", "/home/u"}, {"PATH", "/usr/bin"}};
        QVERIFY(sp::doctor::checkStaleGpuVariables(in).empty());
        in.env["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0";
        in.env["ROCM_PATH"] = "/opt/rocm-6.1.0";
        auto f = sp::doctor::checkStaleGpuVariables(in);
        QCOMPARE(f.size(), std::size_t{2});
        QVERIFY(hasFinding(f, "stale-gpu-variable:HSA_OVERRIDE_GFX_VERSION"));
        QVERIFY(hasFinding(f, "stale-gpu-variable:ROCM_PATH"));
        QVERIFY2(f.front().fix.find(".bashrc") != std::string::npos, f.front().fix.c_str());
        QVERIFY(f.front().text.find("10.3.0") != std::string::npos);

        const auto windows = machine("windows", {amd("AMD Radeon RX 6750 XT", "gfx1031", 12288)});
        const auto wplan = sp::makePlan(windows, shippedCatalog(), "sdnext", folders);
        QVERIFY(wplan.ok());
        auto win = inputFor(windows, shippedCatalog(), dir);
        win.plan = &*wplan;
        win.env = {{"cuda_visible_devices", "1"}};
        f = sp::doctor::checkStaleGpuVariables(win);
        QCOMPARE(f.size(), std::size_t{1});
        QVERIFY2(f.front().fix.find("reg delete HKCU\\Environment") != std::string::npos,
                 f.front().fix.c_str());
    }

    void networkHome()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {amd("RX 6700 XT", "gfx1031", 12288)}, "nfs");
        sp::SelectSettings folders;
        folders.dataDir = "/d";
        folders.cacheDir = "/c";
        const auto plan = sp::makePlan(snap, shippedCatalog(), "comfyui", folders);
        QVERIFY(plan.ok());
        auto in = inputFor(snap, shippedCatalog(), dir);
        in.plan = &*plan;
        const auto f = sp::doctor::checkNetworkHome(in);
        QVERIFY(hasFinding(f, "network-home"));
        QVERIFY(f.front().text.find("nfs") != std::string::npos);
        QVERIFY2(f.front().fix.find("=/c/") != std::string::npos, f.front().fix.c_str());
    }
    void localHome()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {}, "ext4");
        QVERIFY(sp::doctor::checkNetworkHome(inputFor(snap, shippedCatalog(), dir)).empty());
    }

    void gitMissing()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {});
        auto in = inputFor(snap, shippedCatalog(), dir);
        in.env["PATH"] = in.fsRoot + "/bin";
        QVERIFY(hasFinding(sp::doctor::checkGitOnPath(in), "git-missing"));
        touch(fs::path(in.fsRoot) / "bin/git");
        QVERIFY(sp::doctor::checkGitOnPath(in).empty());
        // Not on a Windows snapshot (the profile installs its own git there).
        const auto win = machine("windows", {});
        QVERIFY(sp::doctor::checkGitOnPath(inputFor(win, shippedCatalog(), dir)).empty());
    }
};

QTEST_GUILESS_MAIN(TestDoctorHost)
#include "test_doctor_host.moc"
