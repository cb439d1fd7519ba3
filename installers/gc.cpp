#include "installers/gc.h"

#include "core/paths.h"
#include "installers/install_lock.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace fs = std::filesystem;

namespace sp {

namespace {

constexpr long kMaxPartialDays = 3650;

// Only the fetcher's own names: 64 hex digits of a SHA-256 and ".part".
bool isOurPartialName(const std::string& name)
{
    return name.size() == 69 && name.compare(64, 5, ".part") == 0 &&
           std::all_of(name.begin(), name.begin() + 64, [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
           });
}

void collectPartials(const GcOptions& o, GcReport& report)
{
    if (o.partialDir.empty())
        return;
    const Clock& clock = o.clock ? *o.clock : Clock::system();
    const auto limit = clock.now() - o.partialAge;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(o.partialDir, ec)) {
        const std::string name = paths::toUtf8(e.path().filename());
        if (!isOurPartialName(name) || !fs::is_regular_file(fs::symlink_status(e.path(), ec)))
            continue;
        const auto written = std::chrono::file_clock::to_sys(fs::last_write_time(e.path(), ec));
        if (ec || std::chrono::time_point_cast<Clock::time_point::duration>(written) > limit)
            continue;
        if (!o.dryRun && !fs::remove(e.path(), ec))
            report.errors.push_back(paths::toUtf8(e.path()) + ": cannot delete: " + ec.message());
        else
            report.partialsRemoved.push_back(name);
    }
}

void collectRuntimes(const PrefixStore& store, const GcOptions& o, GcReport& report)
{
    for (const auto& id : store.installedIds()) {
        if (o.usedRuntimes.count(id) || o.systemRuntimes.count(id)) {
            report.kept.push_back(id);
            continue;
        }
        if (!o.dryRun) {
            auto lock = InstallLock::tryAcquire(store.root(), id);
            if (!lock) {
                report.skipped.push_back(id + ": being installed right now");
                continue;
            }
            if (auto r = store.remove(id); !r) {
                report.errors.push_back(r.error().message);
                continue;
            }
        }
        report.removed.push_back(id);
    }
}

} // namespace

Expected<std::chrono::hours> parsePartialDays(const std::string& text)
{
    long days = -1;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, days);
    if (text.empty() || ec != std::errc() || ptr != end || days < 0 || days > kMaxPartialDays)
        return Error::usage("--partial-days needs a whole number of days from 0 to " +
                            std::to_string(kMaxPartialDays) + ", not '" + text + "'");
    return std::chrono::hours(days * 24);
}

GcReport collectGarbage(const PrefixStore& store, const GcOptions& o)
{
    GcReport report;
    report.dryRun = o.dryRun;
    std::error_code ec;
    if (fs::is_directory(store.root(), ec)) {
        report.cleaned = store.recoverAll(o.dryRun);
        collectRuntimes(store, o, report);
    }
    collectPartials(o, report);
    return report;
}

nlohmann::json toJson(const GcReport& r)
{
    return {{"dry_run", r.dryRun},
            {"cleaned", r.cleaned},
            {"removed", r.removed},
            {"kept", r.kept},
            {"partials_removed", r.partialsRemoved},
            {"skipped", r.skipped},
            {"errors", r.errors}};
}

} // namespace sp
