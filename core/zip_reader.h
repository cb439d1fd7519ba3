#pragma once
// Reading entries out of a zip (a diagnostics bundle), with libarchive, under limits
// of its own so that a hostile zip cannot exhaust memory or time: the archive's size,
// how many entries it lists, the entry's size (declared and actual) and how far its
// bytes expand (compression ratio). Only the entries asked for are ever decompressed.
// Errors are one line naming the file and the entry: "bundle.zip: report.json: ...".

#include "core/expected.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sp {

struct ZipLimits
{
    std::uint64_t maxArchiveBytes = std::uint64_t{512} << 20;
    std::size_t maxEntries = 10000;
    std::uint64_t maxEntryBytes = 4u << 20;
    // Uncompressed : compressed. Checked once an entry has produced ratioFloorBytes, so a
    // small entry that happens to compress well is never refused.
    double maxRatio = 100.0;
    std::uint64_t ratioFloorBytes = 256u << 10;
    // All the entries one call reads, together.
    std::uint64_t maxTotalBytes = std::uint64_t{64} << 20;
};

using ZipEntries = std::vector<std::pair<std::string, std::string>>; // name, bytes
using ZipEntryFilter = std::function<bool(const std::string& name)>;

// True when `head` (a file's first bytes) starts like a zip archive.
bool looksLikeZip(std::string_view head);
// True when `file` is a regular file that starts like a zip archive.
bool fileLooksLikeZip(const std::filesystem::path& file);

// The bytes of the entry named `entryName` (exact path inside the zip).
Expected<std::string> readZipEntry(const std::filesystem::path& zip, const std::string& entryName,
                                   const ZipLimits& limits);
// Every entry whose name `wanted` accepts, in the zip's order (none is not an error).
Expected<ZipEntries> readZipEntries(const std::filesystem::path& zip, const ZipEntryFilter& wanted,
                                    const ZipLimits& limits);
// The same from bytes in memory (tests, fuzzing); `origin` names them in errors.
Expected<std::string> readZipEntryFromBytes(std::string_view zip, const std::string& entryName,
                                            const ZipLimits& limits, const std::string& origin);
Expected<ZipEntries> readZipEntriesFromBytes(std::string_view zip, const ZipEntryFilter& wanted,
                                             const ZipLimits& limits, const std::string& origin);

} // namespace sp
