#pragma once
// Every JSON document StackPilot reads from disk (snapshot, catalog, settings,
// receipts) goes through here: regular files only (a FIFO, device or folder is refused
// at once, without opening it), a size limit, and a nesting limit checked before the
// JSON parser builds anything, so no input can hang, exhaust memory or overflow the
// stack. Errors are one line naming the file and, where there is one, line:col.

#include "core/expected.h"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace sp {

struct JsonLimits
{
    std::uintmax_t maxBytes = 4u << 20;
    int maxDepth = 64;
};

inline constexpr JsonLimits kSnapshotLimits{4u << 20, 64};
inline constexpr JsonLimits kCatalogLimits{64u << 20, 64};
inline constexpr JsonLimits kSettingsLimits{1u << 20, 32};
inline constexpr JsonLimits kReceiptLimits{256u << 20, 16};

// The file's bytes, or an error naming what the path is when it is not a regular
// file ("is a FIFO", "is a directory") or when it is larger than maxBytes.
Expected<std::string> readRegularFile(const std::filesystem::path& file, std::uintmax_t maxBytes,
                                      const std::string& what);
// "file:line:col: nesting deeper than N" for the first bracket past the limit, or empty.
std::string checkJsonDepth(const std::string& text, const std::string& origin, int maxDepth);
// Parses with the depth check first; syntax errors carry line:col.
Expected<nlohmann::json> parseJsonText(const std::string& text, const std::string& origin,
                                       const JsonLimits& limits);
Expected<nlohmann::json> readJsonFile(const std::filesystem::path& file, const JsonLimits& limits,
                                      const std::string& what);

} // namespace sp

namespace sp {

// Writes `text` to FILE.tmp, then renames it over FILE, so a crash leaves the old file
// or the new one, never half of either. Creates the parent folder.
Expected<void> writeFileAtomic(const std::filesystem::path& file, const std::string& text);

} // namespace sp
