// OpenCL device listings: ROCm's own `clinfo` ("Key:<tabs>value") and the Khronos
// `clinfo` ("Key<spaces>value"). AMD's platform names the gfx target as the device
// name; NVIDIA's prints the compute capability.

#include "detectors/parsers/tool_parsers.h"

#include <cstdio>

namespace sp {

using namespace parse_util;

namespace {

struct ClDevice
{
    std::string type, name, board, topology, cc;
    std::optional<std::uint64_t> vendorId, deviceId;
};

// The keys read, as each clinfo spells them.
constexpr const char* kKeys[] = {
    "Device Type",
    "Device Name",
    "Name",
    "Vendor ID",
    "Device Vendor ID",
    "Board name",
    "Device Board Name (AMD)",
    "Device Topology",
    "Device Topology (AMD)",
    "Device Topology (NV)",
    "Device PCI-e ID (AMD)",
    "Compute Capability (NV)",
};

// Splits "Board name:\t\t Device 738c" or "Device Name      gfx1030" into key and value
// when the key is one of kKeys. The longest matching key wins.
std::optional<std::pair<std::string_view, std::string_view>> keyValue(std::string_view line)
{
    std::string_view best;
    for (const char* k : kKeys) {
        const std::string_view key(k);
        if (line.substr(0, key.size()) != key || key.size() <= best.size())
            continue;
        const std::string_view after = line.substr(key.size());
        const bool rocm = !after.empty() && after.front() == ':';
        const bool khronos = after.size() >= 2 && isAsciiSpace(after[0]) && isAsciiSpace(after[1]);
        if (rocm || khronos)
            best = key;
    }
    if (best.empty())
        return std::nullopt;
    std::string_view value = line.substr(best.size());
    if (!value.empty() && value.front() == ':')
        value.remove_prefix(1);
    return std::make_pair(best, trim(value));
}

// "PCI[ B#163, D#0, F#0 ]" (ROCm) or "PCI-E, 0000:0a:00.0" (Khronos) -> "0000:a3:00.0".
std::string busFromTopology(std::string_view v)
{
    if (const auto b = v.find("B#"); b != std::string_view::npos) {
        auto numberAfter = [&](std::string_view mark) -> long long {
            const auto at = v.find(mark);
            return at == std::string_view::npos ? -1 : leadingInt(v.substr(at + 2)).value_or(-1);
        };
        const long long bus = numberAfter("B#"), dev = numberAfter("D#"), fn = numberAfter("F#");
        if (bus < 0 || bus > 0xff || dev < 0 || dev > 0x1f || fn < 0 || fn > 7)
            return {};
        char s[32];
        std::snprintf(s, sizeof s, "0000:%02llx:%02llx.%llx", bus, dev, fn);
        return s;
    }
    const auto comma = v.find(',');
    return comma == std::string_view::npos ? std::string() : busFromNvidia(v.substr(comma + 1));
}

void setField(ClDevice& d, std::string_view key, std::string_view value)
{
    if (key == "Device Type")
        d.type = value;
    else if (key == "Name" || key == "Device Name")
        d.name = value;
    else if (key == "Vendor ID" || key == "Device Vendor ID")
        d.vendorId = hexNumber(value, 8);
    else if (key == "Board name" || key == "Device Board Name (AMD)")
        d.board = value;
    else if (key.substr(0, 15) == "Device Topology")
        d.topology = busFromTopology(value);
    else if (key == "Device PCI-e ID (AMD)")
        d.deviceId = hexNumber(value, 4);
    else if (key == "Compute Capability (NV)")
        d.cc = value;
}

std::optional<GpuInfo> clinfoGpu(const ClDevice& d)
{
    const std::string type = lower(d.type);
    const std::string gfx = gfxFromTarget(d.name);
    const bool nvidia = d.vendorId == 0x10de || !d.cc.empty();
    if (type.find("cpu") != std::string::npos || (type.empty() && gfx.empty() && d.cc.empty()))
        return std::nullopt;
    GpuInfo g;
    g.vendor = nvidia ? Vendor::Nvidia : Vendor::Amd;
    if (!gfx.empty() && !nvidia)
        g.gfx = gfx;
    g.name = clip(d.board.empty() || deviceIdFromPlaceholder(d.board) ? d.name : d.board);
    std::optional<std::uint64_t> device = d.deviceId;
    if (!device) {
        if (const auto placeholder = deviceIdFromPlaceholder(d.board))
            device = *placeholder;
    }
    if (device && *device > 0 && *device <= 0xffff)
        g.pciId = std::string(nvidia ? "10de:" : "1002:") + hex(*device, 4);
    g.pciBus = d.topology;
    if (nvidia && looksLikeComputeCap(d.cc))
        g.computeCapability = std::string(trim(d.cc));
    g.sources = {"clinfo"};
    return g;
}

} // namespace

ParsedProbe parseClinfo(std::string_view text)
{
    ParsedProbe out;
    out.probe.name = "clinfo";
    std::vector<ClDevice> devices;
    for (std::string_view raw : cleanLines(text)) {
        const auto kv = keyValue(trim(raw));
        if (!kv)
            continue;
        // ROCm's listing opens a device with "Device Type" and names it later; Khronos'
        // opens one with "Device Name" and gives the type later.
        const bool opens = devices.empty() ||
                           (kv->first == "Device Type" && !devices.back().type.empty()) ||
                           (kv->first == "Device Name" && !devices.back().name.empty());
        if (opens) {
            if (devices.size() >= kMaxParsedGpus)
                break;
            devices.emplace_back();
        }
        setField(devices.back(), kv->first, kv->second);
    }
    for (const ClDevice& d : devices) {
        if (auto g = clinfoGpu(d))
            out.gpus.push_back(std::move(*g));
    }
    out.probe.status = out.gpus.empty() ? ProbeStatus::Failed : ProbeStatus::Ok;
    out.probe.detail =
        out.gpus.empty() ? "no device" : std::to_string(out.gpus.size()) + " device(s)";
    return out;
}

} // namespace sp
