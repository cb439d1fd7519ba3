// Pure: no windows.h, compiled by the Linux unit tests as well.
#include "detectors/windows/adapters.h"
#include "detectors/windows/hardware_id.h"

#include <algorithm>
#include <cstdio>

namespace sp::win {

namespace {

constexpr std::uint32_t kMicrosoftVendor = 0x1414;
constexpr std::uint32_t kBasicRenderDevice = 0x008c;
constexpr std::uint64_t kMiB = 1024ull * 1024ull;

// 0000 and ffff are not assigned PCI vendors: Wine's made-up "Wine Adapter" and
// some virtual display devices report them.
bool isRealPciVendor(std::uint32_t v)
{
    return v != 0 && v != 0xffff;
}

std::optional<PciHardwareId> pciIdOf(const WinDisplayDevice& d)
{
    for (const auto& id : d.hardwareIds) {
        if (auto p = parsePciHardwareId(id))
            return p;
    }
    return parsePciHardwareId(d.instanceId);
}

bool matches(const WinAdapter& a, const PciHardwareId& id)
{
    if (a.vendorId != id.vendorId || a.deviceId != id.deviceId)
        return false;
    // DXGI reports 0 for fields the driver left out; only a known, different
    // value rules a pairing out.
    if (id.subsysId && a.subsysId != 0 && a.subsysId != *id.subsysId)
        return false;
    if (id.revision && a.revision != 0 && a.revision != *id.revision)
        return false;
    return true;
}

std::string luidText(std::uint64_t luid)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "%08x:%08x", static_cast<unsigned>(luid >> 32),
                  static_cast<unsigned>(luid & 0xffffffffu));
    return buf;
}

void addDxgi(GpuInfo& g, const WinAdapter& a)
{
    g.sources.push_back("dxgi");
    g.extra["dxgi_dedicated_mb"] = static_cast<std::int64_t>(a.dedicatedVideoMemory / kMiB);
    g.extra["dxgi_shared_mb"] = static_cast<std::int64_t>(a.sharedSystemMemory / kMiB);
    g.extra["luid"] = luidText(a.luid);
    if (g.name.empty())
        g.name = a.description;
    if (!g.vramMb && a.dedicatedVideoMemory > 0)
        g.vramMb = static_cast<std::int64_t>(a.dedicatedVideoMemory / kMiB);
    if (g.pciRevision.empty() && a.revision != 0)
        g.pciRevision = formatPciRevision(a.revision);
    if (!g.extra.contains("subsys") && a.subsysId != 0)
        g.extra["subsys"] = formatSubsys(a.subsysId);
}

GpuInfo fromAdapter(const WinAdapter& a)
{
    GpuInfo g;
    g.vendor = vendorFromPciId(a.vendorId);
    g.pciId = formatPciId(a.vendorId, a.deviceId);
    addDxgi(g, a);
    return g;
}

GpuInfo fromDevice(const WinDisplayDevice& d, const PciHardwareId& id)
{
    GpuInfo g;
    g.vendor = vendorFromPciId(id.vendorId);
    g.pciId = formatPciId(id.vendorId, id.deviceId);
    if (id.revision)
        g.pciRevision = formatPciRevision(*id.revision);
    if (id.subsysId)
        g.extra["subsys"] = formatSubsys(*id.subsysId);
    if (d.busNumber && d.address)
        g.pciBus = formatPciBus(*d.busNumber, *d.address);
    // DriverDesc is what the installed driver calls the card ("AMD Radeon RX 6750
    // XT"); DeviceDesc is usually the same, or a generic name before a driver.
    g.name = !d.driverDesc.empty() ? d.driverDesc : d.deviceDesc;
    if (d.memorySize && *d.memorySize > 0)
        g.vramMb = static_cast<std::int64_t>(*d.memorySize / kMiB);
    if (!d.driverVersion.empty())
        g.driverVersion = d.driverVersion;
    if (!d.instanceId.empty())
        g.extra["instance_id"] = d.instanceId;
    if (d.problemCode)
        g.extra["problem_code"] = *d.problemCode;
    g.sources.push_back("setupapi");
    if (d.registryRead && (!d.driverDesc.empty() || !d.driverVersion.empty() || d.memorySize))
        g.sources.push_back("registry");
    return g;
}

} // namespace

bool isSoftwareAdapter(const WinAdapter& a)
{
    return a.software || (a.vendorId == kMicrosoftVendor && a.deviceId == kBasicRenderDevice) ||
           !isRealPciVendor(a.vendorId);
}

std::vector<GpuInfo> combineWindowsGpus(const std::vector<WinAdapter>& dxgi,
                                        const std::vector<WinDisplayDevice>& devices)
{
    // Output follows DXGI's order (the adapter driving the primary display
    // first); devices DXGI did not show come after, in SetupAPI's order.
    struct Entry
    {
        std::size_t order;
        GpuInfo gpu;
    };
    std::vector<Entry> out;
    std::vector<bool> used(dxgi.size(), false);
    std::size_t unmatched = dxgi.size();

    for (const auto& d : devices) {
        const auto id = pciIdOf(d);
        if (!id || id->vendorId == kMicrosoftVendor || !isRealPciVendor(id->vendorId))
            continue; // ROOT\BasicDisplay, indirect displays, remote sessions, Wine
        GpuInfo g = fromDevice(d, *id);
        std::size_t order = unmatched++;
        for (std::size_t i = 0; i < dxgi.size(); ++i) {
            if (!used[i] && !isSoftwareAdapter(dxgi[i]) && matches(dxgi[i], *id)) {
                used[i] = true;
                order = i;
                addDxgi(g, dxgi[i]);
                break;
            }
        }
        out.push_back({order, std::move(g)});
    }
    for (std::size_t i = 0; i < dxgi.size(); ++i) {
        if (!used[i] && !isSoftwareAdapter(dxgi[i]))
            out.push_back({i, fromAdapter(dxgi[i])});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Entry& a, const Entry& b) { return a.order < b.order; });
    std::vector<GpuInfo> gpus;
    gpus.reserve(out.size());
    for (auto& e : out)
        gpus.push_back(std::move(e.gpu));
    return gpus;
}

} // namespace sp::win
