#include "core/snapshot.h"

#include "core/gpu_indices.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace sp {

using nlohmann::json;

std::string toString(Vendor v)
{
    switch (v) {
    case Vendor::Amd:
        return "amd";
    case Vendor::Nvidia:
        return "nvidia";
    case Vendor::Intel:
        return "intel";
    case Vendor::Other:
        break;
    }
    return "other";
}

Vendor vendorFromString(const std::string& s)
{
    if (s == "amd")
        return Vendor::Amd;
    if (s == "nvidia")
        return Vendor::Nvidia;
    if (s == "intel")
        return Vendor::Intel;
    return Vendor::Other;
}

Vendor vendorFromPciId(std::uint32_t pciVendor)
{
    switch (pciVendor) {
    case 0x1002:
        return Vendor::Amd;
    case 0x10de:
        return Vendor::Nvidia;
    case 0x8086:
        return Vendor::Intel;
    default:
        return Vendor::Other;
    }
}

std::string toString(ProbeStatus s)
{
    switch (s) {
    case ProbeStatus::Ok:
        return "ok";
    case ProbeStatus::Missing:
        return "missing";
    case ProbeStatus::Failed:
        return "failed";
    case ProbeStatus::Timeout:
        return "timeout";
    case ProbeStatus::Crashed:
        return "crashed";
    }
    return "failed";
}

std::optional<ProbeStatus> probeStatusFromString(const std::string& s)
{
    for (auto st : {ProbeStatus::Ok, ProbeStatus::Missing, ProbeStatus::Failed,
                    ProbeStatus::Timeout, ProbeStatus::Crashed}) {
        if (toString(st) == s)
            return st;
    }
    return std::nullopt;
}

bool isNetworkFilesystem(const std::string& fsType)
{
    static const char* const kNetwork[] = {"nfs",    "nfs4",        "cifs",       "smb3",
                                           "smbfs",  "unc",         "fuse.sshfs", "sshfs",
                                           "9p",     "afs",         "ceph",       "fuse.ceph",
                                           "lustre", "gpfs",        "glusterfs",  "fuse.glusterfs",
                                           "davfs",  "fuse.rclone", "network"};
    return std::any_of(std::begin(kNetwork), std::end(kNetwork),
                       [&](const char* n) { return fsType == n; });
}

namespace {

template <class T> void putOpt(json& j, const char* key, const std::optional<T>& v)
{
    if (v)
        j[key] = *v;
    else
        j[key] = nullptr;
}

void mergeExtra(json& j, const json& extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        if (!j.contains(it.key()))
            j[it.key()] = it.value();
    }
}

// Reads typed fields out of one JSON object and remembers which keys it consumed,
// so that whatever is left over is kept verbatim in `extra`.
class SnapshotReader
{
public:
    SnapshotReader(const json& j, std::string where, const std::string& origin)
        : m_j(j), m_where(std::move(where)), m_origin(origin)
    {
        if (!j.is_object())
            fail("", "expected an object");
    }

    std::string str(const char* key, bool required = false)
    {
        m_seen.push_back(key);
        auto it = m_j.find(key);
        if (it == m_j.end() || it->is_null()) {
            if (required)
                fail(key, "missing");
            return {};
        }
        if (!it->is_string()) {
            fail(key, "expected a string");
            return {};
        }
        return it->get<std::string>();
    }

    std::optional<std::string> optStr(const char* key)
    {
        m_seen.push_back(key);
        auto it = m_j.find(key);
        if (it == m_j.end() || it->is_null())
            return std::nullopt;
        if (!it->is_string()) {
            fail(key, "expected a string or null");
            return std::nullopt;
        }
        return it->get<std::string>();
    }

    template <class I> std::optional<I> optInt(const char* key)
    {
        m_seen.push_back(key);
        auto it = m_j.find(key);
        if (it == m_j.end() || it->is_null())
            return std::nullopt;
        if (!it->is_number_integer()) {
            fail(key, "expected an integer or null");
            return std::nullopt;
        }
        return it->get<I>();
    }

