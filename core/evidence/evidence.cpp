#include "core/evidence/evidence.h"

#include "core/launch/text_decoder.h"
#include "core/locked_json.h"
#include "core/paths.h"

#include <QString>
#include <algorithm>

namespace sp {

namespace {

// The store can never pass its read limit: kKept records of at most kMaxRecordBytes,
// plus a comma and a newline each, plus the document around them.
static_assert(EvidenceStore::kKept * (kMaxRecordBytes + 2) + 64 <
                  EvidenceStore::kReadLimits.maxBytes,
              "the evidence store's bound must stay under its read limit");

// The smoke test's fields that describe the stack, not the user: what a record and the
// export keep.
const std::vector<std::string> kResultFields = {"ok",      "device",    "arch",  "seconds",
                                                "torch",   "hip",       "cuda",  "rocm",
                                                "backend", "max_error", "error", "check"};

// Written into the document by a store that bounds its records: a file without it (or
// past the read limit) is compacted at the next add.
constexpr const char* kBoundedMark = "bounded_records";

std::string field(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

nlohmann::json machineJson(const MachineFingerprint& m)
{
    return {{"gpu", m.gpu},
            {"arch", m.arch},
            {"driver", m.driver},
            {"os", m.os},
            {"os_build", m.osBuild}};
}

MachineFingerprint machineFrom(const nlohmann::json& j)
{
    return {field(j, "gpu"), field(j, "arch"), field(j, "driver"), field(j, "os"),
            field(j, "os_build")};
}

std::optional<EvidenceKind> kindFrom(const std::string& s)
{
    for (auto k : {EvidenceKind::Verify, EvidenceKind::Launch, EvidenceKind::Bench})
        if (s == toString(k))
            return k;
    return std::nullopt;
}

nlohmann::json runtimesJson(const std::vector<EvidenceRuntime>& runtimes)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : runtimes)
        out.push_back({{"id", r.id}, {"version", r.version}, {"sha256", r.sha256}});
    return out;
}

std::vector<EvidenceRuntime> runtimesFrom(const nlohmann::json& j)
{
    std::vector<EvidenceRuntime> out;
    if (!j.is_array())
        return out;
    for (const auto& r : j) {
        if (!r.is_object())
            continue;
        EvidenceRuntime rt{field(r, "id"), field(r, "version"), {}};
        if (const auto s = r.find("sha256"); s != r.end() && s->is_array())
            for (const auto& d : *s)
                if (d.is_string())
                    rt.sha256.push_back(d.get<std::string>());
        out.push_back(std::move(rt));
    }
    return out;
}

// At most `n` bytes of valid UTF-8: cut at a character boundary, and bytes that are
// not UTF-8 replaced (the JSON writer refuses them).
std::string cutUtf8(const std::string& s, std::size_t n)
{
    if (s.size() <= n && isValidUtf8(s))
        return s;
    std::string t = s.substr(0, n);
    if (!isValidUtf8(t))
        t = QString::fromUtf8(t.data(), static_cast<qsizetype>(t.size())).toStdString();
    while (t.size() > n || !isValidUtf8(t)) { // U+FFFD takes 3 bytes: cut again
        std::size_t end = std::min(t.size(), n);
        while (end > 0 && end < t.size() && (static_cast<unsigned char>(t[end]) & 0xC0) == 0x80)
            --end;
        t.resize(end);
    }
    return t;
}

nlohmann::json resultWithin(const nlohmann::json& result, std::size_t maxString,
                            const std::vector<std::string>& fields)
{
    nlohmann::json out = nlohmann::json::object();
    if (!result.is_object())
        return out;
    for (const auto& k : fields) {
        const auto it = result.find(k);
        if (it == result.end() || it->is_structured() || it->is_binary())
            continue;
        out[k] = it->is_string() ? nlohmann::json(cutUtf8(it->get<std::string>(), maxString)) : *it;
    }
    return out;
}

// One pass of bounding: strings of at most `n` bytes, at most `runtimes` runtimes with
// `digests` digests each, the result's fields among `fields`.
EvidenceRecord boundedWithin(EvidenceRecord r, std::size_t n, std::size_t runtimes,
                             std::size_t digests, const std::vector<std::string>& fields)
{
    for (std::string* s : {&r.at, &r.machine.gpu, &r.machine.arch, &r.machine.driver, &r.machine.os,
                           &r.machine.osBuild, &r.workload, &r.profile, &r.catalog, &r.knownIssue,
                           &r.reason, &r.cause, &r.deviceCheck})
        *s = cutUtf8(*s, n);
    if (r.runtimes.size() > runtimes)
        r.runtimes.resize(runtimes);
    for (auto& rt : r.runtimes) {
        rt.id = cutUtf8(rt.id, n);
        rt.version = cutUtf8(rt.version, n);
        if (rt.sha256.size() > digests)
            rt.sha256.resize(digests);
        for (auto& d : rt.sha256)
            d = cutUtf8(d, 64);
    }
    r.result = resultWithin(r.result, n, fields);
    return r;
}

std::string day(const std::string& iso)
{
    return iso.substr(0, 10);
}

LocalVerdict verdictOf(const EvidenceRecord& r, const MachineFingerprint& here)
{
    LocalVerdict v;
    v.knownIssue = r.knownIssue;
    v.at = r.at;
    const std::string what = r.passed ? "passed" : "failed";
    if (!r.machine.sameSoftware(here)) {
        v.state = LocalVerdict::State::Unverified;
        v.passedEarlier = r.passed;
        v.text = "unverified here: it " + what + " on this machine on " + day(r.at) +
                 " with driver " + (r.machine.driver.empty() ? "unknown" : r.machine.driver) +
                 (r.machine.osBuild != here.osBuild ? " and OS build " + r.machine.osBuild : "") +
                 "; the driver or OS changed since";
        return v;
    }
    v.state = r.passed ? LocalVerdict::State::Passed : LocalVerdict::State::Failed;
    v.text = what + " on this machine on " + day(r.at);
    if (!r.passed && !r.reason.empty())
        v.text += ": " + r.reason;
    return v;
}

} // namespace

