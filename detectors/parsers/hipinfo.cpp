#include "detectors/parsers/tool_parsers.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sp {

using namespace parse_util;

namespace {

// "11.98 GB", "12868124672", "8176 MB" -> MiB.
std::optional<std::int64_t> memoryMb(std::string_view value)
{
    value = trim(value);
    std::size_t n = 0;
    while (n < value.size() && n < 32 &&
           (std::isdigit(static_cast<unsigned char>(value[n])) || value[n] == '.'))
        ++n;
    if (n == 0)
        return std::nullopt;
    const std::string number(value.substr(0, n));
    char* end = nullptr;
    const double v = std::strtod(number.c_str(), &end);
    if (!std::isfinite(v) || v <= 0)
        return std::nullopt;
    const std::string unit = lower(trim(value.substr(n)));
    double mb = 0;
    if (unit.rfind("gb", 0) == 0 || unit.rfind("gib", 0) == 0)
        mb = v * 1024.0;
    else if (unit.rfind("mb", 0) == 0 || unit.rfind("mib", 0) == 0)
        mb = v;
    else if (unit.rfind("kb", 0) == 0)
        mb = v / 1024.0;
    else
        mb = v / (1024.0 * 1024.0); // plain bytes
    if (mb < 1 || mb > 1e9)
        return std::nullopt;
    return static_cast<std::int64_t>(std::llround(mb));
}

struct Device
{
    std::string name, arch;
    std::optional<long long> bus, dev, domain, cus, integrated;
    std::optional<std::int64_t> vramMb;
};

} // namespace

ParsedProbe parseHipinfo(std::string_view text, int exitCode)
{
    ParsedProbe out;
    out.probe.name = "hipinfo";
    out.probe.status = ProbeStatus::Failed;

    std::vector<Device> devices;
    const std::string errorLine = scanKeyValueBlocks(
        text,
        [&](std::string_view line) {
            if (line.substr(0, 7) != "device#")
                return false;
            devices.emplace_back();
            return true;
        },
        {"error", "no device", "failed"},
        [&](std::string_view key, std::string_view value) {
            Device& d = devices.back();
            if (key == "Name" && d.name.empty())
                d.name = value;
            else if (key == "gcnArchName" && d.arch.empty())
                d.arch = value;
            else if (key == "pciBusID")
                d.bus = leadingInt(value);
            else if (key == "pciDeviceID")
                d.dev = leadingInt(value);
            else if (key == "pciDomainID")
                d.domain = leadingInt(value);
            else if (key == "multiProcessorCount")
                d.cus = leadingInt(value);
            else if (key == "isIntegrated" || key == "integrated")
                d.integrated = leadingInt(value);
            else if (key == "totalGlobalMem")
                d.vramMb = memoryMb(value);
        });

    for (const Device& d : devices) {
        GpuInfo g;
        g.vendor = Vendor::Amd;
        g.name = clip(d.name);
        const std::string gfx = gfxFromTarget(d.arch);
        if (!gfx.empty())
            g.gfx = gfx;
        if (gfx.empty() && g.name.empty())
            continue;
        if (d.bus && d.dev && *d.bus >= 0 && *d.bus <= 0xff && *d.dev >= 0 && *d.dev <= 0x1f) {
            const long long dom = d.domain && *d.domain >= 0 && *d.domain <= 0xffff ? *d.domain : 0;
            char s[32];
            std::snprintf(s, sizeof s, "%04llx:%02llx:%02llx.0", dom, *d.bus, *d.dev);
            g.pciBus = s;
        }
        if (d.cus && *d.cus > 0 && *d.cus < 100000)
            g.computeUnits = static_cast<int>(*d.cus);
        if (d.integrated)
            g.integrated = *d.integrated != 0;
        g.vramMb = d.vramMb;
        if (!d.arch.empty() && d.arch.find(':') != std::string::npos)
            g.extra["gfx_target"] = clip(d.arch, 64);
        g.sources = {"hipinfo"};
        out.gpus.push_back(std::move(g));
    }

    if (!out.gpus.empty()) {
        out.probe.status = ProbeStatus::Ok;
        out.probe.detail = std::to_string(out.gpus.size()) + " device(s)";
    } else {
        std::string why = errorLine.empty() && exitCode != 0
                              ? "exit code " + std::to_string(exitCode)
                              : errorLine;
        out.probe.detail = why.empty() ? "no device" : "no device: " + clip(why);
    }
    out.probe.extra["exit_code"] = exitCode;
    return out;
}

} // namespace sp
