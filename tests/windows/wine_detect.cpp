// Runs the real Windows detection code (DXGI, SetupAPI, the registry, the home
// folder) and the pure checks, built with MinGW by .ci/test-windows and run
// under Wine. Wine's adapters are whatever its display driver makes up, so the
// figures are printed, not asserted; what is asserted is that the APIs answer
// the way the code expects and that the pure checks pass in the MinGW build.
#include "core/snapshot.h"
#include "detectors/home.h"
#include "detectors/windows/adapters.h"
#include "pure_checks.h"

#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <windows.h>

using namespace sp;

namespace {

int runPureChecks()
{
    std::vector<std::string> failures;
    const int checked = wintest::checkHardwareIds(failures) +
                        wintest::checkHomeClassification(failures) +
                        wintest::checkCombine(failures);
    for (const auto& f : failures)
        std::printf("FAIL %s\n", f.c_str());
    std::printf("pure checks: %d checked, %zu failed\n", checked, failures.size());
    return failures.empty() ? 0 : 1;
}

void printAdapters(const win::WindowsGpuReport& r)
{
    std::printf("dxgi adapters: %zu\n", r.dxgiAdapters.size());
    for (const auto& a : r.dxgiAdapters) {
        std::printf("  dxgi vendor=%04x device=%04x subsys=%08x rev=%02x dedicated=%lluMiB "
                    "dedicated_sys=%lluMiB shared=%lluMiB luid=%016llx%s \"%s\"\n",
                    a.vendorId, a.deviceId, a.subsysId, a.revision,
                    static_cast<unsigned long long>(a.dedicatedVideoMemory >> 20),
                    static_cast<unsigned long long>(a.dedicatedSystemMemory >> 20),
                    static_cast<unsigned long long>(a.sharedSystemMemory >> 20),
                    static_cast<unsigned long long>(a.luid),
                    win::isSoftwareAdapter(a) ? " software" : "", a.description.c_str());
    }
    std::printf("setupapi display devices: %zu\n", r.displayDevices.size());
    for (const auto& d : r.displayDevices) {
        std::printf(
            "  setupapi instance=\"%s\" hwid=\"%s\" desc=\"%s\" driver_desc=\"%s\" "
            "driver_version=\"%s\" memory=%s bus=%s registry=%s%s\n",
            d.instanceId.c_str(), d.hardwareIds.empty() ? "" : d.hardwareIds.front().c_str(),
            d.deviceDesc.c_str(), d.driverDesc.c_str(), d.driverVersion.c_str(),
            d.memorySize ? (std::to_string(*d.memorySize >> 20) + "MiB").c_str() : "-",
            d.busNumber ? std::to_string(*d.busNumber).c_str() : "-", d.registryRead ? "yes" : "no",
            d.problemCode ? (" problem=" + std::to_string(*d.problemCode)).c_str() : "");
    }
    for (const auto& e : r.errors)
        std::printf("error: %s\n", e.c_str());
}

struct Expectations
{
    // --no-dxgi-ok: a Wine without a usable display may fail to create a DXGI
    // factory; the runner passes it only where there is no display at all.
    bool dxgiMayFail = false;
    // Set by the runner after it writes these into the display driver's key.
    std::optional<std::uint64_t> memoryMb;
    std::optional<std::string> driverVersion;
    // Set by the runner when it points USERPROFILE at a UNC path or a drive that
    // Wine reports as remote.
    std::optional<std::string> homeFilesystem;
    std::optional<bool> homeNetwork;
    // Wine sets USERPROFILE itself, whatever the Unix environment says; this
    // replaces it inside the process before detectHome() reads it.
    std::optional<std::string> userProfile;
};

bool parseArgs(int argc, char** argv, Expectations& x)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--no-dxgi-ok")
            x.dxgiMayFail = true;
        else if (a == "--expect-memory-mb" && hasValue)
            x.memoryMb = std::stoull(argv[++i]);
        else if (a == "--expect-driver-version" && hasValue)
            x.driverVersion = argv[++i];
        else if (a == "--expect-home-fs" && hasValue)
            x.homeFilesystem = argv[++i];
        else if (a == "--userprofile" && hasValue)
            x.userProfile = argv[++i];
        else if (a == "--expect-home-network" && hasValue)
            x.homeNetwork = std::string(argv[++i]) == "yes";
        else {
            std::fprintf(stderr, "wine_detect: unknown argument %s\n", a.c_str());
            return false;
        }
    }
    return true;
}

