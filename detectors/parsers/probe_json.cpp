#include "core/gpu_indices.h"
#include "detectors/parsers/tool_parsers.h"

#include <nlohmann/json.hpp>

namespace sp {

using namespace parse_util;
using nlohmann::json;

namespace {

std::optional<std::string> str(const json& o, const char* key, std::size_t max = 256)
{
    const auto it = o.find(key);
    if (it == o.end() || !it->is_string())
        return std::nullopt;
    return clip(it->get_ref<const std::string&>(), max);
}

std::optional<std::int64_t> integer(const json& o, const char* key)
{
    const auto it = o.find(key);
    if (it == o.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<std::int64_t>();
}

std::string normalizeBus(std::string s)
{
    s = lower(s);
    // "00000000:01:00.0" (NVML/CUDA style) -> "0000:01:00.0"
    if (const auto colon = s.find(':'); colon != std::string::npos && colon > 4)
        s = s.substr(colon - 4);
    return s;
}

GpuInfo gpuFromProbe(const json& d, const json& report, std::string_view name, bool amd)
{
    GpuInfo g;
    g.vendor = amd ? Vendor::Amd : Vendor::Nvidia;
    g.name = str(d, "name").value_or("");
    if (const auto t = str(d, "gfx_target", 64)) {
        if (const std::string gfx = gfxFromTarget(*t); !gfx.empty())
            g.gfx = gfx;
        if (t->find(':') != std::string::npos)
            g.extra["gfx_target"] = *t;
    }
    if (!g.gfx) {
        if (const auto gx = str(d, "gfx", 64); gx && !gfxFromTarget(*gx).empty())
            g.gfx = gfxFromTarget(*gx);
    }
    if (const auto cc = str(d, "compute_capability", 8))
        g.computeCapability = *cc;
    if (const auto bus = str(d, "pci_bus", 32))
        g.pciBus = normalizeBus(*bus);
    if (const auto id = str(d, "pci_id", 16))
        g.pciId = lower(*id);
    if (const auto mb = integer(d, "vram_mb"); mb && *mb > 0)
        g.vramMb = *mb;
    if (const auto cu = integer(d, "compute_units"); cu && *cu > 0 && *cu < 100000)
        g.computeUnits = static_cast<int>(*cu);
    if (const auto it = d.find("integrated"); it != d.end() && it->is_boolean())
        g.integrated = it->get<bool>();
    // NVML's driver_version is the display driver's (580.159.04); the CUDA probe's is
    // cuDriverGetVersion, the CUDA API version (13.0), kept as the cuda-driver runtime.
    if (name == "nvml") {
        if (const auto drv = str(report, "driver_version", 32))
            g.driverVersion = *drv;
    }
    // The probe's own device number: HIP's device id (the probe hides no device:
    // HIP_VISIBLE_DEVICES and ROCR_VISIBLE_DEVICES are unset for it) and NVML's index. The
    // CUDA probe's number is CUDA's fastest-first order, which no plan uses (plans set
    // CUDA_DEVICE_ORDER=PCI_BUS_ID and number by the bus ids every probe reads).
    const char* api = name == "hip" ? kApiHip : name == "nvml" ? kApiNvml : nullptr;
    if (const auto index = integer(d, "index");
        api && index && *index >= 0 && *index <= kMaxApiIndex)
        g.indices[api] = static_cast<int>(*index);
    g.sources = {std::string(name)};
    return g;
}

// The HIP runtime that answered (ROCm on Linux, the driver's or the HIP SDK's amdhip64 on
// Windows) or the CUDA driver version.
std::optional<RuntimeInfo> runtimeFromProbe(const json& j, std::string_view name, bool amd,
                                            const std::optional<std::string>& library)
{
    RuntimeInfo r;
    r.path = library.value_or("");
    r.extra["source"] = std::string(name);
    if (amd) {
        const auto version = str(j, "runtime_version", 32);
        if (!version && !library)
            return std::nullopt;
        r.kind = str(j, "platform", 16).value_or("") == "windows" ? "hip-runtime" : "rocm";
        r.version = version.value_or("");
        if (const auto drv = str(j, "driver_version", 32))
            r.extra["driver_version"] = *drv;
        return r;
    }
    const auto version = name == "nvml" ? str(j, "cuda_version", 32) : str(j, "driver_version", 32);
    if (!version)
        return std::nullopt;
    r.kind = "cuda-driver";
    r.version = *version;
    if (name == "nvml") {
        if (const auto drv = str(j, "driver_version", 32))
            r.extra["driver_version"] = *drv;
    }
    return r;
}

} // namespace

ParsedProbe parseProbeJson(std::string_view name, std::string_view text)
{
    ParsedProbe out;
    out.probe.name = std::string(name);
    out.probe.status = ProbeStatus::Failed;

    // Vendor libraries sometimes print to stdout before the probe does; its JSON
    // is the last line that starts with '{'.
    std::string_view candidate;
    for (std::string_view line : splitLines(text)) {
        line = trim(line);
        if (!line.empty() && line.front() == '{')
            candidate = line;
    }
    const json j = json::parse(candidate.begin(), candidate.end(), nullptr, false);
    if (candidate.empty() || j.is_discarded() || !j.is_object()) {
        out.probe.detail = "malformed probe output: " + clip(text, 120);
        return out;
    }
    const auto status = str(j, "status", 16);
    const auto parsedStatus = status ? probeStatusFromString(*status) : std::nullopt;
    if (!parsedStatus || *parsedStatus == ProbeStatus::Timeout ||
        *parsedStatus == ProbeStatus::Crashed) {
        out.probe.detail = "malformed probe output: bad status";
        return out;
    }
    out.probe.status = *parsedStatus;
    out.probe.detail = str(j, "detail", 300).value_or("");
    const auto library = str(j, "library", 1024);
    if (library)
        out.probe.extra["library"] = *library;
    if (const auto code = integer(j, "error_code"))
        out.probe.extra["error_code"] = *code;

    const bool amd = name == "hip";
    if (const auto it = j.find("devices"); it != j.end() && it->is_array()) {
        for (const json& d : *it) {
            if (d.is_object() && out.gpus.size() < 64)
                out.gpus.push_back(gpuFromProbe(d, j, name, amd));
        }
    }
    if (auto r = runtimeFromProbe(j, name, amd, library))
        out.runtimes.push_back(std::move(*r));
    return out;
}

} // namespace sp
