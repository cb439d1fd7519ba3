#include "app/common/ledger/shared_record.h"

#include "app/common/diag/redact.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <re2/re2.h>
#include <set>

namespace sp::ledger {

using nlohmann::json;

namespace {

// Shapes no field may hold beyond what the bundle's redactor removes: a folder path (two
// segments, a drive, a share or a home), a URL or host, an e-mail address, a model file.
struct PrivateShape
{
    const char* kind;
    const char* pattern;
};
constexpr std::array<PrivateShape, 5> kShapes{{
    {"path", R"((?:^|[^A-Za-z0-9])(?:~[\\/]|[A-Za-z]:[\\/]|\\\\|/[A-Za-z0-9._-]+/))"},
    {"url", R"([A-Za-z][A-Za-z0-9+.-]*://)"},
    {"e-mail address", R"([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z0-9.-]+)"},
    {"host name", R"((?i)\b[a-z0-9-]+\.(?:com|org|net|io|ai|local|lan|home|internal)\b)"},
    {"model file", R"((?i)\.(?:gguf|safetensors|ckpt|onnx|llamafile)\b)"},
}};

const diag::Redactor& redactor()
{
    static const diag::Redactor r{diag::Identity{}};
    return r;
}

std::string firstKind(const diag::RedactionCounts& counts)
{
    for (std::size_t k = 0; k < diag::kRedactionKinds; ++k)
        if (counts.n[k] > 0)
            return diag::toString(static_cast<diag::RedactionKind>(k));
    return {};
}

// Compiled once per pattern: an ingest of 10,000 records checks each field's shape.
const RE2& compiled(const char* pattern)
{
    static std::mutex lock;
    static std::map<std::string, std::unique_ptr<RE2>> cache;
    const std::lock_guard<std::mutex> hold(lock);
    auto& re = cache[pattern];
    if (!re)
        re = std::make_unique<RE2>(pattern, RE2::Quiet);
    return *re;
}

struct Reader
{
    const json& j;
    const std::string& where;
    std::string error;

    bool fail(const std::string& field, const std::string& why)
    {
        if (error.empty())
            error = where + ": '" + field + "' " + why;
        return false;
    }