    std::optional<bool> optBool(const char* key)
    {
        m_seen.push_back(key);
        auto it = m_j.find(key);
        if (it == m_j.end() || it->is_null())
            return std::nullopt;
        if (!it->is_boolean()) {
            fail(key, "expected true, false or null");
            return std::nullopt;
        }
        return it->get<bool>();
    }

    const json* array(const char* key)
    {
        m_seen.push_back(key);
        auto it = m_j.find(key);
        if (it == m_j.end() || it->is_null())
            return nullptr;
        if (!it->is_array()) {
            fail(key, "expected an array");
            return nullptr;
        }
        return &*it;
    }

    const json* object(const char* key)
    {
        m_seen.push_back(key);
        auto it = m_j.find(key);
        if (it == m_j.end() || it->is_null())
            return nullptr;
        if (!it->is_object()) {
            fail(key, "expected an object");
            return nullptr;
        }
        return &*it;
    }

    json rest() const
    {
        json extra = json::object();
        if (!m_j.is_object())
            return extra;
        for (auto it = m_j.begin(); it != m_j.end(); ++it) {
            if (std::find(m_seen.begin(), m_seen.end(), it.key()) == m_seen.end())
                extra[it.key()] = it.value();
        }
        return extra;
    }

    std::string where(const char* key) const { return m_where + "/" + key; }
    const std::optional<Error>& error() const { return m_error; }

private:
    void fail(const std::string& key, const std::string& what)
    {
        if (!m_error)
            m_error = Error::invalid(m_origin + ": " + m_where + (key.empty() ? "" : "/" + key) +
                                     ": " + what);
    }

    const json& m_j;
    std::string m_where;
    const std::string& m_origin;
    std::vector<std::string> m_seen;
    std::optional<Error> m_error;
};

} // namespace

json toJson(const HardwareSnapshot& s)
{
    json j;
    j["schema"] = HardwareSnapshot::kSchema;
    j["os"] = {{"family", s.os.family}, {"version", s.os.version}};
    mergeExtra(j["os"], s.os.extra);
    j["home"] = {
        {"path", s.home.path}, {"filesystem", s.home.filesystem}, {"network", s.home.network}};
    mergeExtra(j["home"], s.home.extra);
    j["gpus"] = json::array();
    for (const auto& g : s.gpus) {
        json o;
        o["vendor"] = toString(g.vendor);
        o["name"] = g.name;
        o["pci_id"] = g.pciId;
        o["pci_revision"] = g.pciRevision;
        o["pci_bus"] = g.pciBus;
        putOpt(o, "gfx", g.gfx);
        putOpt(o, "compute_capability", g.computeCapability);
        putOpt(o, "vram_mb", g.vramMb);
        putOpt(o, "gtt_mb", g.gttMb);
        putOpt(o, "integrated", g.integrated);
        putOpt(o, "driver_version", g.driverVersion);
        putOpt(o, "compute_units", g.computeUnits);
        putOpt(o, "kfd_node", g.kfdNode);
        if (!g.indices.empty())
            o["indices"] = indicesToJson(g.indices);
        o["sources"] = g.sources;
        mergeExtra(o, g.extra);
        j["gpus"].push_back(std::move(o));
    }
    j["runtimes"] = json::array();
    for (const auto& r : s.runtimes) {
        json o = {{"kind", r.kind}, {"version", r.version}, {"path", r.path}};
        mergeExtra(o, r.extra);
        j["runtimes"].push_back(std::move(o));
    }
    j["probes"] = json::array();
    for (const auto& p : s.probes) {
        json o = {{"name", p.name}, {"status", toString(p.status)}, {"detail", p.detail}};
        mergeExtra(o, p.extra);
        j["probes"].push_back(std::move(o));
    }
    mergeExtra(j, s.extra);
    return j;
}

