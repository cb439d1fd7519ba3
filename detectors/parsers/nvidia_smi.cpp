#include "core/gpu_indices.h"
#include "detectors/parsers/tool_parsers.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace sp {

using namespace parse_util;

namespace {

bool available(std::string_view v)
{
    const std::string l = lower(trim(v));
    return !l.empty() && l != "[n/a]" && l != "n/a" && l.find("not supported") == std::string::npos;
}

enum class Col
{
    Name,
    Bus,
    Memory,
    ComputeCap,
    Driver,
    DeviceId,
    Index,
    Other
};

// "memory.total [MiB]" -> Memory; nullopt when the text is no query field name.
std::optional<Col> columnFromHeader(std::string_view h)
{
    h = trim(h);
    if (const auto unit = h.find(" ["); unit != std::string_view::npos)
        h = h.substr(0, unit);
    if (h.empty() || !std::islower(static_cast<unsigned char>(h.front())))
        return std::nullopt;
    for (char c : h) {
        if (!std::islower(static_cast<unsigned char>(c)) &&
            !std::isdigit(static_cast<unsigned char>(c)) && c != '_' && c != '.')
            return std::nullopt;
    }
    if (h == "name" || h == "gpu_name")
        return Col::Name;
    if (h == "pci.bus_id" || h == "gpu_bus_id")
        return Col::Bus;
    if (h == "memory.total")
        return Col::Memory;
    if (h == "compute_cap")
        return Col::ComputeCap;
    if (h == "driver_version")
        return Col::Driver;
    if (h == "pci.device_id")
        return Col::DeviceId;
    if (h == "index")
        return Col::Index; // NVML's number for the GPU, as nvidia-smi prints it

    return Col::Other;
}

// "0x220410DE" (device << 16 | vendor) -> "10de:2204".
std::string pciIdFromDeviceId(std::string_view v)
{
    const auto n = hexNumber(v, 8);
    if (!n || (*n & 0xffff) != 0x10de || (*n >> 16) == 0)
        return {};
    return "10de:" + hex(*n >> 16, 4);
}

bool looksLikeDriverVersion(std::string_view v)
{
    v = trim(v);
    const auto dot = v.find('.');
    if (dot == std::string_view::npos || dot < 2 || v.size() > 16)
        return false;
    return std::all_of(v.begin(), v.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
    });
}

bool mentionsNvidiaProduct(std::string_view v)
{
    const std::string l = lower(v);
    for (const char* w : {"nvidia", "geforce", "tesla", "quadro", "titan", "rtx", "gtx"})
        if (l.find(w) != std::string::npos)
            return true;
    return false;
}

struct Row
{
    std::string name, bus, cc, driver, pciId;
    std::optional<std::int64_t> memMb;
    std::optional<int> index;
};

void setColumn(Row& r, Col c, std::string_view f)
{
    switch (c) {
    case Col::Name:
        r.name = clip(f);
        break;
    case Col::Bus:
        r.bus = busFromNvidia(f);
        break;
    case Col::Memory:
        if (available(f)) {
            if (const auto mb = leadingInt(f); mb && *mb > 0 && *mb < (1LL << 30))
                r.memMb = *mb;
        }
        break;
    case Col::ComputeCap:
        if (looksLikeComputeCap(f))
            r.cc = std::string(trim(f));
        break;
    case Col::Driver:
        if (available(f))
            r.driver = clip(f, 32);
        break;
    case Col::DeviceId:
        r.pciId = pciIdFromDeviceId(f);
        break;
    case Col::Index:
        if (const auto n = leadingInt(f); n && *n >= 0 && *n <= kMaxApiIndex && trim(f).size() <= 3)
            r.index = int(*n);
        break;
    case Col::Other:
        break;
    }
}

// A row of a query printed without its header and not in the caller's column order:
// each field is recognised by its shape. Only rows with a product name or a bus and
// another recognised field count, so prose with commas is not taken for a GPU.
std::optional<Row> rowByShape(const std::vector<std::string_view>& f)
{
    Row r;
    int typed = 0;
    for (std::string_view v : f) {
        if (const std::string bus = busFromNvidia(v); !bus.empty() && r.bus.empty()) {
            r.bus = bus;
            ++typed;
        } else if (const std::string id = pciIdFromDeviceId(v); !id.empty() && r.pciId.empty()) {
            r.pciId = id;
            ++typed;
        } else if (lower(trim(v)).find("mib") != std::string::npos && !r.memMb) {
            setColumn(r, Col::Memory, v);
            typed += r.memMb ? 1 : 0;
        } else if (looksLikeComputeCap(v) && r.cc.empty()) {
            r.cc = std::string(trim(v));
            ++typed;
        } else if (looksLikeDriverVersion(v) && r.driver.empty()) {
            r.driver = clip(v, 32);
        } else if (mentionsNvidiaProduct(v) && r.name.empty()) {
            r.name = clip(v);
        }
    }
    if ((!r.name.empty() && typed >= 1) || (!r.bus.empty() && typed >= 2))
        return r;
    return std::nullopt;
}