std::string archOf(const GpuInfo& g)
{
    std::string arch = g.gfx ? *g.gfx : g.computeCapability ? "sm_" + *g.computeCapability : "";
    arch.erase(std::remove(arch.begin(), arch.end(), '.'), arch.end());
    return arch;
}

MachineFingerprint fingerprintOf(const HardwareSnapshot& snap, std::optional<int> gpu)
{
    MachineFingerprint m;
    m.os = snap.os.family;
    m.osBuild = snap.os.version;
    if (!gpu || *gpu < 0 || *gpu >= static_cast<int>(snap.gpus.size())) {
        m.gpu = "cpu";
        return m;
    }
    const GpuInfo& g = snap.gpus[static_cast<std::size_t>(*gpu)];
    m.gpu = g.pciId + (g.pciRevision.empty() ? "" : " rev " + g.pciRevision);
    m.arch = archOf(g);
    m.driver = g.driverVersion.value_or("");
    return m;
}

const char* toString(EvidenceKind k)
{
    switch (k) {
    case EvidenceKind::Verify:
        return "verify";
    case EvidenceKind::Launch:
        return "launch";
    case EvidenceKind::Bench:
        break;
    }
    return "bench";
}

nlohmann::json toJson(const EvidenceRecord& r)
{
    nlohmann::json j = {{"kind", toString(r.kind)},
                        {"at", r.at},
                        {"machine", machineJson(r.machine)},
                        {"workload", r.workload},
                        {"profile", r.profile},
                        {"catalog", r.catalog},
                        {"runtimes", runtimesJson(r.runtimes)},
                        {"passed", r.passed},
                        {"known_issue", r.knownIssue},
                        {"reason", r.reason},
                        {"result", r.result}};
    if (!r.cause.empty())
        j["cause"] = r.cause;
    if (!r.deviceCheck.empty())
        j["device_check"] = r.deviceCheck;
    if (r.seconds)
        j["seconds"] = *r.seconds;
    return j;
}

