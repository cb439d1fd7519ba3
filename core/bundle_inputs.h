#pragma once
// What a diagnostics bundle says about how its user's StackPilot planned, so that a
// helper's `plan --hardware BUNDLE` reproduces the user's plan instead of planning with
// the helper's own settings and catalog.d: the user's settings (the zip's settings.json,
// else report.json's "settings"), the user's catalog.d files (only the zip has them),
// the digest of the shipped catalog the user had, and the profile the user's plan chose
// for each workload, so that a re-plan that differs says so. Everything is as redacted.

#include "core/expected.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sp {

struct BundlePlanInputs
{
    bool isBundle = false; // false: a plain snapshot (detect --json); nothing else applies
    bool isZip = false;    // settings and catalog.d can only come from the zip
    std::optional<std::string> settingsText;                       // settings JSON text
    std::vector<std::pair<std::string, std::string>> catalogFiles; // file name, text
    std::vector<std::string> skippedEntries;       // catalog.d entries whose name cannot be a file
    std::vector<std::string> catalogOverrideNames; // as report.json lists them
    std::string catalogDigest;                     // the user's shipped catalog
    std::map<std::string, std::string> chosenProfiles; // workload -> profile id
};

// `path` is what --hardware names: a snapshot, a report.json or a bundle zip. Errors name
// the file (and the entry, for a zip).
Expected<BundlePlanInputs> loadBundlePlanInputs(const std::string& path);
// The same from bytes in memory (fuzzing); `origin` names them in errors.
Expected<BundlePlanInputs> bundlePlanInputsFromBytes(std::string_view bytes,
                                                     const std::string& origin);

// True for a catalog.d entry name StackPilot would have written: "NAME.json" with no
// folder part, no "..", and no character a file name cannot hold on Windows.
bool isPlainCatalogFileName(const std::string& name);

} // namespace sp
