#include "core/launch/launch_log.h"

#include "core/json_file.h"
#include "core/launch/launch_lock.h"
#include "core/paths.h"

#include <algorithm>
#include <regex>

namespace fs = std::filesystem;

namespace sp {

namespace {

// Names StackPilot gives: "20261124T034500Z" or "20261124T034500Z-2", then .log/.json.
bool isLaunchStem(const std::string& stem)
{
    static const std::regex re(R"(\d{8}T\d{6}Z(-\d{1,4})?)");
    return std::regex_match(stem, re);
}

// Stems of a folder's launches, oldest first ("…Z" sorts before "…Z-2").
std::vector<std::string> launchStems(const fs::path& dir)
{
    std::vector<std::string> stems;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        if (p.extension() == ".log" && isLaunchStem(paths::toUtf8(p.stem())) &&
            it->is_regular_file(ec))
            stems.push_back(paths::toUtf8(p.stem()));
    }
    std::sort(stems.begin(), stems.end(), [](const std::string& a, const std::string& b) {
        const std::string ka = a.substr(0, 16), kb = b.substr(0, 16);
        if (ka != kb)
            return ka < kb;
        auto suffix = [](const std::string& s) {
            return s.size() > 17 ? std::stoi(s.substr(17)) : 1;
        };
        return suffix(a) < suffix(b);
    });
    return stems;
}

} // namespace

nlohmann::json toJson(const LaunchRecord& r)
{
    return {{"profile", r.profile},
            {"workload", r.workload},
            {"plan_hash", r.planHash},
            {"started", r.started},
            {"ended", r.ended},
            {"exit", r.exit},
            {"known_issues", r.knownIssues},
            {"urls", r.urls},
            {"stopped_by", r.stoppedBy},
            {"log", r.log},
            {"lines", r.lines},
            {"gpu", {{"name", r.gpuName}, {"pci_bus", r.gpuBus}}}};
}

Expected<LaunchRecord> readLaunchRecord(const fs::path& file)
{
    auto j = readJsonFile(file, kSettingsLimits, "launch record");
    if (!j)
        return j.error();
    try {
        LaunchRecord r;
        r.profile = j->value("profile", "");
        r.workload = j->value("workload", "");
        r.planHash = j->value("plan_hash", "");
        r.started = j->value("started", "");
        r.ended = j->value("ended", "");
        r.exit = j->value("exit", nlohmann::json::object());
        r.knownIssues = j->value("known_issues", std::vector<std::string>{});
        r.urls = j->value("urls", std::vector<std::string>{});
        r.stoppedBy = j->value("stopped_by", "none");
        r.log = j->value("log", "");
        r.lines = j->value("lines", std::size_t{0});
        if (const auto gpu = j->find("gpu"); gpu != j->end() && gpu->is_object()) {
            r.gpuName = gpu->value("name", "");
            r.gpuBus = gpu->value("pci_bus", "");
        }
        return r;
    } catch (const nlohmann::json::exception& e) {
        return Error::invalid(paths::toUtf8(file) + ": not a launch record: " + e.what());
    }
}

std::string launchStamp(const Clock& clock)
{
    return compactTime(clock.now());
}

Expected<LaunchLogFiles> newLaunchFiles(const fs::path& logsRoot, const std::string& profile,
                                        const Clock& clock)
{
    const fs::path dir = logsRoot / paths::fromUtf8(profile);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        return Error::runtime(paths::toUtf8(dir) +
                              ": cannot create the log folder: " + ec.message());
    const std::string stamp = launchStamp(clock);
    for (int n = 1; n < 10000; ++n) {
        const std::string stem = n == 1 ? stamp : stamp + "-" + std::to_string(n);
        LaunchLogFiles f{dir / (stem + ".log"), dir / (stem + ".json")};
        if (!fs::exists(f.log, ec) && !fs::exists(f.record, ec))
            return f;
    }
    return Error::runtime(paths::toUtf8(dir) + ": too many launches in one second");
}

std::vector<fs::path> rotateLaunchLogs(const fs::path& profileDir, int keep)
{
    std::vector<fs::path> removed;
    const std::vector<std::string> stems = launchStems(profileDir);
    const std::size_t excess = stems.size() > static_cast<std::size_t>(std::max(keep, 1))
                                   ? stems.size() - static_cast<std::size_t>(std::max(keep, 1))
                                   : 0;
    for (std::size_t i = 0; i < excess; ++i) {
        for (const char* ext : {".log", ".json"}) {
            const fs::path p = profileDir / (stems[i] + ext);
            std::error_code ec;
            if (fs::is_regular_file(p, ec) && fs::remove(p, ec))
                removed.push_back(p);
        }
    }
    return removed;
}

std::vector<fs::path> openLaunchRecords(const fs::path& profileDir)
{
    std::vector<fs::path> out;
    for (const std::string& stem : launchStems(profileDir)) {
        const fs::path file = profileDir / (stem + ".json");
        if (auto r = readLaunchRecord(file); r && r->ended.empty())
            out.push_back(file);
    }
    return out;
}

std::vector<LaunchRecord> runningLaunches(const fs::path& logsRoot, const fs::path& dataDir)
{
    std::vector<LaunchRecord> out;
    std::error_code ec;
    for (fs::directory_iterator it(logsRoot, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_directory(ec))
            continue;
        const std::vector<fs::path> open = openLaunchRecords(it->path());
        if (open.empty() || !LaunchLock::liveHolder(dataDir, paths::toUtf8(it->path().filename())))
            continue;
        // One launch per profile at a time: the newest open record is the one that runs.
        auto newest = std::max_element(open.begin(), open.end());
        if (auto r = readLaunchRecord(*newest))
            out.push_back(std::move(*r));
    }
    return out;
}

Expected<void> closeAbandonedRecord(const fs::path& record, const std::string& now)
{
    auto r = readLaunchRecord(record);
    if (!r)
        return r.error();
    if (!r->ended.empty())
        return {};
    r->ended = now;
    r->stoppedBy = "launcher-gone";
    r->exit = {{"text", "ended abnormally: StackPilot was stopped before the workload ended "
                        "(its end was not seen)"},
               {"abnormal", true}};
    return writeFileAtomic(record, toJson(*r).dump(2) + "\n");
}

std::vector<LaunchRecord> listLaunchRecords(const fs::path& logsRoot, const std::string& profile)
{
    std::vector<fs::path> dirs;
    std::error_code ec;
    if (!profile.empty())
        dirs.push_back(logsRoot / paths::fromUtf8(profile));
    else
        for (fs::directory_iterator it(logsRoot, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_directory(ec))
                dirs.push_back(it->path());
    std::vector<std::pair<std::string, LaunchRecord>> found;
    for (const fs::path& dir : dirs)
        for (const std::string& stem : launchStems(dir))
            if (auto r = readLaunchRecord(dir / (stem + ".json")))
                found.emplace_back(r->started + stem, std::move(*r));
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<LaunchRecord> out;
    for (auto& f : found)
        out.push_back(std::move(f.second));
    return out;
}

} // namespace sp
