#pragma once
// Garbage collection of the prefix root and the download cache: runtimes no profile
// uses, leftovers of interrupted installs, and partial downloads nobody resumed for a
// while. It removes only what StackPilot can prove it made (prefix_store.h,
// core/ownership.h); everything it would remove is listed first, so --dry-run shows
// exactly what a real run does, start-up recovery included.

#include "core/clock.h"
#include "core/expected.h"
#include "installers/prefix_store.h"

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace sp {

struct GcOptions
{
    std::set<std::string> usedRuntimes;   // runtimes some profile of the catalog lists
    std::set<std::string> systemRuntimes; // provided by the OS or a vendor installer: never removed
    std::chrono::hours partialAge{14 * 24};
    std::filesystem::path partialDir; // <cache>/downloads/partial
    bool dryRun = false;
    const Clock* clock = nullptr; // null = Clock::system()
};

struct GcReport
{
    std::vector<std::string> cleaned;         // leftovers of interrupted installs
    std::vector<std::string> removed;         // runtime ids
    std::vector<std::string> kept;            // runtime ids in use
    std::vector<std::string> partialsRemoved; // file names
    std::vector<std::string> skipped;         // with the reason
    std::vector<std::string> errors;
    bool dryRun = false;
};

// "14" -> 14 days. Refuses anything that is not a plain number of days from 0 to
// 3650 (so "-1", "inf", "nan", "1e308" and "100000" are errors, never an overflow).
Expected<std::chrono::hours> parsePartialDays(const std::string& text);

GcReport collectGarbage(const PrefixStore& store, const GcOptions& options);
nlohmann::json toJson(const GcReport& report);

} // namespace sp
