#include "app/common/ledger/share.h"

#include "app/common/diag/redact.h"
#include "core/json_file.h"
#include "core/paths.h"

#include <array>
#include <openssl/rand.h>
#include <re2/re2.h>

namespace sp::ledger {

namespace fs = std::filesystem;
using nlohmann::json;

// The PUT itself (share_put.cpp): the HTTP status, or an error naming what failed.
Expected<long> putJson(const std::string& url, const std::string& body);

namespace {

struct Replacement
{
    const char* pattern;
    const char* with;
};

// What shared_record.cpp refuses, replaced by a word that says what was there.
constexpr std::array<Replacement, 5> kReplacements{{
    {R"([A-Za-z][A-Za-z0-9+.-]*://\S*)", "<url>"},
    {R"([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z0-9.-]+)", "<e-mail>"},
    {R"((?:~|[A-Za-z]:|\\\\[^\s\\]+)?[\\/][^\s"':]*[\\/][^\s"':]*)", "<path>"},
    {R"((?i)\b[a-z0-9-]+\.(?:com|org|net|io|ai|local|lan|home|internal)\b)", "<host>"},
    {R"((?i)[^\s"'/\\]+\.(?:gguf|safetensors|ckpt|onnx|llamafile)\b)", "<model>"},
}};

json stateOf(const fs::path& queue)
{
    auto s = readJsonFile(queue / "state.json", {1u << 16, 4}, "share queue state");
    return s && s->is_object() ? *s : json::object();
}

long long secondsOf(std::chrono::system_clock::time_point t)
{
    return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

std::vector<fs::path> queued(const fs::path& queue)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(queue, ec); !ec && it != fs::directory_iterator();
         it.increment(ec))
        if (it->path().extension() == ".json" && it->path().filename() != "state.json")
            files.push_back(it->path());
    std::sort(files.begin(), files.end());
    return files;
}

// One queued file sent; "" when the server took it.
std::string sendOne(const fs::path& file, const std::string& base)
{
    auto doc = readJsonFile(file, {kMaxRecordBytes, kMaxRecordDepth}, "queued record");
    auto rec =
        doc ? recordFromJson(*doc, paths::toUtf8(file)) : Expected<SharedRecord>(doc.error());
    if (!rec)
        return rec.error().message; // never sent, kept for the user to see
    // The record's text exactly as the window and `evidence share` showed it (recordText),
    // never a re-formatted copy: what the user read is what the server gets.
    auto status = putJson(base + "/" + rec->recordId + ".json", recordText(*rec));
    if (!status)
        return status.error().message;
    if (*status < 200 || *status > 299)
        return "the ledger answered HTTP " + std::to_string(*status);
    std::error_code ec;
    fs::remove(file, ec);
    return {};
}

} // namespace

std::string randomHex32()
{
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        return {};
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (unsigned char b : bytes) {
        s += digits[b >> 4];
        s += digits[b & 15];
    }
    return s;
}

Expected<std::string> installId(const fs::path& file, int year, bool keep)
{
    auto doc = readJsonFile(file, {1u << 12, 4}, "install id");
    if (doc && doc->is_object() && doc->value("year", 0) == year &&
        RE2::FullMatch(doc->value("id", ""), "[0-9a-f]{32}"))
        return doc->value("id", "");
    const std::string id = randomHex32();
    if (id.empty())
        return Error::runtime("no random bytes for an install id");
    if (!keep)
        return id;
    if (auto w = writeFileAtomic(file, json{{"id", id}, {"year", year}}.dump(2) + "\n"); !w)
        return w.error();
    return id;
}

std::string shareableLine(const std::string& line)
{
    diag::RedactionCounts counts;
    std::string out = diag::Redactor(diag::Identity::fromEnvironment()).text(line, counts);
    for (const auto& r : kReplacements)
        RE2::GlobalReplace(&out, r.pattern, r.with);
    if (out.size() > 300)
        out.resize(300);
    return privateTextIn(out).empty() ? out : std::string();
}

Expected<SharedRecord> shareable(const EvidenceRecord& e, const std::string& id,
                                 std::int64_t vramMb)
{
    if (e.kind == EvidenceKind::Bench)
        return Error::invalid("only smoke tests and launches are shared, not bench timings");
    SharedRecord r;
    r.recordId = randomHex32();
    r.installId = id;
    r.at = e.at;
    r.kind = toString(e.kind);
    r.workload = e.workload;
    r.profile = e.profile;
    r.catalog = e.catalog;
    // "1002:73df rev c1", or "cpu" for a CPU stack.
    if (e.machine.gpu != "cpu") {
        r.pciId = e.machine.gpu.substr(0, 9);
        if (const auto rev = e.machine.gpu.find(" rev "); rev != std::string::npos)
            r.revision = e.machine.gpu.substr(rev + 5, 2);
    }
    r.arch = e.machine.arch;
    r.vramClassGib = vramClass(vramMb);
    r.driver = e.machine.driver;
    r.os = e.machine.os;
    r.osBuild = e.machine.osBuild;
    for (const auto& rt : e.runtimes)
        r.runtimes.push_back({rt.id, rt.version, rt.sha256});
    r.passed = e.passed;
    r.knownIssue = e.knownIssue;
    r.decisiveLine = e.passed ? std::string() : shareableLine(e.reason);
    if (e.seconds && *e.seconds >= 0.0 && *e.seconds <= 3600.0)
        r.seconds = e.seconds;
    // The same check the ledger makes: what fails it is never sent.
    auto checked = recordFromJson(toJson(r), "the record of " + e.profile);
    if (!checked)
        return checked.error();
    return r;
}

Expected<fs::path> enqueue(const fs::path& queue, const SharedRecord& r)
{
    const fs::path file = queue / (r.recordId + ".json");
    if (auto w = writeFileAtomic(file, recordText(r)); !w)
        return w.error();
    return file;
}

bool sendableUrl(const std::string& url)
{
    return RE2::FullMatch(url, R"(https://[^\s/?#@]+(/[^\s?#]*)?)") ||
           RE2::FullMatch(url, R"(http://(127\.0\.0\.1|localhost)(:[0-9]{1,5})?(/[^\s?#]*)?)");
}

SendReport sendQueue(const fs::path& queue, const std::string& ledgerUrl,
                     std::chrono::system_clock::time_point now, bool force)
{
    SendReport report;
    const auto files = queued(queue);
    json state = stateOf(queue);
    if (!force && state.value("next_attempt", 0LL) > secondsOf(now)) {
        report.deferred = true;
        report.waiting = files.size();
        return report;
    }
    std::string base = ledgerUrl;
    while (!base.empty() && base.back() == '/')
        base.pop_back();
    for (const auto& f : files) {
        if (const auto why = sendOne(f, base); !why.empty())
            report.errors.push_back(paths::toUtf8(f.filename()) + ": " + why);
        else
            ++report.sent;
    }
    report.waiting = files.size() - report.sent;
    const long long failures = report.errors.empty() ? 0 : state.value("failures", 0LL) + 1;
    const long long wait =
        failures == 0 ? 0 : std::min(60LL << std::min(failures - 1, 11LL), 86400LL);
    state = {{"failures", failures}, {"next_attempt", secondsOf(now) + wait}};
    (void)writeFileAtomic(queue / "state.json", state.dump(2) + "\n");
    return report;
}

} // namespace sp::ledger
