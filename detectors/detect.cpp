#include "detectors/detect.h"

#include "core/paths.h"
#include "detectors/home.h"
#include "detectors/linux/sysfs_gpus.h"
#include "detectors/merge.h"
#include "detectors/nvidia_cc_table.h"
#include "detectors/os_info.h"
#include "detectors/pci_table.h"
#include "detectors/probe_runner.h"

#include <future>

#ifdef _WIN32
#include "detectors/windows/adapters.h"
#endif

namespace sp {

namespace {

void append(std::vector<ProbeResult>& into, const std::vector<ProbeResult>& from)
{
    into.insert(into.end(), from.begin(), from.end());
}

} // namespace

HardwareSnapshot detectHardware(const DetectOptions& options)
{
    return detectHardware(options, nullptr);
}

HardwareSnapshot detectHardware(const DetectOptions& options, std::vector<RawProbeOutput>* raw)
{
    HardwareSnapshot snap;
    snap.os = currentOs();
    snap.home = detectHome();

    std::vector<std::vector<GpuInfo>> lists;
#ifndef _WIN32
    const bool fakeRoot = !options.sysfsRoot.empty();
    const auto sysRoot = fakeRoot ? options.sysfsRoot : std::filesystem::path("/sys");
    lists.push_back(sysfs::detectGpus(sysRoot));
    if (!options.devKfdPath.empty()) {
        snap.probes.push_back(sysfs::checkKfdAccess(options.devKfdPath));
    } else if (fakeRoot) {
        snap.probes.push_back({"kfd-access", ProbeStatus::Missing, "fake sysfs root", {}});
    } else {
        snap.probes.push_back(sysfs::checkKfdAccess("/dev/kfd"));
    }
    if (fakeRoot)
        snap.extra["sysfs_root"] = paths::toUtf8(options.sysfsRoot);
#else
    auto windows = win::detectWindowsGpus();
    lists.push_back(std::move(windows.gpus));
    for (const auto& e : windows.errors)
        snap.probes.push_back({"windows-adapters", ProbeStatus::Failed, e, {}});
#endif

    if (options.probes) {
        ProbeOptions po;
        po.timeoutMs = options.probeTimeoutMs;
        po.probeExecutable = options.probeExecutable;
        // Both batches run at once, so a hung driver and a hung tool cost one timeout,
        // not two. Vendor libraries stay listed first: same rank or better.
        auto tools = std::async(std::launch::async, [po] { return runToolProbes(po); });
        auto vendor = runVendorProbes(po);
        for (auto report : {std::move(vendor), tools.get()}) {
            for (auto& list : listsBySource(std::move(report.gpus)))
                lists.push_back(std::move(list));
            snap.runtimes.insert(snap.runtimes.end(), report.runtimes.begin(),
                                 report.runtimes.end());
            append(snap.probes, report.probes);
            if (raw)
                raw->insert(raw->end(), report.raw.begin(), report.raw.end());
        }
    }

    snap.gpus = mergeGpuLists(lists);
    bool anyAmd = false;
    for (const auto& g : snap.gpus)
        anyAmd = anyAmd || g.vendor == Vendor::Amd;
    // The table is only parsed when an AMD GPU needs it.
    static const PciTable kEmpty;
    completeFromTable(snap.gpus, anyAmd ? PciTable::shipped() : kEmpty);
    if (anyAmd && PciTable::shipped().size() == 0)
        snap.extra["warnings"].push_back("AMD PCI table not loaded: " +
                                         PciTable::shipped().loadError());
    // nvidia-smi before ~510 and a GPU seen only through sysfs give no compute capability.
    bool nvidiaWithoutCc = false;
    for (const auto& g : snap.gpus)
        nvidiaWithoutCc = nvidiaWithoutCc || (g.vendor == Vendor::Nvidia && !g.computeCapability);
    if (nvidiaWithoutCc) {
        completeNvidiaFromTable(snap.gpus, NvidiaCcTable::shipped());
        if (NvidiaCcTable::shipped().size() == 0)
            snap.extra["warnings"].push_back("NVIDIA compute capability table not loaded: " +
                                             NvidiaCcTable::shipped().loadError());
    }
    return snap;
}

} // namespace sp
