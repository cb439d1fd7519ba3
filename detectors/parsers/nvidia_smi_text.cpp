// nvidia-smi's human forms, as users paste them: the default table, `-q` and `-L`.
// Detection runs the CSV query instead (nvidia_smi.cpp); these read what a user saw.

#include "core/gpu_indices.h"
#include "detectors/parsers/tool_parsers.h"

#include <cctype>

namespace sp {

using namespace parse_util;

namespace {

// The value after `label` up to the next run of two spaces or a '|':
// "Driver Version: 531.14       CUDA Version: 12.1" -> "531.14".
std::string valueAfter(std::string_view line, std::string_view label)
{
    const auto at = line.find(label);
    if (at == std::string_view::npos)
        return {};
    std::string_view v = trim(line.substr(at + label.size()));
    const auto end = std::min(v.find("  "), v.find('|'));
    return clip(trim(v.substr(0, end)), 32);
}

// Driver versions from the table's header, by their labels before and after R610 (which
// renamed "Driver Version" to "KMD Version" and "CUDA Version" to "CUDA UMD Version").
std::string headerValue(std::string_view line, std::string_view label, std::string_view r610)
{
    std::string v = valueAfter(line, label);
    return v.empty() ? valueAfter(line, r610) : v;
}

// The GPU's NVML index heading a table row's first cell ("   1  NVIDIA GeForce RTX 3060"),
// where a name follows it.
std::optional<int> gpuIndex(std::string_view cell)
{
    cell = trim(cell);
    std::size_t i = 0;
    while (i < cell.size() && std::isdigit(static_cast<unsigned char>(cell[i])))
        ++i;
    if (i == 0 || i > 3 || i + 1 >= cell.size() || cell[i] != ' ')
        return std::nullopt;
    return static_cast<int>(*leadingInt(cell.substr(0, i)));
}

std::vector<std::string_view> cells(std::string_view line)
{
    std::vector<std::string_view> out;
    line = trim(line);
    if (line.empty() || line.front() != '|')
        return out;
    line.remove_prefix(1);
    while (!line.empty() && out.size() < 8) {
        const auto bar = line.find('|');
        out.push_back(line.substr(0, bar));
        if (bar == std::string_view::npos)
            break;
        line.remove_prefix(bar + 1);
    }
    return out;
}

// "   0  NVIDIA GeForce GTX 1080 Ti    WDDM " -> "NVIDIA GeForce GTX 1080 Ti"; the table
// cuts long names with "...", which is kept out of the name and noted.
void nameFromCell(std::string_view cell, GpuInfo& g)
{
    cell = trim(cell);
    std::size_t i = 0;
    while (i < cell.size() && std::isdigit(static_cast<unsigned char>(cell[i])))
        ++i;
    std::string_view name = trim(cell.substr(i));
    for (const char* flag : {"WDDM", "TCC", "Off", "On", "N/A"}) {
        const std::string_view f(flag);
        if (name.size() > f.size() && name.substr(name.size() - f.size()) == f &&
            name[name.size() - f.size() - 1] == ' ') {
            name = trim(name.substr(0, name.size() - f.size()));
            break;
        }
    }
    if (name.size() >= 3 && name.substr(name.size() - 3) == "...") {
        name = trim(name.substr(0, name.size() - 3));
        g.extra["name_truncated"] = true;
    }
    g.name = clip(name);
}

// "|   1585MiB / 11264MiB |" -> 11264
std::optional<std::int64_t> totalMib(std::string_view cell)
{
    const auto slash = cell.find('/');
    if (slash == std::string_view::npos || cell.find("MiB") == std::string_view::npos)
        return std::nullopt;
    const auto mb = leadingInt(cell.substr(slash + 1));
    if (!mb || *mb <= 0 || *mb >= (1LL << 30))
        return std::nullopt;
    return *mb;
}

// "00000000:01:00.0", "03F8F31A:00:00.0": the bus id heading a GPU in `-q`.
bool isBusId(std::string_view v)
{
    const auto c1 = v.find(':');
    const auto c2 = c1 == std::string_view::npos ? c1 : v.find(':', c1 + 1);
    const auto dot = c2 == std::string_view::npos ? c2 : v.find('.', c2 + 1);
    if (dot == std::string_view::npos || c1 == 0 || c2 != c1 + 3 || dot != c2 + 3 ||
        v.size() != dot + 2)
        return false;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i != c1 && i != c2 && i != dot && !std::isxdigit(static_cast<unsigned char>(v[i])))
            return false;
    }
    return true;
}

GpuInfo nvidiaGpu()
{
    GpuInfo g;
    g.vendor = Vendor::Nvidia;
    g.sources = {"nvidia-smi"};
    return g;
}

void finish(ParsedProbe& out, const std::string& driver, const std::string& cuda)
{
    if (!driver.empty()) {
        out.probe.extra["driver_version"] = driver;
        for (auto& g : out.gpus)
            g.driverVersion = driver;
    }
    if (!cuda.empty()) {
        RuntimeInfo r;
        r.kind = "cuda-driver";
        r.version = cuda;
        if (!driver.empty())
            r.extra["driver_version"] = driver;
        r.extra["source"] = "nvidia-smi";
        out.runtimes.push_back(std::move(r));
    }
    out.probe.status = out.gpus.empty() ? ProbeStatus::Failed : ProbeStatus::Ok;
    out.probe.detail =
        out.gpus.empty() ? "no device" : std::to_string(out.gpus.size()) + " device(s)";
}

} // namespace

