#include "detectors/parsers/kfd_properties.h"

#include <algorithm>
#include <charconv>
#include <system_error>

namespace sp {

using namespace parse_util;

namespace {

std::optional<std::uint64_t> decimal(std::string_view s)
{
    s = trim(s);
    if (s.empty())
        return std::nullopt;
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

bool isKeyChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

struct KfdLine
{
    std::string_view file; // "/sys/…/nodes/1/properties" of a grep -H line, else empty
    std::string_view key, value;
    bool header = false; // rocprofv3-avail's "GPU:0"
};

std::optional<KfdLine> splitLine(std::string_view t)
{
    KfdLine l;
    t = trim(t);
    for (std::string_view h : {"GPU:", "CPU:"}) {
        if (t.substr(0, 4) == h && t.size() > 4 && decimal(t.substr(4))) {
            l.header = true;
            return l;
        }
    }
    // grep -H: "/sys/class/kfd/kfd/topology/nodes/1/properties:gfx_target_version 100301"
    if (const auto p = t.find("properties:");
        p != std::string_view::npos && t.substr(0, p).find(' ') == std::string_view::npos) {
        l.file = t.substr(0, p + 10);
        t = t.substr(p + 11);
    }
    std::size_t n = 0;
    while (n < t.size() && isKeyChar(t[n]))
        ++n;
    if (n == 0 || !(t[0] >= 'a' && t[0] <= 'z') || n == t.size() ||
        (t[n] != ' ' && t[n] != '\t' && t[n] != ':'))
        return std::nullopt;
    l.key = t.substr(0, n);
    std::string_view rest = trim(t.substr(n));
    if (!rest.empty() && rest.front() == ':') // rocprofv3-avail: "simd_count   : 240"
        rest = trim(rest.substr(1));
    if (rest.empty())
        return std::nullopt;
    l.value = rest;
    return l;
}

// Applies a known key; false for keys this reader does not keep (or bad values).
bool apply(KfdProperties& p, std::string_view key, std::string_view value)
{
    if (key == "name" || key == "product_name") {
        std::string& into = key == "name" ? p.name : p.productName;
        if (!into.empty() || (key == "name" && gfxFromTarget(value).empty()))
            return false;
        into = clip(value, 64);
        return true;
    }
    const auto v = decimal(value);
    if (!v)
        return false;
    if (key == "gfx_target_version")
        p.gfxTargetVersion = *v;
    else if (key == "vendor_id" && *v <= 0xffff)
        p.vendorId = std::uint32_t(*v);
    else if (key == "device_id" && *v <= 0xffff)
        p.deviceId = std::uint32_t(*v);
    else if (key == "unique_id" && *v != 0)
        p.uniqueId = *v;
    else if (key == "location_id" && *v <= 0xffffffffu)
        p.locationId = std::uint32_t(*v);
    else if (key == "domain" && *v <= 0xffffffffu)
        p.domain = std::uint32_t(*v);
    else if (key == "simd_count")
        p.simdCount = *v;
    else if (key == "simd_per_cu")
        p.simdPerCu = *v;
    else if (key == "node_id" && *v < 1024)
        p.nodeId = int(*v);
    else if (key == "cpu_cores_count")
        return true; // kept only to see where the next node of a dump starts
    else
        return false;
    return true;
}

// One node per line, as scripts summarise the topology: "node 1: name='gfx1100'
// gfx_target_version=110000 (GPU)". Values may be quoted; a trailing "(GPU)"/"(CPU)" or any
// other word without '=' is ignored. nullopt when the line is not of that form or names no
// key this reader keeps.
std::optional<KfdProperties> summaryLine(std::string_view t)
{
    t = trim(t);
    if (t.substr(0, 5) != "node ")
        return std::nullopt;
    const auto colon = t.find(':');
    const auto id =
        colon == std::string_view::npos ? std::nullopt : decimal(t.substr(5, colon - 5));
    if (!id || *id >= 1024)
        return std::nullopt;
    KfdProperties p;
    p.nodeId = int(*id);
    bool any = false;
    std::string_view rest = t.substr(colon + 1);
    while (!(rest = trim(rest)).empty()) {
        const auto eq = rest.find('=');
        const auto space = rest.find(' ');
        if (eq == std::string_view::npos || (space != std::string_view::npos && space < eq)) {
            rest = space == std::string_view::npos ? std::string_view() : rest.substr(space);
            continue; // "(GPU)"
        }
        const std::string_view key = rest.substr(0, eq);
        rest.remove_prefix(eq + 1);
        std::string_view value;
        if (!rest.empty() && (rest.front() == '\'' || rest.front() == '"')) {
            const auto close = rest.find(rest.front(), 1);
            value = rest.substr(1, close == std::string_view::npos ? rest.npos : close - 1);
            rest = close == std::string_view::npos ? std::string_view() : rest.substr(close + 1);
        } else {
            const auto end = rest.find(' ');
            value = rest.substr(0, end);
            rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
        }
        any = apply(p, key, value) || any;
    }
    return any ? std::optional<KfdProperties>(p) : std::nullopt;
}

GpuInfo gpuFromNode(const KfdProperties& p, const std::string& gfx)
{
    GpuInfo g;
    g.vendor = p.vendorId ? vendorFromPciId(p.vendorId) : Vendor::Amd;
    g.gfx = gfx;
    g.name = p.productName;
    if (p.deviceId)
        g.pciId = hex(p.vendorId ? p.vendorId : 0x1002, 4) + ":" + hex(p.deviceId, 4);
    if (p.simdPerCu > 0 && p.simdCount / p.simdPerCu < 100000)
        g.computeUnits = int(p.simdCount / p.simdPerCu);
    if (p.locationId && *p.locationId <= 0xffff && p.domain && *p.domain <= 0xffff) {
        const auto loc = *p.locationId;
        g.pciBus = hex(*p.domain, 4) + ":" + hex(loc >> 8, 2) + ":" + hex((loc >> 3) & 0x1f, 2) +
                   "." + hex(loc & 7, 1);
    }
    if (p.nodeId)
        g.kfdNode = *p.nodeId;
    g.sources = {p.dumpHeader ? "rocprofv3-avail" : "kfd-properties"};
    return g;
}

} // namespace

std::vector<KfdProperties> parseKfdNodes(std::string_view text)
{
    std::vector<KfdProperties> nodes;
    std::vector<std::string_view> seen; // keys of the current node
    std::string_view file;
    bool open = false;
    auto openNode = [&](bool header) {
        if (nodes.size() >= kMaxParsedGpus)
            return false;
        nodes.emplace_back();
        nodes.back().dumpHeader = header;
        seen.clear();
        open = true;
        return true;
    };
    for (std::string_view raw : cleanLines(text)) {
        if (auto summary = summaryLine(raw)) {
            if (!openNode(false))
                break;
            nodes.back() = std::move(*summary);
            open = false; // a summary line is a whole node: the next line starts another
            continue;
        }
        const auto l = splitLine(raw);
        if (!l)
            continue;
        if (l->header) {
            if (!openNode(true))
                break;
            continue;
        }
        const bool repeated = std::find(seen.begin(), seen.end(), l->key) != seen.end();
        const bool otherFile = !l->file.empty() && !file.empty() && l->file != file;
        KfdProperties trial = open ? nodes.back() : KfdProperties{};
        if (!apply(trial, l->key, l->value))
            continue;
        if (!open || repeated || otherFile) {
            const bool header = open && nodes.back().dumpHeader && !repeated;
            if (!openNode(header))
                break;
            apply(nodes.back(), l->key, l->value);
        } else {
            nodes.back() = std::move(trial);
        }
        seen.push_back(l->key);
        if (!l->file.empty())
            file = l->file;
    }
    return nodes;
}

KfdProperties parseKfdProperties(std::string_view text)
{
    auto nodes = parseKfdNodes(text);
    return nodes.empty() ? KfdProperties{} : std::move(nodes.front());
}

std::optional<std::string> gfxFromTargetVersion(std::uint64_t version)
{
    const std::string gfx = gfxFromVersion(static_cast<long long>(version / 10000),
                                           static_cast<long long>((version / 100) % 100),
                                           static_cast<long long>(version % 100));
    if (gfx.empty() || version / 10000 > 99)
        return std::nullopt;
    return gfx;
}

ParsedProbe parseKfdText(std::string_view text)
{
    ParsedProbe out;
    out.probe.name = "kfd-properties";
    for (const KfdProperties& p : parseKfdNodes(text)) {
        std::string gfx = gfxFromTargetVersion(p.gfxTargetVersion).value_or("");
        if (gfx.empty())
            gfx = gfxFromTarget(p.name);
        if (!gfx.empty())
            out.gpus.push_back(gpuFromNode(p, gfx));
    }
    out.probe.status = out.gpus.empty() ? ProbeStatus::Failed : ProbeStatus::Ok;
    out.probe.detail =
        out.gpus.empty() ? "no device" : std::to_string(out.gpus.size()) + " GPU node(s)";
    return out;
}

} // namespace sp