// What the runner wrote into the registry must come back through SetupAPI's
// driver key.
bool checkRegistry(const win::WindowsGpuReport& r, const Expectations& x)
{
    if (!x.memoryMb && !x.driverVersion)
        return true;
    for (const auto& d : r.displayDevices) {
        const bool memOk =
            !x.memoryMb || (d.memorySize && *d.memorySize / (1024 * 1024) == *x.memoryMb);
        const bool verOk = !x.driverVersion || d.driverVersion == *x.driverVersion;
        if (memOk && verOk)
            return true;
    }
    std::printf("FAIL no display device with memory=%s MiB driver_version=%s\n",
                x.memoryMb ? std::to_string(*x.memoryMb).c_str() : "any",
                x.driverVersion ? x.driverVersion->c_str() : "any");
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    Expectations expect;
    if (!parseArgs(argc, argv, expect))
        return 2;

    int rc = runPureChecks();

    const auto report = win::detectWindowsGpus();
    printAdapters(report);
    if (!checkRegistry(report, expect))
        rc = 1;

    if (expect.userProfile)
        SetEnvironmentVariableA("USERPROFILE", expect.userProfile->c_str());
    HardwareSnapshot snap;
    snap.os.family = "windows";
    snap.home = detectHome();
    snap.gpus = report.gpus;
    std::printf("home: path=\"%s\" filesystem=%s network=%s drive_type=%s\n",
                snap.home.path.c_str(), snap.home.filesystem.c_str(),
                snap.home.network ? "yes" : "no",
                snap.home.extra.value("drive_type", std::string("-")).c_str());
    if (expect.homeFilesystem && snap.home.filesystem != *expect.homeFilesystem) {
        std::printf("FAIL home filesystem %s, expected %s\n", snap.home.filesystem.c_str(),
                    expect.homeFilesystem->c_str());
        rc = 1;
    }
    if (expect.homeNetwork && snap.home.network != *expect.homeNetwork) {
        std::printf("FAIL home network flag %d, expected %d\n", snap.home.network,
                    *expect.homeNetwork);
        rc = 1;
    }
    if (snap.gpus.empty())
        std::printf("no GPU adapters reported (expected on a machine without a GPU)\n");
    for (const auto& g : snap.gpus) {
        std::printf("gpu: vendor=%s pci_id=%s rev=%s bus=%s vram_mb=%s driver=%s name=\"%s\"\n",
                    toString(g.vendor).c_str(), g.pciId.c_str(), g.pciRevision.c_str(),
                    g.pciBus.c_str(), g.vramMb ? std::to_string(*g.vramMb).c_str() : "-",
                    g.driverVersion ? g.driverVersion->c_str() : "-", g.name.c_str());
    }

    // The snapshot must survive the JSON round trip in this build as well.
    const auto json = toJson(snap);
    std::printf("snapshot: %s\n", json.dump().c_str());
    auto back = snapshotFromJson(json, "wine_detect");
    if (!back || !(*back == snap)) {
        std::printf("FAIL snapshot round trip: %s\n",
                    back ? "values differ" : back.error().message.c_str());
        rc = 1;
    }

    for (const auto& e : report.errors) {
        const bool dxgi = e.rfind("dxgi:", 0) == 0;
        if (!(dxgi && expect.dxgiMayFail)) {
            std::printf("FAIL %s\n", e.c_str());
            rc = 1;
        }
    }
    if (snap.home.path.empty()) {
        std::printf("FAIL no USERPROFILE\n");
        rc = 1;
    }
    std::printf("wine_detect: %s\n", rc == 0 ? "ok" : "FAILED");
    return rc;
}
