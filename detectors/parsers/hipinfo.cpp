#include "core/gpu_indices.h"
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
    std::optional<long long> bus, dev, domain, cus, integrated, gcnArch;
    std::optional<std::int64_t> vramMb;
    std::optional<long long> number; // "device#  1": the HIP device id
};

// Keys only hipInfo prints: they open a device where the paste has no "device#" line.
bool isHipinfoKey(std::string_view key)
{
    for (const char* k : {"gcnArchName", "gcnArch", "pciBusID", "pciDeviceID", "pciDomainID",
                          "multiProcessorCount", "totalGlobalMem", "isIntegrated", "integrated",
                          "maxThreadsPerMultiProcessor", "clockRate", "memoryClockRate"})
        if (key == k)
            return true;
    return false;
}

// "Gfx Major/Minor/Stepping: 10/3/1", a line the HIP runtime logs per device with
// AMD_LOG_LEVEL >= 3, often interleaved with hipInfo's own lines.
std::string gfxFromTraceLine(std::string_view line)
{
    constexpr std::string_view kMark = "Gfx Major/Minor/Stepping:";
    const auto at = line.find(kMark);
    if (at == std::string_view::npos)
        return {};
    std::string_view rest = trim(line.substr(at + kMark.size()));
    long long parts[3] = {-1, -1, -1};
    for (auto& p : parts) {
        const auto v = leadingInt(rest);
        if (!v)
            return {};
        p = *v;
        const auto slash = rest.find('/');
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    }
    return gfxFromVersion(parts[0], parts[1], parts[2]);
}

// At most kMaxParsedGpus devices and as many traces: once either is full, the rest of
// the text is not read.
class DeviceScanner
{
public:
    void line(std::string_view raw)
    {
        if (m_full)
            return;
        const std::string_view t = trim(raw);
        if (t.substr(0, 7) == "device#") {
            if (openDevice()) {
                m_explicit = true;
                m_devices.back().number = leadingInt(trim(t.substr(7)));
            }
            return;
        }
        if (std::string gfx = gfxFromTraceLine(t); !gfx.empty()) {
            if (m_traces.size() >= kMaxParsedGpus)
                m_full = true;
            else
                m_traces.push_back(std::move(gfx));
            return;
        }
        noteError(t);
        const auto colon = t.find(':');
        if (colon != std::string_view::npos)
            field(trim(t.substr(0, colon)), trim(t.substr(colon + 1)));
    }

    std::vector<Device>& devices() { return m_devices; }
    const std::vector<std::string>& traces() const { return m_traces; }
    const std::string& errorLine() const { return m_error; }

private:
    bool openDevice()
    {
        if (m_devices.size() >= kMaxParsedGpus) {
            m_full = true;
            m_open = false;
            return false;
        }
        m_devices.emplace_back();
        m_open = true;
        return true;
    }

    void noteError(std::string_view t)
    {
        if (!m_error.empty())
            return;
        const std::string l = lower(t);
        for (const char* w : {"error", "no device", "failed"}) {
            if (l.find(w) != std::string::npos) {
                m_error = std::string(t);
                return;
            }
        }
    }

    // Without "device#" lines a repeated key starts the next device (a grep of
    // "gcnArchName" lists one line per device).
    Device& deviceFor(bool alreadySet)
    {
        if (!m_open || (!m_explicit && alreadySet)) {
            if (!openDevice())
                return m_spare;
            m_devices.back().name = std::move(m_pendingName);
            m_pendingName.clear();
            m_explicit = false;
        }
        return m_devices.back();
    }

    void field(std::string_view key, std::string_view value)
    {
        if (key == "Name") {
            if (m_open && m_devices.back().name.empty()) {
                m_devices.back().name = value;
            } else if (!m_open || !m_explicit) {
                m_open = false; // kept until a hipInfo key shows it names a device
                m_pendingName = value;
            }
            return;
        }
        if (!isHipinfoKey(key))
            return;
        if (key == "gcnArchName") {
            Device& d = deviceFor(!m_devices.empty() && !m_devices.back().arch.empty());
            if (d.arch.empty())
                d.arch = value;
            return;
        }
        Device& d = deviceFor(false);
        if (key == "pciBusID")
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
        else if (key == "gcnArch") // older hipInfo: "gcnArch: 906"
            d.gcnArch = leadingInt(value);
    }

    std::vector<Device> m_devices;
    Device m_spare; // written to, never read, once the scanner is full
    std::vector<std::string> m_traces;
    std::string m_pendingName, m_error;
    bool m_open = false, m_explicit = false, m_full = false;
};

std::string deviceGfx(const Device& d)
{
    std::string gfx = gfxFromTarget(d.arch);
    if (gfx.empty() && d.gcnArch && *d.gcnArch >= 600 && *d.gcnArch < 100000)
        gfx = gfxFromTarget("gfx" + std::to_string(*d.gcnArch));
    return gfx;
}

GpuInfo hipinfoGpu(const Device& d, const std::string& gfx)
{
    GpuInfo g;
    g.vendor = Vendor::Amd;
    g.name = clip(d.name);
    if (!gfx.empty())
        g.gfx = gfx;
    if (auto id =
            deviceIdFromPlaceholder(d.name)) { // hipInfo's name for unnamed ids: "Device 687f"
        char s[16];
        std::snprintf(s, sizeof s, "1002:%04x", static_cast<unsigned>(*id));
        g.pciId = s;
    }
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
    if (d.number && *d.number >= 0 && *d.number <= kMaxApiIndex)
        g.indices[kApiHip] = static_cast<int>(*d.number);
    return g;
}

} // namespace

ParsedProbe parseHipinfo(std::string_view text, int exitCode)
{
    ParsedProbe out;
    out.probe.name = "hipinfo";
    out.probe.status = ProbeStatus::Failed;

    DeviceScanner scanner;
    for (std::string_view line : cleanLines(text))
        scanner.line(line);

    // Devices without an arch line take the runtime's logged targets in order; with no
    // device lines at all, each logged target is one GPU.
    std::size_t trace = 0;
    const auto& traces = scanner.traces();
    for (const Device& d : scanner.devices()) {
        std::string gfx = deviceGfx(d);
        const bool logged = gfx.empty() && trace < traces.size();
        if (logged)
            gfx = traces[trace++];
        if ((gfx.empty() && d.name.empty()) || out.gpus.size() >= kMaxParsedGpus)
            continue;
        out.gpus.push_back(hipinfoGpu(d, gfx));
        if (logged) // the target is the runtime log's
            out.gpus.back().sources.push_back("amd-log");
    }
    if (scanner.devices().empty()) {
        for (const std::string& gfx : traces) {
            if (out.gpus.size() >= kMaxParsedGpus)
                break;
            GpuInfo g = hipinfoGpu(Device{}, gfx);
            g.sources = {"amd-log"};
            out.gpus.push_back(std::move(g));
        }
    }

    if (!out.gpus.empty()) {
        out.probe.status = ProbeStatus::Ok;
        out.probe.detail = std::to_string(out.gpus.size()) + " device(s)";
    } else {
        const std::string& errorLine = scanner.errorLine();
        std::string why = errorLine.empty() && exitCode != 0
                              ? "exit code " + std::to_string(exitCode)
                              : errorLine;
        out.probe.detail = why.empty() ? "no device" : "no device: " + clip(why);
    }
    out.probe.extra["exit_code"] = exitCode;
    return out;
}

} // namespace sp
