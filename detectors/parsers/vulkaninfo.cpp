// vulkaninfo as users paste it: the full report, `--summary`, and the list Mesa's device
// select layer prints with MESA_VK_DEVICE_SELECT=list. vulkaninfo numbers the physical
// devices as every Vulkan program sees them ("GPU0:"), which is the order
// GGML_VK_VISIBLE_DEVICES counts in; CPU devices (llvmpipe, lavapipe) keep their number
// but are no GPU. The layer's list numbers the devices before the layer puts the default
// one first, so its "GPU 1" need not be a program's device 1 (lutris/lutris#3447: the list
// says "GPU 0" for the Arc A750 that vkcube selects as "GPU 1"); it gives ids and bus
// addresses, never a Vulkan index.

#include "core/gpu_indices.h"
#include "detectors/merge.h"
#include "detectors/parsers/tool_parsers.h"

#include <cctype>
#include <cstdio>

namespace sp {

using namespace parse_util;

namespace {

struct VkDevice
{
    int index = 0;
    std::string name, type, vendor, device;
    std::optional<long long> domain, bus, dev, function;
    std::string busText; // the Mesa list's "0000:03:00.0"
};

// "GPU0:" (full report, --summary) -> 0; nullopt for any other line.
std::optional<int> gpuHeader(std::string_view t)
{
    if (t.size() < 5 || t.substr(0, 3) != "GPU" || t.back() != ':')
        return std::nullopt;
    const std::string_view digits = t.substr(3, t.size() - 4);
    for (char c : digits)
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return std::nullopt;
    const auto n = digits.size() <= 3 ? leadingInt(digits) : std::nullopt;
    return n ? std::optional<int>(static_cast<int>(*n)) : std::nullopt;
}

// Mesa's Dozen driver (Vulkan on Direct3D 12, as in WSL) names the card it runs on inside
// "Microsoft Direct3D12 (...)".
std::string_view dozenInner(std::string_view name)
{
    constexpr std::string_view prefix = "Microsoft Direct3D12 (";
    if (name.size() > prefix.size() + 1 && name.substr(0, prefix.size()) == prefix &&
        name.back() == ')')
        return name.substr(prefix.size(), name.size() - prefix.size() - 1);
    return name;
}

void keyValue(VkDevice& d, std::string_view key, std::string_view value)
{
    if (key == "deviceName")
        d.name = clip(dozenInner(value));
    else if (key == "deviceType")
        d.type = lower(value);
    else if (key == "vendorID")
        d.vendor = lower(value);
    else if (key == "deviceID")
        d.device = lower(value);
    else if (key == "pciDomain")
        d.domain = leadingInt(value);
    else if (key == "pciBus")
        d.bus = leadingInt(value);
    else if (key == "pciDevice")
        d.dev = leadingInt(value);
    else if (key == "pciFunction")
        d.function = leadingInt(value);
}

// `  GPU 0: 1002:744c "AMD Radeon RX 7900 XTX (RADV NAVI31)" discrete GPU 0000:03:00.0`
std::optional<VkDevice> mesaListLine(std::string_view t)
{
    if (t.substr(0, 4) != "GPU " || !leadingInt(t.substr(4)))
        return std::nullopt;
    const auto colon = t.find(": ");
    const auto q1 = t.find('"');
    const auto q2 = q1 == std::string_view::npos ? q1 : t.find('"', q1 + 1);
    if (colon == std::string_view::npos || q2 == std::string_view::npos || q1 < colon)
        return std::nullopt;
    const std::string_view ids = trim(t.substr(colon + 2, q1 - colon - 2));
    const auto sep = ids.find(':');
    if (sep != 4 || ids.size() != 9)
        return std::nullopt;
    VkDevice d;
    d.index = -1; // the layer's own numbering, not the one programs see (file comment)
    d.vendor = "0x" + lower(ids.substr(0, 4));
    d.device = "0x" + lower(ids.substr(5));
    d.name = clip(t.substr(q1 + 1, q2 - q1 - 1));
    std::string_view rest = trim(t.substr(q2 + 1));
    d.type = lower(rest.substr(0, rest.find(" GPU") == std::string_view::npos ? rest.size()
                                                                              : rest.find(" GPU")));
    if (const auto sp = rest.rfind(' '); sp != std::string_view::npos)
        d.busText = normalizePciBus(std::string(rest.substr(sp + 1)));
    return d;
}

Vendor vendorOf(const std::string& id)
{
    const auto v = hexNumber(id, 8);
    return v ? vendorFromPciId(static_cast<std::uint32_t>(*v)) : Vendor::Other;
}

bool isCpuDevice(const VkDevice& d)
{
    return d.type.find("cpu") != std::string::npos || vendorOf(d.vendor) == Vendor::Other;
}

GpuInfo gpuOf(const VkDevice& d)
{
    GpuInfo g;
    g.vendor = vendorOf(d.vendor);
    g.name = d.name;
    const auto v = hexNumber(d.vendor, 8), id = hexNumber(d.device, 8);
    if (v && id && *v <= 0xffff && *id <= 0xffff) {
        char s[16];
        std::snprintf(s, sizeof s, "%04llx:%04llx", static_cast<unsigned long long>(*v),
                      static_cast<unsigned long long>(*id));
        g.pciId = s;
    }
    if (d.bus && d.dev && d.function && *d.bus >= 0 && *d.bus <= 0xff && *d.dev >= 0 &&
        *d.dev <= 0x1f && *d.function >= 0 && *d.function <= 7) {
        const long long dom = d.domain && *d.domain >= 0 && *d.domain <= 0xffff ? *d.domain : 0;
        char s[32];
        std::snprintf(s, sizeof s, "%04llx:%02llx:%02llx.%llx", dom, *d.bus, *d.dev, *d.function);
        g.pciBus = s;
    } else {
        g.pciBus = d.busText;
    }
    if (d.type.find("integrated") != std::string::npos)
        g.integrated = true;
    else if (d.type.find("discrete") != std::string::npos)
        g.integrated = false;
    if (d.index >= 0 && d.index <= kMaxApiIndex)
        g.indices[kApiVulkan] = d.index;
    g.sources = {"vulkaninfo"};
    return g;
}

struct Scan
{
    std::vector<VkDevice> devices;
    bool open = false; // the last device came from a "GPUn:" header
};

void scanLine(Scan& s, std::string_view t)
{
    if (const auto n = gpuHeader(t); n && s.devices.size() < kMaxParsedGpus) {
        VkDevice d;
        d.index = *n;
        s.devices.push_back(std::move(d));
        s.open = true;
        return;
    }
    if (auto d = mesaListLine(t); d && s.devices.size() < kMaxParsedGpus) {
        s.devices.push_back(std::move(*d));
        s.open = false;
        return;
    }
    const auto eq = t.find(" = ");
    if (s.open && eq != std::string_view::npos)
        keyValue(s.devices.back(), trim(t.substr(0, eq)), trim(t.substr(eq + 3)));
}

} // namespace

ParsedProbe parseVulkaninfo(std::string_view text)
{
    ParsedProbe out;
    out.probe.name = "vulkaninfo";
    out.probe.status = ProbeStatus::Failed;
    Scan scan;
    for (std::string_view line : cleanLines(text))
        scanLine(scan, trim(line));
    for (const VkDevice& d : scan.devices) {
        if (d.name.empty() && d.vendor.empty()) {
            out.probe.extra["cut_off"] = "GPU" + std::to_string(d.index);
            continue;
        }
        if (!isCpuDevice(d) && !d.name.empty())
            out.gpus.push_back(gpuOf(d));
    }
    out.probe.status = out.gpus.empty() ? ProbeStatus::Failed : ProbeStatus::Ok;
    out.probe.detail =
        out.gpus.empty() ? "no device" : std::to_string(out.gpus.size()) + " device(s)";
    return out;
}

} // namespace sp
