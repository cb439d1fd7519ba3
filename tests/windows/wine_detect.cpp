// Runs the real Windows detection code (DXGI, SetupAPI, the registry, the home
// folder) and the pure checks, built with MinGW by .ci/test-windows and run
// under Wine. Wine's adapters are whatever its display driver makes up, so the
// figures are printed, not asserted; what is asserted is that the APIs answer
// the way the code expects and that the pure checks pass in the MinGW build.
#include "core/snapshot.h"
#include "detectors/windows/adapters.h"
#include "pure_checks.h"

#include <cstdio>
#include <cstring>

namespace sp {
HomeInfo detectHome();
}

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

} // namespace

int main(int argc, char** argv)
{
    // --no-dxgi-ok: a Wine without a usable display may fail to create a DXGI
    // factory; CI passes it only where it runs Wine with no display at all.
    bool dxgiMayFail = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--no-dxgi-ok") == 0)
            dxgiMayFail = true;
    }

    int rc = runPureChecks();

    const auto report = win::detectWindowsGpus();
    printAdapters(report);

    HardwareSnapshot snap;
    snap.os.family = "windows";
    snap.home = detectHome();
    snap.gpus = report.gpus;
    std::printf("home: path=\"%s\" filesystem=%s network=%s\n", snap.home.path.c_str(),
                snap.home.filesystem.c_str(), snap.home.network ? "yes" : "no");
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
        if (!(dxgi && dxgiMayFail)) {
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
