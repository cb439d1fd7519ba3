#pragma once
// Trust on first use for downloads the catalog does not pin: the first time an
// artifact without a catalog SHA-256 is downloaded on this machine, its digest and size
// are kept (<data>/pins.json); a later download of the same URL with other bytes is
// refused, unless the user accepts the change, which records the new digest. What a
// release page swapped silently is then noticed instead of installed.

#include "core/expected.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

namespace sp {

struct DownloadPin
{
    std::string sha256;
    std::uint64_t size = 0;
    std::string firstSeen; // ISO 8601 UTC
};

// Where a download's expected digest comes from, as the plan and preflight say it.
enum class PinOrigin
{
    Catalog, // the catalog pins it
    Here,    // first seen on this machine
    New      // not pinned anywhere yet: pinned when first downloaded
};
const char* toString(PinOrigin o); // "catalog" | "here" | "new"

// The pins of a pins.json document; `where` names it in errors.
Expected<std::map<std::string, DownloadPin>> parsePins(const nlohmann::json& doc,
                                                       const std::string& where);

class PinStore
{
public:
    explicit PinStore(std::filesystem::path file = defaultFile());
    static std::filesystem::path defaultFile(); // <data>/pins.json

    Expected<std::map<std::string, DownloadPin>> all() const;
    Expected<std::optional<DownloadPin>> find(const std::string& url) const;

    // Compares what was downloaded from `url` with its pin: records it when there is
    // none (or when `acceptChanged`), refuses it with the user's words when it changed.
    Expected<void> check(const std::string& url, const DownloadPin& got, bool acceptChanged) const;

    const std::filesystem::path& file() const { return m_file; }
    // The URLs pinned here (what a plan marks "pinned here"); empty when the file
    // cannot be read.
    std::set<std::string> urls() const;

private:
    std::filesystem::path m_file;
};

} // namespace sp