std::vector<std::string_view> splitFields(std::string_view line)
{
    std::vector<std::string_view> f;
    while (f.size() < 32) {
        const auto comma = line.find(',');
        f.push_back(trim(line.substr(0, comma)));
        if (comma == std::string_view::npos)
            break;
        line.remove_prefix(comma + 1);
    }
    return f;
}

std::optional<std::vector<Col>> headerColumns(const std::vector<std::string_view>& f)
{
    std::vector<Col> cols;
    bool known = false;
    for (std::string_view h : f) {
        const auto c = columnFromHeader(h);
        if (!c)
            return std::nullopt;
        known = known || *c != Col::Other;
        cols.push_back(*c);
    }
    if (!known)
        return std::nullopt;
    return cols;
}

GpuInfo gpuFromRow(const Row& r)
{
    GpuInfo g;
    g.vendor = Vendor::Nvidia;
    g.name = r.name;
    g.pciBus = r.bus;
    g.pciId = r.pciId;
    g.vramMb = r.memMb;
    if (!r.cc.empty())
        g.computeCapability = r.cc;
    if (!r.driver.empty())
        g.driverVersion = r.driver;
    if (r.index)
        g.indices[kApiNvml] = *r.index;
    g.sources = {"nvidia-smi"};
    return g;
}
} // namespace

ParsedProbe parseNvidiaSmiCsv(std::string_view text, int exitCode, bool withComputeCap)
{
    ParsedProbe out;
    out.probe.name = "nvidia-smi";
    out.probe.status = ProbeStatus::Failed;
    // The column order detection asks for (see probe_runner.cpp), used for rows that come
    // without a header.
    std::vector<Col> expected = {Col::Name, Col::Bus, Col::Memory, Col::ComputeCap, Col::Driver};
    if (!withComputeCap)
        expected.erase(expected.begin() + 3);

    std::optional<std::vector<Col>> header;
    std::string firstOther, driver;
    for (std::string_view raw : cleanLines(text)) {
        const std::string_view line = trim(raw);
        if (line.empty())
            continue;
        const std::vector<std::string_view> f = splitFields(line);
        if (auto h = headerColumns(f)) {
            header = std::move(h);
            continue;
        }
        std::optional<Row> row;
        if (header && f.size() == header->size()) {
            row.emplace();
            for (std::size_t i = 0; i < f.size(); ++i)
                setColumn(*row, (*header)[i], f[i]);
            if (row->name.empty() && row->bus.empty() && row->cc.empty() && row->pciId.empty())
                row.reset();
        } else if (f.size() == expected.size() && !busFromNvidia(f[1]).empty()) {
            row.emplace();
            for (std::size_t i = 0; i < f.size(); ++i)
                setColumn(*row, expected[i], f[i]);
        } else if (f.size() >= 2) {
            row = rowByShape(f);
        }
        if (!row) {
            // Not a data row: "No devices were found", "NVIDIA-SMI has failed ...".
            if (firstOther.empty())
                firstOther = std::string(line);
            continue;
        }
        if (!row->driver.empty())
            driver = row->driver;
        if (out.gpus.size() < kMaxParsedGpus)
            out.gpus.push_back(gpuFromRow(*row));
    }

    if (!out.gpus.empty()) {
        out.probe.status = ProbeStatus::Ok;
        out.probe.detail = std::to_string(out.gpus.size()) + " device(s)";
        if (!driver.empty())
            out.probe.extra["driver_version"] = driver;
    } else {
        const std::string why = firstOther.empty() && exitCode != 0
                                    ? "exit code " + std::to_string(exitCode)
                                    : clip(firstOther);
        out.probe.detail = why.empty() ? "no device" : "no device: " + why;
    }
    out.probe.extra["exit_code"] = exitCode;
    return out;
}

} // namespace sp