ParsedProbe parseNvidiaSmiTable(std::string_view text)
{
    ParsedProbe out;
    out.probe.name = "nvidia-smi";
    std::string driver, cuda;
    bool table = false; // the table's header was seen
    bool last = false;  // the previous row opened a GPU: its memory row follows
    for (std::string_view line : cleanLines(text)) {
        if (line.find("NVIDIA-SMI") != std::string_view::npos) {
            driver = headerValue(line, "Driver Version:", "KMD Version:");
            cuda = headerValue(line, "CUDA Version:", "CUDA UMD Version:");
            table = true;
            continue;
        }
        table = table || line.find("Bus-Id") != std::string_view::npos;
        const auto c = cells(line);
        if (c.size() >= 2) {
            const std::string_view second = trim(c[1]);
            const std::string_view first = second.substr(0, second.find(' '));
            const std::string bus = busFromNvidia(first);
            // A Jetson's integrated GPU has no PCI bus: "|   0  Orin (nvgpu)  N/A  | N/A  N/A |".
            const bool busless = bus.empty() && table && first == "N/A" && gpuIndex(c[0]);
            if ((!bus.empty() || busless) && out.gpus.size() < kMaxParsedGpus) {
                GpuInfo g = nvidiaGpu();
                g.pciBus = bus;
                nameFromCell(c[0], g);
                if (const auto index = gpuIndex(c[0]))
                    g.indices[kApiNvml] = *index;
                if (busless)
                    g.integrated = true;
                out.gpus.push_back(std::move(g));
                last = true;
                continue;
            }
            if (last) {
                out.gpus.back().vramMb = totalMib(c[1]);
                last = false;
            }
        }
    }
    finish(out, driver, cuda);
    return out;
}

ParsedProbe parseNvidiaSmiQuery(std::string_view text)
{
    ParsedProbe out;
    out.probe.name = "nvidia-smi";
    std::string driver, cuda;
    bool open = false, fbMemory = false;
    auto current = [&]() -> GpuInfo& {
        if (!open) {
            out.gpus.push_back(nvidiaGpu());
            open = true;
        }
        return out.gpus.back();
    };
    for (std::string_view raw : cleanLines(text)) {
        const std::string_view line = trim(raw);
        if (out.gpus.size() >= kMaxParsedGpus)
            break;
        if (line.substr(0, 4) == "GPU " && isBusId(trim(line.substr(4)))) {
            open = false;
            current().pciBus = busFromNvidia(line.substr(4)); // empty: a domain wider than 16 bits
            fbMemory = false;
            continue;
        }
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) {
            fbMemory = line == "FB Memory Usage";
            continue;
        }
        const std::string_view key = trim(line.substr(0, colon));
        const std::string_view value = trim(line.substr(colon + 1));
        if (key == "Driver Version")
            driver = clip(value, 32);
        else if (key == "CUDA Version")
            cuda = clip(value, 32);
        else if (key == "Product Name") {
            if (open && !out.gpus.back().name.empty())
                open = false; // a window that lost the "GPU ..." line of the next GPU
            current().name = clip(value);
        } else if (key == "Product Architecture")
            current().extra["architecture"] = clip(value, 32);
        else if (key == "Device Id") {
            const auto id = hexNumber(value, 8);
            if (id && (*id & 0xffff) == 0x10de && (*id >> 16) != 0)
                current().pciId = "10de:" + hex(*id >> 16, 4);
        } else if (key == "Bus Id" && open && out.gpus.back().pciBus.empty())
            out.gpus.back().pciBus = busFromNvidia(value);
        else if (key == "Total" && fbMemory && open) {
            if (const auto mb = leadingInt(value); mb && *mb > 0 && *mb < (1LL << 30))
                out.gpus.back().vramMb = *mb;
            fbMemory = false;
        }
    }
    finish(out, driver, cuda);
    return out;
}

ParsedProbe parseNvidiaSmiList(std::string_view text)
{
    ParsedProbe out;
    out.probe.name = "nvidia-smi";
    for (std::string_view raw : cleanLines(text)) {
        const std::string_view line = trim(raw);
        // "GPU 0: NVIDIA TITAN V (UUID: GPU-b5169cef-...)"
        if (line.substr(0, 4) != "GPU " || !leadingInt(line.substr(4)))
            continue;
        const auto colon = line.find(": ");
        const auto uuid = line.find(" (UUID: ");
        if (colon == std::string_view::npos || uuid == std::string_view::npos || uuid < colon)
            continue;
        if (out.gpus.size() >= kMaxParsedGpus)
            break;
        GpuInfo g = nvidiaGpu();
        g.name = clip(line.substr(colon + 2, uuid - colon - 2));
        if (const auto index = leadingInt(line.substr(4)); index && *index <= kMaxApiIndex)
            g.indices[kApiNvml] = static_cast<int>(*index);
        out.gpus.push_back(std::move(g));
    }
    finish(out, {}, {});
    return out;
}

} // namespace sp