namespace {

Expected<GpuInfo> gpuFromJson(const json& j, const std::string& ptr, const std::string& origin)
{
    SnapshotReader r(j, ptr, origin);
    if (r.error())
        return *r.error();
    GpuInfo g;
    g.vendor = vendorFromString(r.str("vendor"));
    g.name = r.str("name");
    g.pciId = r.str("pci_id");
    g.pciRevision = r.str("pci_revision");
    g.pciBus = r.str("pci_bus");
    g.gfx = r.optStr("gfx");
    g.computeCapability = r.optStr("compute_capability");
    g.vramMb = r.optInt<std::int64_t>("vram_mb");
    g.gttMb = r.optInt<std::int64_t>("gtt_mb");
    g.integrated = r.optBool("integrated");
    g.driverVersion = r.optStr("driver_version");
    g.computeUnits = r.optInt<int>("compute_units");
    g.kfdNode = r.optInt<int>("kfd_node");
    if (const json* idx = r.object("indices")) {
        auto indices = indicesFromJson(*idx, origin + ": " + r.where("indices"));
        if (!indices)
            return indices.error();
        g.indices = std::move(*indices);
    }
    if (const json* src = r.array("sources")) {
        for (const auto& e : *src) {
            if (!e.is_string())
                return Error::invalid(origin + ": " + r.where("sources") + ": expected strings");
            g.sources.push_back(e.get<std::string>());
        }
    }
    g.extra = r.rest();
    if (r.error())
        return *r.error();
    return g;
}

Expected<RuntimeInfo> runtimeFromJson(const json& j, const std::string& ptr,
                                      const std::string& origin)
{
    SnapshotReader r(j, ptr, origin);
    if (r.error())
        return *r.error();
    RuntimeInfo rt;
    rt.kind = r.str("kind", true);
    rt.version = r.str("version");
    rt.path = r.str("path");
    rt.extra = r.rest();
    if (r.error())
        return *r.error();
    return rt;
}

Expected<ProbeResult> probeFromJson(const json& j, const std::string& ptr,
                                    const std::string& origin)
{
    SnapshotReader r(j, ptr, origin);
    if (r.error())
        return *r.error();
    ProbeResult p;
    p.name = r.str("name", true);
    const std::string st = r.str("status", true);
    p.detail = r.str("detail");
    p.extra = r.rest();
    if (r.error())
        return *r.error();
    auto status = probeStatusFromString(st);
    if (!status)
        return Error::invalid(origin + ": " + ptr + "/status: unknown status \"" + st + "\"");
    p.status = *status;
    return p;
}

// Reads every element of the array `key` with `read` into `out`.
template <class T, class Fn>
Expected<void> readList(SnapshotReader& top, const char* key, const std::string& origin,
                        std::vector<T>& out, Fn&& read)
{
    const json* list = top.array(key);
    for (std::size_t i = 0; list && i < list->size(); ++i) {
        auto v = read((*list)[i], "/" + std::string(key) + "/" + std::to_string(i), origin);
        if (!v)
            return v.error();
        out.push_back(std::move(*v));
    }
    return {};
}

} // namespace

Expected<HardwareSnapshot> snapshotFromJson(const json& j, const std::string& origin)
{
    HardwareSnapshot s;
    SnapshotReader top(j, "", origin);
    if (top.error())
        return *top.error();
    auto schema = top.optInt<int>("schema");
    if (top.error())
        return *top.error();
    if (!schema || *schema != HardwareSnapshot::kSchema)
        return Error::invalid(origin + ": /schema: expected " +
                              std::to_string(HardwareSnapshot::kSchema));

    if (const json* os = top.object("os")) {
        SnapshotReader r(*os, "/os", origin);
        s.os.family = r.str("family");
        s.os.version = r.str("version");
        s.os.extra = r.rest();
        if (r.error())
            return *r.error();
    }
    if (const json* home = top.object("home")) {
        SnapshotReader r(*home, "/home", origin);
        s.home.path = r.str("path");
        s.home.filesystem = r.str("filesystem");
        s.home.network = r.optBool("network").value_or(isNetworkFilesystem(s.home.filesystem));
        s.home.extra = r.rest();
        if (r.error())
            return *r.error();
    }
    if (auto r = readList(top, "gpus", origin, s.gpus, gpuFromJson); !r)
        return r.error();
    if (auto r = readList(top, "runtimes", origin, s.runtimes, runtimeFromJson); !r)
        return r.error();
    if (auto r = readList(top, "probes", origin, s.probes, probeFromJson); !r)
        return r.error();
    s.extra = top.rest();
    if (top.error())
        return *top.error();
    if (auto ok = checkIndices(s, origin); !ok)
        return ok.error();
    return s;
}

} // namespace sp
