#include "core/bundle_inputs.h"

#include "core/json_file.h"
#include "core/paths.h"
#include "core/snapshot.h"
#include "core/zip_reader.h"

#include <algorithm>
#include <functional>

namespace sp {

namespace {

constexpr const char* kSettingsEntry = "settings.json";
constexpr const char* kCatalogPrefix = "catalog.d/";

// The report's facts about planning; a report without them is read as having none.
void readReport(const nlohmann::json& report, BundlePlanInputs& out)
{
    const auto catalog = report.find("catalog");
    if (catalog != report.end() && catalog->is_object()) {
        out.catalogDigest = catalog->value("digest", std::string{});
        const auto names = catalog->find("user_overrides");
        if (names != catalog->end() && names->is_array())
            for (const auto& n : *names)
                if (n.is_string())
                    out.catalogOverrideNames.push_back(n.get<std::string>());
    }
    const auto settings = report.find("settings");
    if (settings != report.end() && settings->is_object() && !settings->contains("error")) {
        // Past the settings limit the user's StackPilot would have refused the file.
        if (std::string text = settings->dump(); text.size() <= kSettingsLimits.maxBytes)
            out.settingsText = std::move(text);
    }
    const auto plans = report.find("plans");
    if (plans == report.end() || !plans->is_object())
        return;
    for (const auto& [workload, plan] : plans->items()) {
        if (!plan.is_object())
            continue;
        const auto profile = plan.find("profile");
        if (profile != plan.end() && profile->is_object() && profile->contains("id") &&
            (*profile)["id"].is_string())
            out.chosenProfiles[workload] = (*profile)["id"].get<std::string>();
    }
}

Expected<BundlePlanInputs> fromReportText(const std::string& text, const std::string& origin)
{
    auto j = parseJsonText(text, origin, kSnapshotLimits);
    if (!j)
        return j.error();
    BundlePlanInputs out;
    out.isBundle = j->is_object() && j->contains(kBundleSchemaKey);
    if (out.isBundle)
        readReport(*j, out);
    return out;
}

// One zip, from a file or from bytes.
struct ZipSource
{
    std::function<Expected<std::string>(const std::string&, const ZipLimits&)> one;
    std::function<Expected<ZipEntries>(const ZipEntryFilter&, const ZipLimits&)> many;
};

// report.json under the snapshot's limits (as loadSnapshotFile reads it), then the
// settings and catalog.d entries under a catalog file's.
Expected<BundlePlanInputs> fromZip(const ZipSource& zip, const std::string& path)
{
    ZipLimits reportLimits;
    reportLimits.maxEntryBytes = kSnapshotLimits.maxBytes;
    const auto report = zip.one(kBundleReportEntry, reportLimits);
    if (!report)
        return report.error();
    auto out = fromReportText(*report, path + ": " + kBundleReportEntry);
    if (!out)
        return out.error();
    if (!out->isBundle)
        return out; // a zip holding a plain snapshot: nothing else to apply
    ZipLimits fileLimits;
    fileLimits.maxEntryBytes = kCatalogLimits.maxBytes;
    fileLimits.maxTotalBytes = 2 * kCatalogLimits.maxBytes;
    auto entries = zip.many(
        [](const std::string& name) {
            return name == kSettingsEntry || name.rfind(kCatalogPrefix, 0) == 0;
        },
        fileLimits);
    if (!entries)
        return entries.error();
    for (auto& [name, bytes] : *entries) {
        if (name == kSettingsEntry) {
            // The limit the user's own StackPilot reads settings.json under.
            if (bytes.size() > kSettingsLimits.maxBytes)
                return Error::invalid(path + ": " + name + ": " + std::to_string(bytes.size()) +
                                      " bytes is more than " +
                                      std::to_string(kSettingsLimits.maxBytes) +
                                      " allowed for settings; refused");
            out->settingsText = std::move(bytes); // the file itself, rather than the report's
        } else if (auto base = name.substr(std::string(kCatalogPrefix).size());
                   isPlainCatalogFileName(base)) {
            out->catalogFiles.emplace_back(std::move(base), std::move(bytes));
        } else {
            out->skippedEntries.push_back(name); // e.g. a name redaction turned into "<user>"
        }
    }
    // The order the user's StackPilot read its catalog.d in (jsonFiles sorts by name).
    std::sort(out->catalogFiles.begin(), out->catalogFiles.end());
    out->isZip = true;
    return out;
}

} // namespace

bool isPlainCatalogFileName(const std::string& name)
{
    constexpr std::string_view kSuffix = ".json";
    if (name.size() <= kSuffix.size() || name.size() > 255 ||
        name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
        return false;
    if (name.front() == '.' || name.find("..") != std::string::npos)
        return false;
    for (const unsigned char c : name)
        if (c < 0x20 ||
            std::string_view("/\\:*?\"<>|").find(static_cast<char>(c)) != std::string_view::npos)
            return false;
    return true;
}

Expected<BundlePlanInputs> loadBundlePlanInputs(const std::string& path)
{
    const auto file = paths::fromUtf8(path);
    if (fileLooksLikeZip(file))
        return fromZip({[&](const std::string& name, const ZipLimits& l) {
                            return readZipEntry(file, name, l);
                        },
                        [&](const ZipEntryFilter& wanted, const ZipLimits& l) {
                            return readZipEntries(file, wanted, l);
                        }},
                       path);
    auto text = readRegularFile(file, kSnapshotLimits.maxBytes, "hardware snapshot");
    if (!text)
        return text.error();
    return fromReportText(*text, path);
}

Expected<BundlePlanInputs> bundlePlanInputsFromBytes(std::string_view bytes,
                                                     const std::string& origin)
{
    if (!looksLikeZip(bytes))
        return fromReportText(std::string(bytes), origin);
    return fromZip({[&](const std::string& name, const ZipLimits& l) {
                        return readZipEntryFromBytes(bytes, name, l, origin);
                    },
                    [&](const ZipEntryFilter& wanted, const ZipLimits& l) {
                        return readZipEntriesFromBytes(bytes, wanted, l, origin);
                    }},
                   origin);
}

} // namespace sp