    // A string field of at most `max` bytes that matches `shape` (RE2, full match).
    bool text(const char* field, std::string& out, std::size_t max, const char* shape,
              bool required = true)
    {
        const auto it = j.find(field);
        if (it == j.end())
            return !required || fail(field, "is missing");
        if (!it->is_string())
            return fail(field, "is not a string");
        out = it->get<std::string>();
        if (out.size() > max)
            return fail(field, "is longer than " + std::to_string(max) + " bytes");
        if (!out.empty() && shape && !RE2::FullMatch(out, compiled(shape)))
            return fail(field, "has the wrong shape: \"" + out.substr(0, 40) + "\"");
        if (const auto kind = privateTextIn(out); !kind.empty())
            return fail(field, "holds a " + kind + "; a shared record never does");
        return true;
    }
};

const char* const kHex32 = "[0-9a-f]{32}";
const char* const kId = "[a-z0-9][a-z0-9._+-]{0,95}";
const char* const kVersion = "[A-Za-z0-9._+~-]{1,64}";

bool readRuntimes(Reader& r, const json& list, std::vector<SharedRuntime>& out)
{
    if (!list.is_array() || list.size() > 32)
        return r.fail("runtimes", "is not a list of at most 32 runtimes");
    for (const auto& item : list) {
        if (!item.is_object())
            return r.fail("runtimes", "holds something that is not an object");
        Reader in{item, r.where + ": runtimes", {}};
        SharedRuntime rt;
        if (!in.text("id", rt.id, 96, kId) || !in.text("version", rt.version, 64, kVersion)) {
            r.error = in.error;
            return false;
        }
        const auto digests = item.find("sha256");
        if (digests == item.end() || !digests->is_array() || digests->size() > 16)
            return r.fail("runtimes", "needs a 'sha256' list of at most 16 digests");
        for (const auto& d : *digests) {
            if (!d.is_string() || !RE2::FullMatch(d.get<std::string>(), compiled("[0-9a-f]{64}")))
                return r.fail("runtimes", "holds a digest that is not 64 hex digits");
            rt.sha256.push_back(d.get<std::string>());
        }
        out.push_back(std::move(rt));
    }
    return true;
}

bool readOutcome(Reader& r, SharedRecord& rec)
{
    const auto passed = r.j.find("passed");
    if (passed == r.j.end() || !passed->is_boolean())
        return r.fail("passed", "is not true or false");
    rec.passed = passed->get<bool>();
    if (const auto s = r.j.find("seconds"); s != r.j.end() && !s->is_null()) {
        // A smoke test has a deadline of minutes; anything else is a made-up figure.
        if (!s->is_number() || s->get<double>() < 0.0 || s->get<double>() > 3600.0)
            return r.fail("seconds", "is not a time between 0 and 3600 seconds");
        rec.seconds = s->get<double>();
    }
    const auto vram = r.j.find("vram_class_gib");
    if (vram == r.j.end() || !vram->is_number_integer() ||
        (vram->get<int>() != 0 &&
         vramClass(std::int64_t(vram->get<int>()) << 10) != vram->get<int>()))
        return r.fail("vram_class_gib", "is not one of the memory classes");
    rec.vramClassGib = vram->get<int>();
    return r.text("known_issue", rec.knownIssue, 96, kId, false) &&
           r.text("decisive_line", rec.decisiveLine, 300, nullptr, false);
}

const std::set<std::string>& knownFields()
{
    static const std::set<std::string> fields = {
        "schema",        "record_id", "install_id", "at",       "kind",   "workload",
        "profile",       "catalog",   "pci_id",     "revision", "arch",   "vram_class_gib",
        "driver",        "os",        "os_build",   "runtimes", "passed", "known_issue",
        "decisive_line", "seconds"};
    return fields;
}

} // namespace

int vramClass(std::int64_t vramMb)
{
    static const int kClasses[] = {2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};
    if (vramMb <= 0)
        return 0;
    for (int c : kClasses)
        if (vramMb <= std::int64_t(c) << 10)
            return c;
    return 256;
}

std::string privateTextIn(const std::string& text)
{
    diag::RedactionCounts counts;
    if (redactor().text(text, counts) != text)
        return firstKind(counts).empty() ? "secret" : firstKind(counts);
    for (const auto& shape : kShapes)
        if (RE2::PartialMatch(text, compiled(shape.pattern)))
            return shape.kind;
    return {};
}

json toJson(const SharedRecord& r)
{
    json runtimes = json::array();
    for (const auto& rt : r.runtimes)
        runtimes.push_back({{"id", rt.id}, {"version", rt.version}, {"sha256", rt.sha256}});
    return {{"schema", kRecordSchema},
            {"record_id", r.recordId},
            {"install_id", r.installId},
            {"at", r.at},
            {"kind", r.kind},
            {"workload", r.workload},
            {"profile", r.profile},
            {"catalog", r.catalog},
            {"pci_id", r.pciId},
            {"revision", r.revision},
            {"arch", r.arch},
            {"vram_class_gib", r.vramClassGib},
            {"driver", r.driver},
            {"os", r.os},
            {"os_build", r.osBuild},
            {"runtimes", runtimes},
            {"passed", r.passed},
            {"known_issue", r.knownIssue},
            {"decisive_line", r.decisiveLine},
            {"seconds", r.seconds ? json(*r.seconds) : json(nullptr)}};
}

Expected<SharedRecord> recordFromJson(const json& j, const std::string& where)
{
    if (!j.is_object())
        return Error::invalid(where + ": a record is a JSON object");
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!knownFields().count(it.key()))
            return Error::invalid(where + ": unknown field '" + it.key().substr(0, 40) + "'");
    if (const auto schema = j.find("schema"); schema == j.end() || *schema != kRecordSchema)
        return Error::invalid(where + ": 'schema' is not " + std::to_string(kRecordSchema));
    SharedRecord rec;
    Reader r{j, where, {}};
    const bool ok =
        r.text("record_id", rec.recordId, 32, kHex32) &&
        r.text("install_id", rec.installId, 32, kHex32) &&
        r.text("at", rec.at, 20,
               R"(20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z)") &&
        r.text("kind", rec.kind, 8, "verify|launch") && r.text("workload", rec.workload, 96, kId) &&
        r.text("profile", rec.profile, 96, kId) &&
        r.text("catalog", rec.catalog, 24, "shipped|feed [0-9]{1,12}") &&
        r.text("pci_id", rec.pciId, 9, "[0-9a-f]{4}:[0-9a-f]{4}") &&
        r.text("revision", rec.revision, 2, "[0-9a-f]{2}") &&
        r.text("arch", rec.arch, 16, "gfx[0-9a-f]{3,5}|sm_[0-9]{2,3}") &&
        r.text("driver", rec.driver, 64, kVersion) && r.text("os", rec.os, 8, "linux|windows") &&
        r.text("os_build", rec.osBuild, 32, kVersion) &&
        readRuntimes(r, j.value("runtimes", json()), rec.runtimes) && readOutcome(r, rec);
    if (!ok)
        return Error::invalid(r.error);
    return rec;
}

} // namespace sp::ledger