Expected<EvidenceRecord> evidenceFromJson(const nlohmann::json& j, const std::string& where)
{
    if (!j.is_object())
        return Error::invalid(where + ": a record must be an object");
    const auto kind = kindFrom(field(j, "kind"));
    const auto passed = j.find("passed");
    if (!kind || field(j, "profile").empty() || passed == j.end() || !passed->is_boolean())
        return Error::invalid(where + ": a record needs \"kind\" (verify, launch or bench), "
                                      "\"profile\" and \"passed\"");
    EvidenceRecord r;
    r.kind = *kind;
    r.at = field(j, "at");
    if (const auto m = j.find("machine"); m != j.end() && m->is_object())
        r.machine = machineFrom(*m);
    r.workload = field(j, "workload");
    r.profile = field(j, "profile");
    r.catalog = field(j, "catalog");
    if (const auto rt = j.find("runtimes"); rt != j.end())
        r.runtimes = runtimesFrom(*rt);
    r.passed = passed->get<bool>();
    if (const auto s = j.find("seconds"); s != j.end() && s->is_number())
        r.seconds = s->get<double>();
    r.knownIssue = field(j, "known_issue");
    r.reason = field(j, "reason");
    r.cause = field(j, "cause");
    r.deviceCheck = field(j, "device_check");
    if (const auto res = j.find("result"); res != j.end() && res->is_object())
        r.result = *res;
    return r;
}

nlohmann::json boundedResult(const nlohmann::json& result)
{
    return resultWithin(result, 256, kResultFields);
}

EvidenceRecord boundedRecord(EvidenceRecord r)
{
    // Each string of a pass may take six bytes per byte in JSON (\u0001): the last pass
    // fits kMaxRecordBytes whatever the strings hold (the test of the arithmetic
    // fills every one with control characters).
    EvidenceRecord b = boundedWithin(r, 256, 32, 8, kResultFields);
    if (storedSize(b) <= kMaxRecordBytes)
        return b;
    b = boundedWithin(r, 32, 4, 0, {"ok", "seconds", "device", "arch", "error"});
    if (storedSize(b) <= kMaxRecordBytes)
        return b;
    return boundedWithin(r, 32, 0, 0, {"ok", "seconds"});
}

std::size_t storedSize(const EvidenceRecord& r)
{
    // In the file a record sits two levels down ({"records": [ ... ]}), indented by one.
    return nlohmann::json::array({nlohmann::json::array({toJson(r)})})
        .dump(1, ' ', false, nlohmann::json::error_handler_t::replace)
        .size();
}

std::map<std::string, LocalVerdict> verdictsFor(const std::vector<EvidenceRecord>& records,
                                                const MachineFingerprint& here)
{
    std::map<std::string, LocalVerdict> out;
    // Records are kept oldest first: the last smoke test of a profile on this card wins.
    for (const auto& r : records)
        if (r.kind == EvidenceKind::Verify && r.machine.sameCard(here))
            out[r.profile] = verdictOf(r, here);
    return out;
}

std::map<std::string, LocalVerdict> localVerdicts(const HardwareSnapshot& snap,
                                                  std::optional<int> gpu)
{
    auto records = EvidenceStore().records();
    return records ? verdictsFor(*records, fingerprintOf(snap, gpu))
                   : std::map<std::string, LocalVerdict>{};
}

EvidenceStore::EvidenceStore(std::filesystem::path file, std::size_t keep)
    : m_file(std::move(file)), m_keep(keep)
{}

std::filesystem::path EvidenceStore::defaultFile()
{
    return paths::dataDir() / "evidence.json";
}

namespace {

// The limits the file is read with now: a file past the read limit was written before
// records were bounded, and is read once more generously to be compacted.
JsonLimits evidenceLimitsFor(const std::filesystem::path& file)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    return !ec && size > EvidenceStore::kReadLimits.maxBytes ? EvidenceStore::kCompactLimits
                                                             : EvidenceStore::kReadLimits;
}

} // namespace

