#pragma once
// Where a launch leaves its traces: <logs>/<profile>/<timestamp>.log (the workload's
// output, ANSI colours stripped) and <timestamp>.json beside it (the launch record the
// window's history and the diagnostics bundle read). Only the last N launches of a
// profile are kept; rotation removes only files whose names StackPilot gives, so a
// file a user put in the folder is never touched.

#include "core/clock.h"
#include "core/expected.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sp {

struct LaunchRecord
{
    std::string profile;
    std::string workload;
    std::string planHash;                           // SHA-256 of the plan's JSON
    std::string started;                            // ISO 8601 UTC
    std::string ended;                              // empty while running
    nlohmann::json exit = nlohmann::json::object(); // {"code"|"signal"|"ntstatus", "text"}
    std::vector<std::string> knownIssues;           // ids matched, in order of appearance
    std::vector<std::string> urls;
    std::string stoppedBy = "none"; // "none" | "stop" | "kill" | "launcher-gone"
    std::string log;                // the log file's name, beside the record
    std::size_t lines = 0;
    // The card it runs on ("gpu": {"name", "pci_bus"}), so that a workload started on the
    // same card meanwhile can say so; empty on the processor and in older records.
    std::string gpuName;
    std::string gpuBus;
};

nlohmann::json toJson(const LaunchRecord& r);
// Errors name the file.
Expected<LaunchRecord> readLaunchRecord(const std::filesystem::path& file);

struct LaunchLogFiles
{
    std::filesystem::path log;
    std::filesystem::path record;
};

// "20261124T034500Z" (UTC, second resolution) for the clock's now.
std::string launchStamp(const Clock& clock);

// New, unused file names for a launch of `profile` (a "-2", "-3" suffix when two
// launches share a second); creates the folder. Runtime error when it cannot.
Expected<LaunchLogFiles> newLaunchFiles(const std::filesystem::path& logsRoot,
                                        const std::string& profile, const Clock& clock);

// Keeps the newest `keep` launches in the profile's folder (by stamp); removes the
// older .log/.json pairs. Returns the files removed.
std::vector<std::filesystem::path> rotateLaunchLogs(const std::filesystem::path& profileDir,
                                                    int keep);

// The records of a profile's folder (or of every profile under logsRoot when
// `profile` is empty), newest first; unreadable ones skipped.
std::vector<LaunchRecord> listLaunchRecords(const std::filesystem::path& logsRoot,
                                            const std::string& profile = {});

// The records in a profile's folder that have no end (a launch running, or one whose
// launcher was killed).
std::vector<std::filesystem::path> openLaunchRecords(const std::filesystem::path& profileDir);

// The launches that run now, of every profile under logsRoot: records without an end whose
// profile's launch lock (<data>/locks) names a live process. Nothing is locked or written.
std::vector<LaunchRecord> runningLaunches(const std::filesystem::path& logsRoot,
                                          const std::filesystem::path& dataDir);

// Gives such a record its end: "ended abnormally", stopped by "launcher-gone", ended
// at `now` (when it was found). Only while nothing can be writing it: the caller holds
// the profile's launch lock (core/launch/launch_lock.h).
Expected<void> closeAbandonedRecord(const std::filesystem::path& record, const std::string& now);

} // namespace sp
