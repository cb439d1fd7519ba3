#pragma once
// catalog publish: a maintainer's folder of catalog files becomes a feed folder
// (the files and manifest.json), which `minisign -Sm OUT/manifest.json` then signs.

#include "core/catalog/feed/manifest.h"
#include "core/expected.h"

#include <filesystem>

namespace sp::feed {

struct PublishOptions
{
    std::string feed = "stackpilot";
    std::int64_t version = 0;
    std::string expires;       // ISO 8601 UTC, after now
    std::string minStackPilot; // empty = this version
    std::int64_t now = 0;      // seconds since the epoch; 0 = the clock
    FeedSharing sharing;       // where users' results go; checked as the manifest checks it
};

// Loads DIR's *.json like the shipped catalog (a catalog that does not load is not
// published), copies them into OUT and writes OUT/manifest.json.
[[nodiscard]] Expected<Manifest> publishFeed(const std::filesystem::path& dir,
                                             const std::filesystem::path& out,
                                             const PublishOptions& options);

} // namespace sp::feed
