// amd-smi as users paste it: `amd-smi list`, `amd-smi static` ("GPU: N" blocks of
// "KEY: value" lines) and the table plain `amd-smi` prints. amd-smi's GPU index is its
// own: the table's HIP-ID column (and nothing else) gives the HIP device id.

#include "core/gpu_indices.h"
#include "detectors/merge.h"
#include "detectors/parsers/tool_parsers.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace sp {

using namespace parse_util;

namespace {

GpuInfo amdSmiGpu(int index)
{
    GpuInfo g;
    g.vendor = Vendor::Amd;
    g.indices[kApiAmdSmi] = index;
    g.sources = {"amd-smi"};
    return g;
}

// "0000:05:00.0" as amd-smi prints a BDF; empty for anything else.
std::string bdf(std::string_view v)
{
    v = trim(v);
    if (v.size() != 12 || v[4] != ':' || v[7] != ':' || v[10] != '.')
        return {};
    return normalizePciBus(std::string(v));
}

void blockField(GpuInfo& g, std::string_view key, std::string_view value, std::string& vendor,
                std::string& device)
{
    if (key == "BDF")
        g.pciBus = bdf(value);
    else if (key == "NODE_ID") {
        if (const auto n = leadingInt(value); n && *n >= 0 && *n < 1024)
            g.kfdNode = static_cast<int>(*n);
    } else if (key == "MARKET_NAME")
        g.name = clip(value);
    else if (key == "VENDOR_ID")
        vendor = lower(value);
    else if (key == "DEVICE_ID")
        device = lower(value);
    else if (key == "REV_ID") {
        if (const auto r = hexNumber(value, 2))
            g.pciRevision =
                std::string(1, "0123456789abcdef"[*r >> 4]) + "0123456789abcdef"[*r & 15];
    } else if (key == "TARGET_GRAPHICS_VERSION") {
        if (std::string gfx = gfxFromTarget(value); !gfx.empty())
            g.gfx = gfx;
    } else if (key == "NUM_COMPUTE_UNITS") {
        if (const auto n = leadingInt(value); n && *n > 0 && *n < 100000)
            g.computeUnits = static_cast<int>(*n);
    }
}

void setPciId(GpuInfo& g, const std::string& vendor, const std::string& device)
{
    const auto v = hexNumber(vendor, 4), d = hexNumber(device, 4);
    if (v && d && *v == 0x1002) {
        char s[16];
        std::snprintf(s, sizeof s, "1002:%04llx", static_cast<unsigned long long>(*d));
        g.pciId = s;
    }
}

// Moves the GPU amd-smi numbered `index` to the back, where the block being read goes.
bool reopen(std::vector<GpuInfo>& gpus, int index)
{
    for (auto it = gpus.begin(); it != gpus.end(); ++it) {
        if (it->indices.at(kApiAmdSmi) != index)
            continue;
        std::rotate(it, it + 1, gpus.end());
        return true;
    }
    return false;
}

// `amd-smi list` and `amd-smi static`: "GPU: 0" opens a block; other top-level headers
// ("AI_NIC: 0", "CPU: 0") close it.
void readBlocks(std::string_view text, ParsedProbe& out)
{
    bool open = false;
    std::string vendor, device;
    auto close = [&] {
        if (open)
            setPciId(out.gpus.back(), vendor, device);
        open = false;
        vendor.clear();
        device.clear();
    };
    for (std::string_view raw : cleanLines(text)) {
        const std::string_view t = trim(raw);
        const auto colon = t.find(':');
        if (colon == std::string_view::npos)
            continue;
        const std::string_view key = trim(t.substr(0, colon)), value = trim(t.substr(colon + 1));
        if (key == "GPU" && value.size() <= 3 && leadingInt(value)) {
            close();
            const int index = static_cast<int>(*leadingInt(value));
            if (reopen(out.gpus, index)) { // `list` then `static` in one paste: one GPU
                open = true;
                continue;
            }
            if (out.gpus.size() >= kMaxParsedGpus)
                break;
            out.gpus.push_back(amdSmiGpu(index));
            open = true;
        } else if (key == "AI_NIC" || key == "NIC" || key == "CPU" || key == "CPU_CORE") {
            close(); // another kind of device
        } else if (open) {
            blockField(out.gpus.back(), key, value, vendor, device);
        }
    }
    close();
}

std::vector<std::string_view> tableCells(std::string_view line)
{
    std::vector<std::string_view> out;
    line = trim(line);
    if (line.size() < 2 || line.front() != '|')
        return out;
    line.remove_prefix(1);
    for (auto bar = line.find('|'); bar != std::string_view::npos && out.size() < 4;
         bar = line.find('|')) {
        out.push_back(trim(line.substr(0, bar)));
        line.remove_prefix(bar + 1);
    }
    return out;
}

// The table: "| 0000:05:00.0    AMD Instinct MI300X | ..." then
// "|   0       0       7        DPX/NPS1 | 0 %   N/A   283/196592 MB |".
void readTable(std::string_view text, ParsedProbe& out)
{
    bool header = false;
    std::optional<GpuInfo> pending;
    for (std::string_view raw : cleanLines(text)) {
        header = header || raw.find("HIP-ID") != std::string_view::npos;
        const auto c = tableCells(raw);
        if (!header || c.size() < 2)
            continue;
        if (const std::string bus = bdf(c[0].substr(0, 12)); !bus.empty()) {
            pending = amdSmiGpu(0);
            pending->pciBus = bus;
            pending->name = clip(trim(c[0].substr(12)));
            continue;
        }
        const auto space = c[0].find(' ');
        const auto gpu = leadingInt(c[0]);
        std::optional<long long> hip;
        if (space != std::string_view::npos)
            hip = leadingInt(trim(c[0].substr(space)));
        const long long gpuIndex = gpu.value_or(-1), hipIndex = hip.value_or(-1);
        if (!pending || gpuIndex < 0 || hipIndex < 0 || gpuIndex > kMaxApiIndex ||
            hipIndex > kMaxApiIndex || out.gpus.size() >= kMaxParsedGpus)
            continue;
        pending->indices[kApiAmdSmi] = static_cast<int>(gpuIndex);
        pending->indices[kApiHip] = static_cast<int>(hipIndex);
        if (const auto slash = c[1].rfind('/'); slash != std::string_view::npos)
            if (const auto mb = leadingInt(c[1].substr(slash + 1));
                mb && *mb > 0 && *mb < (1LL << 30))
                pending->vramMb = *mb;
        out.gpus.push_back(std::move(*pending));
        pending.reset();
    }
}

} // namespace

ParsedProbe parseAmdSmi(std::string_view text)
{
    ParsedProbe out;
    out.probe.name = "amd-smi";
    readTable(text, out);
    if (out.gpus.empty())
        readBlocks(text, out);
    for (auto it = out.gpus.begin(); it != out.gpus.end();)
        it = it->pciBus.empty() && it->name.empty() && !it->gfx ? out.gpus.erase(it) : it + 1;
    out.probe.status = out.gpus.empty() ? ProbeStatus::Failed : ProbeStatus::Ok;
    out.probe.detail =
        out.gpus.empty() ? "no device" : std::to_string(out.gpus.size()) + " device(s)";
    return out;
}

} // namespace sp
