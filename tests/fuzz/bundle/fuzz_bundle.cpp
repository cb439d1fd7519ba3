// A diagnostics bundle from any bytes: as a zip (libarchive under the zip limits: entry
// count, entry size, compression ratio) or as a report.json. Whatever snapshot comes out
// must survive a JSON round trip unchanged, like one read from detect --json. The same
// bytes as plan --hardware reads them for re-planning (the user's settings, catalog.d
// files and chosen profiles): every catalog.d file kept has a plain file name, and any
// settings text it keeps either parses or is refused with a reason.

#include "core/bundle_inputs.h"
#include "core/settings.h"
#include "core/snapshot.h"
#include "core/zip_reader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    if (auto inputs = sp::bundlePlanInputsFromBytes(bytes, "fuzz.zip")) {
        for (const auto& [name, text] : inputs->catalogFiles)
            if (!sp::isPlainCatalogFileName(name))
                std::abort();
        if (inputs->settingsText) {
            auto settings = sp::Settings::parse(*inputs->settingsText, "settings.json");
            if (!settings && settings.error().message.empty())
                std::abort();
        }
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
