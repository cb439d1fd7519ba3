// The files that go into a bundle as they are (before redaction): probe outputs, the
// user's settings and catalog overrides, receipts, launch logs and StackPilot's own log.

#include "app/common/diag/bundle.h"
#include "app/common/diag/collect_parts.h"
#include "core/app_log.h"
#include "core/evidence/evidence.h"
#include "core/paths.h"

#include <algorithm>
#include <fstream>

namespace fs = std::filesystem;

namespace sp::diag::detail {

namespace {

// A single, plain path component (a folder or file name StackPilot gave).
bool isPlainName(const std::string& s)
{
    return !s.empty() && s != "." && s != ".." && s.find_first_of("/\\:") == std::string::npos;
}

std::string clipStream(const std::string& s)
{
    if (s.size() <= kProbeStreamBytes)
        return s;
    return s.substr(0, kProbeStreamBytes) + "\n[... " +
           std::to_string(s.size() - kProbeStreamBytes) + " more bytes left out]\n";
}

} // namespace

std::optional<RawEntry> readCapped(const fs::path& file, std::string name, std::uint64_t cap,
                                   bool tail, bool json)
{
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        return std::nullopt;
    const std::uint64_t size = fs::file_size(file, ec);
    if (ec)
        return std::nullopt;
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return std::nullopt;
    RawEntry e{std::move(name), {}, json, {}};
    const std::uint64_t take = std::min(size, cap);
    const std::uint64_t from = tail ? size - take : 0;
    in.seekg(static_cast<std::streamoff>(from));
    e.bytes.resize(static_cast<std::size_t>(take));
    in.read(e.bytes.data(), static_cast<std::streamsize>(take));
    e.bytes.resize(static_cast<std::size_t>(in.gcount()));
    if (take < size) {
        e.json = false; // a cut document is no longer JSON: it is redacted as text
        if (tail) {
            // Start at a line: a token cut in half would no longer look like one.
            const auto nl = e.bytes.find('\n');
            const std::size_t drop = nl == std::string::npos ? e.bytes.size() : nl + 1;
            e.bytes.erase(0, drop);
            e.note =
                "last " + std::to_string(e.bytes.size()) + " of " + std::to_string(size) + " bytes";
        } else {
            const auto nl = e.bytes.rfind('\n');
            e.bytes.resize(nl == std::string::npos ? 0 : nl + 1);
            e.note = "first " + std::to_string(e.bytes.size()) + " of " + std::to_string(size) +
                     " bytes";
        }
    }
    return e;
}

std::vector<RawEntry> probeEntries(const std::vector<RawProbeOutput>& raw)
{
    std::vector<RawEntry> out;
    std::map<std::string, int> seen;
    for (const auto& r : raw) {
        const int n = ++seen[r.name];
        std::string name = "probes/" + r.name + (n > 1 ? "-" + std::to_string(n) : "") + ".txt";
        std::string text = "$ " + r.command + "\n" + r.outcome + "\n--- stdout ---\n" +
                           clipStream(r.stdoutText) + "\n--- stderr ---\n" +
                           clipStream(r.stderrText) + "\n";
        out.push_back({std::move(name), std::move(text), false, {}});
    }
    return out;
}

std::vector<std::string> catalogOverrideNames(const fs::path& configDir)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(configDir / "catalog.d", ec), end; !ec && it != end;
         it.increment(ec)) {
        const fs::path& p = it->path();
        if (p.extension() == ".json" && it->is_regular_file(ec))
            names.push_back(paths::toUtf8(p.filename()));
    }
    std::sort(names.begin(), names.end());
    if (names.size() > kCatalogOverrideFiles)
        names.resize(kCatalogOverrideFiles);
    return names;
}

std::vector<RawEntry> configEntries(const fs::path& configDir)
{
    std::vector<RawEntry> out;
    if (auto e = readCapped(configDir / "settings.json", "settings.json", kFileBytes, false, true))
        out.push_back(std::move(*e));
    for (const auto& name : catalogOverrideNames(configDir))
        if (auto e = readCapped(configDir / "catalog.d" / paths::fromUtf8(name),
                                "catalog.d/" + name, kFileBytes, false, true))
            out.push_back(std::move(*e));
    return out;
}

std::vector<RawEntry> receiptEntries(const fs::path& root, const std::vector<std::string>& ids)
{
    std::vector<RawEntry> out;
    for (const auto& id : ids) {
        const std::string file = id + ".receipt.json";
        if (auto e = readCapped(root / paths::fromUtf8(file), "receipts/" + file, kFileBytes, false,
                                true))
            out.push_back(std::move(*e));
    }
    return out;
}

std::vector<RawEntry> launchEntries(const fs::path& logsDir,
                                    const std::vector<LaunchRecord>& newestFirst)
{
    std::vector<RawEntry> out;
    std::size_t shipped = 0;
    for (const auto& r : newestFirst) {
        if (shipped == kLaunchLogs)
            break;
        // The record names its own log; only plain names StackPilot gives are followed.
        if (!isPlainName(r.profile) || !isPlainName(r.log) || r.log.size() < 5 ||
            r.log.substr(r.log.size() - 4) != ".log")
            continue;
        const fs::path dir = logsDir / paths::fromUtf8(r.profile);
        const std::string stem = r.log.substr(0, r.log.size() - 4);
        const std::string prefix = "launches/" + r.profile + "/";
        auto log =
            readCapped(dir / paths::fromUtf8(r.log), prefix + r.log, kLogTailBytes, true, false);
        if (!log)
            continue;
        if (auto rec = readCapped(dir / paths::fromUtf8(stem + ".json"), prefix + stem + ".json",
                                  kFileBytes, false, true))
            out.push_back(std::move(*rec));
        out.push_back(std::move(*log));
        ++shipped;
    }
    return out;
}

std::vector<RawEntry> appLogEntries()
{
    std::vector<RawEntry> out;
    if (auto e =
            readCapped(applog::rotatedFile(), "logs/stackpilot.log.1", kLogTailBytes, true, false))
        out.push_back(std::move(*e));
    if (auto e = readCapped(applog::file(), "logs/stackpilot.log", kLogTailBytes, true, false))
        out.push_back(std::move(*e));
    return out;
}

std::vector<RawEntry> evidenceEntries()
{
    auto records = EvidenceStore().records();
    if (!records)
        return {{"evidence.json", {}, false, records.error().message}};
    if (records->empty())
        return {};
    return {{"evidence.json", exportJson(*records).dump(2) + "\n", true, {}}};
}

} // namespace sp::diag::detail
