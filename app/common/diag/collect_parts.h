#pragma once
// The pieces collect() assembles (internal to app/common/diag): the files that go in as
// they are (files.cpp), the report's sections (gather.cpp) and report.md (report_md.cpp).

#include "core/catalog/loader.h"
#include "core/launch/env_composer.h"
#include "core/launch/launch_log.h"
#include "core/select/plan.h"
#include "core/settings.h"
#include "core/snapshot.h"
#include "detectors/probe_runner.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sp::diag::detail {

// A file's content before redaction.
struct RawEntry
{
    std::string name;
    std::string bytes;
    bool json = false; // redacted value by value when it parses
    std::string note;
};

// ---- files.cpp
// At most `cap` bytes of `file`: its beginning, or with `tail` its end from the first
// line break past the cut (so no token is cut in half). nullopt when it is not a
// readable regular file.
std::optional<RawEntry> readCapped(const std::filesystem::path& file, std::string name,
                                   std::uint64_t cap, bool tail, bool json);
std::vector<RawEntry> probeEntries(const std::vector<RawProbeOutput>& raw);
// <config>/settings.json and <config>/catalog.d/*.json (sorted).
std::vector<RawEntry> configEntries(const std::filesystem::path& configDir);
std::vector<std::string> catalogOverrideNames(const std::filesystem::path& configDir);
// <prefix root>/<id>.receipt.json for each id.
std::vector<RawEntry> receiptEntries(const std::filesystem::path& root,
                                     const std::vector<std::string>& ids);
// The logs (tail-capped) and records of the newest kLaunchLogs launches.
std::vector<RawEntry> launchEntries(const std::filesystem::path& logsDir,
                                    const std::vector<LaunchRecord>& newestFirst);
// StackPilot's own log, the rotated one first.
std::vector<RawEntry> appLogEntries();
// This machine's smoke-test records as `evidence export` writes them (docs/VERIFY.md).
std::vector<RawEntry> evidenceEntries();

// ---- gather.cpp
struct Plans
{
    nlohmann::json json = nlohmann::json::object(); // workload -> plan JSON or {"error"}
    std::map<std::string, Plan> byWorkload;         // the plans that were made
    std::vector<std::string> order;                 // workloads in catalog order
};
Plans makePlans(const HardwareSnapshot& snap, const Catalog& catalog, const Settings& settings);
// The catalog's identity: a digest over the shipped files, the user's overrides, warnings.
nlohmann::json catalogJson(const LoadedCatalog* loaded, const std::string& error,
                           const std::vector<std::string>& overrides);
// The snapshot as detect --json writes it, less timings (not state: they would make two
// bundles of one machine differ).
nlohmann::json hardwareJson(const HardwareSnapshot& snap);
// One runtime's receipt summary and fresh verify result.
nlohmann::json verifyRuntime(const std::filesystem::path& root, const std::string& id);
nlohmann::json launchesJson(const std::vector<LaunchRecord>& newestFirst, const Catalog* catalog);
nlohmann::json environmentJson(const Plan& plan, const EnvMap& env, const std::string& os);
nlohmann::json doctorJson(const HardwareSnapshot& snap, const Catalog& catalog, const Plan* plan,
                          const EnvMap& env, bool thisMachine);

// ---- report_md.cpp
// report.md from the (redacted) report JSON.
std::string renderMarkdown(const nlohmann::json& report);

} // namespace sp::diag::detail