Expected<std::vector<EvidenceRecord>> EvidenceStore::records() const
{
    auto doc = readJsonDocument(m_file, evidenceLimitsFor(m_file), "evidence");
    if (!doc)
        return doc.error();
    std::vector<EvidenceRecord> out;
    if (!doc->is_object())
        return Error::invalid(paths::toUtf8(m_file) + ": must be a JSON object");
    const auto list = doc->find("records");
    if (list == doc->end())
        return out;
    if (!list->is_array())
        return Error::invalid(paths::toUtf8(m_file) + ": \"records\" must be an array");
    for (std::size_t i = 0; i < list->size(); ++i) {
        auto r = evidenceFromJson((*list)[i],
                                  paths::toUtf8(m_file) + ": records[" + std::to_string(i) + "]");
        if (!r)
            return r.error();
        out.push_back(std::move(*r));
    }
    return out;
}

namespace {

// Which records make room for one more when `keep` are kept: the oldest launch records
// first, since smoke tests make the verdicts selection ranks by, then the oldest.
std::vector<bool> droppedWhenFull(const nlohmann::json& list, std::size_t keep)
{
    std::vector<bool> dropped(list.size(), false);
    std::size_t excess = list.size() + 1 > keep ? list.size() + 1 - keep : 0;
    for (const bool launchesOnly : {true, false})
        for (std::size_t i = 0; i < list.size() && excess > 0; ++i) {
            const auto kind = list[i].is_object() ? list[i].find("kind") : list[i].end();
            const bool launch = kind != list[i].end() && *kind == "launch";
            if (!dropped[i] && (launch || !launchesOnly)) {
                dropped[i] = true;
                --excess;
            }
        }
    return dropped;
}

} // namespace

Expected<void> EvidenceStore::add(const EvidenceRecord& record) const
{
    const JsonLimits limits = evidenceLimitsFor(m_file);
    const bool oversized = limits.maxBytes > kReadLimits.maxBytes;
    return updateJsonDocument(m_file, limits, "evidence", [&](nlohmann::json& doc) {
        if (!doc.is_object())
            return Expected<void>(
                Error::invalid(paths::toUtf8(m_file) + ": must be a JSON object"));
        nlohmann::json& list = doc["records"];
        if (!list.is_array())
            list = nlohmann::json::array();
        const std::size_t keep = std::min(m_keep, kKept);
        const std::vector<bool> dropped = droppedWhenFull(list, keep);
        const auto mark = doc.find(kBoundedMark);
        const bool compact =
            oversized || mark == doc.end() || !mark->is_boolean() || !mark->get<bool>();
        nlohmann::json kept = nlohmann::json::array();
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (dropped[i])
                continue;
            if (!compact) { // written bounded by this store
                kept.push_back(std::move(list[i]));
                continue;
            }
            auto r = evidenceFromJson(list[i], paths::toUtf8(m_file) + ": records[" +
                                                   std::to_string(i) + "]");
            if (!r) // a damaged file is reported and left as it is
                return Expected<void>(r.error());
            kept.push_back(toJson(boundedRecord(std::move(*r))));
        }
        if (keep > 0)
            kept.push_back(toJson(boundedRecord(record)));
        list = std::move(kept);
        doc[kBoundedMark] = true;
        return Expected<void>();
    });
}

nlohmann::json exportJson(const std::vector<EvidenceRecord>& records)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : records) {
        nlohmann::json j = toJson(r);
        nlohmann::json result = nlohmann::json::object();
        for (const auto& k : kResultFields)
            if (r.result.contains(k) && !r.result[k].is_structured())
                result[k] = r.result[k];
        j["result"] = result;
        // The reason may quote a path from the log; the known issue id says the same.
        if (!r.knownIssue.empty())
            j["reason"] = "known issue " + r.knownIssue;
        list.push_back(std::move(j));
    }
    return {{"schema", 1}, {"records", list}};
}

} // namespace sp
