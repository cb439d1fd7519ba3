// A diagnostics bundle from any bytes: as a zip (libarchive under the zip limits: entry
// count, entry size, compression ratio) or as a report.json. Whatever snapshot comes out
// must survive a JSON round trip unchanged, like one read from detect --json. The same
// bytes as plan --hardware reads them for re-planning (the user's settings, catalog.d
// files and chosen profiles): what it keeps stays within the settings and catalog limits,
// and the settings text it keeps goes through the settings parser.

#include "core/bundle_inputs.h"
#include "core/json_file.h"
#include "core/settings.h"
#include "core/snapshot.h"
#include "core/zip_reader.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string bytes = sp::fuzz::textOf(data, size);
    if (auto inputs = sp::bundlePlanInputsFromBytes(bytes, "fuzz.zip")) {
        // What re-planning takes from a bundle stays within the limits the user's own
        // StackPilot reads those files under.
        std::size_t total = 0;
        for (const auto& [name, text] : inputs->catalogFiles) {
            if (text.size() > sp::kCatalogLimits.maxBytes)
                std::abort();
            total += text.size();
        }
        if (total > 2 * sp::kCatalogLimits.maxBytes ||
            (inputs->settingsText && inputs->settingsText->size() > sp::kSettingsLimits.maxBytes))
            std::abort();
        if (inputs->settingsText)
            (void)sp::Settings::parse(*inputs->settingsText, "settings.json");
    }
    auto snap = sp::looksLikeZip(bytes) ? sp::snapshotFromBundleBytes(bytes, "fuzz.zip")
                                        : sp::parseSnapshot(bytes, "report.json");
    if (!snap)
        return 0;
    const std::string once = sp::toJson(*snap).dump();
    auto again = sp::parseSnapshot(once, "again.json");
    if (!again || sp::toJson(*again).dump() != once)
        std::abort();
    return 0;
}
