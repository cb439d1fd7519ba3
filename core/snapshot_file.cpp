// Reading a snapshot from text or a file, through the bounded JSON reader: a snapshot
// (detect --json), a diagnostics bundle's report.json, or the bundle zip itself. Kept
// apart from snapshot.cpp, which is plain C++ that the Windows build compiles without Qt.

#include "core/json_file.h"
#include "core/paths.h"
#include "core/snapshot.h"
#include "core/zip_reader.h"

namespace sp {

namespace {

ZipLimits bundleLimits()
{
    ZipLimits limits;
    limits.maxEntryBytes = kSnapshotLimits.maxBytes;
    return limits;
}

} // namespace

Expected<HardwareSnapshot> parseSnapshot(const std::string& text, const std::string& origin)
{
    auto j = parseJsonText(text, origin, kSnapshotLimits);
    if (!j)
        return j.error();
    if (j->is_object() && j->contains(kBundleSchemaKey)) {
        const auto it = j->find("hardware");
        if (it == j->end() || !it->is_object())
            return Error::invalid(origin + ": a diagnostics report without a \"hardware\" object");
        return snapshotFromJson(*it, origin + " (hardware)");
    }
    return snapshotFromJson(*j, origin);
}

Expected<HardwareSnapshot> loadSnapshotFile(const std::filesystem::path& file)
{
    const std::string path = paths::toUtf8(file);
    if (fileLooksLikeZip(file)) {
        auto report = readZipEntry(file, kBundleReportEntry, bundleLimits());
        if (!report)
            return report.error();
        return parseSnapshot(*report, path + ": " + kBundleReportEntry);
    }
    auto text = readRegularFile(file, kSnapshotLimits.maxBytes, "hardware snapshot");
    if (!text)
        return text.error();
    return parseSnapshot(*text, path);
}

Expected<HardwareSnapshot> snapshotFromBundleBytes(std::string_view zip, const std::string& origin)
{
    auto report = readZipEntryFromBytes(zip, kBundleReportEntry, bundleLimits(), origin);
    if (!report)
        return report.error();
    return parseSnapshot(*report, origin + ": " + kBundleReportEntry);
}

} // namespace sp
