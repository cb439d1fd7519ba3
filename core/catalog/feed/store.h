#pragma once
// The installed catalog feed: <data>/feed/ holds up to three verified versions, each
// in its own folder (v<version>/ with manifest.json, manifest.json.minisig and
// catalog/*.json), and state.json naming the one in use. A new version is filled and
// checked in a staging folder, renamed into place, and only then does state.json
// (replaced atomically) point at it: a machine plans from the old version or the new
// one, never from half of either.

#include "core/catalog/feed/manifest.h"
#include "core/expected.h"

#include <QLockFile>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sp::feed {

inline constexpr std::size_t kKeptVersions = 3;

struct FeedState
{
    std::string active;              // folder name, "v142"
    std::int64_t highestVersion = 0; // the highest version ever installed (rollback floor)
    std::string source;              // the feed URL or folder it came from
    std::string key;                 // the "RW…" key that signed it
    std::string keyId;               // its id, 16 hex digits
    std::string installed;           // ISO 8601 UTC
};

struct InstalledVersion
{
    std::filesystem::path folder;
    Manifest manifest;
};

class FeedStore
{
public:
    // Empty root: sp::paths::dataDir()/"feed".
    explicit FeedStore(std::filesystem::path root = {});
    const std::filesystem::path& root() const { return m_root; }

    // The state, or nullopt when no feed was ever installed.
    [[nodiscard]] Expected<std::optional<FeedState>> state() const;
    // The folder of catalog files in use, or empty when none (the shipped one is used).
    std::filesystem::path activeCatalogDir() const;
    // The kept versions, newest first (folders whose manifest reads back).
    std::vector<InstalledVersion> kept() const;

    // A new, empty, owned staging folder under root.
    [[nodiscard]] Expected<std::filesystem::path> createStaging() const;
    // Renames a verified staging folder to v<version>, points state.json at it and
    // removes all but the newest kKeptVersions (never the active one).
    [[nodiscard]] Expected<void> commit(const std::filesystem::path& staging,
                                        const Manifest& manifest, FeedState state) const;
    // Held while an update or a rollback changes the store, so two StackPilots never
    // switch at once (<root>/feed.lock, QLockFile). An error when another holds it.
    [[nodiscard]] Expected<std::unique_ptr<QLockFile>> lock() const;
    // Points state.json at the newest kept version older than the active one.
    [[nodiscard]] Expected<InstalledVersion> rollback() const;

private:
    Expected<void> writeState(const FeedState& s) const;
    void prune(const std::string& active) const;

    std::filesystem::path m_root;
};

// The installed feed's catalog folder for the loader, or empty (core/catalog/loader).
std::filesystem::path installedCatalogDir();

} // namespace sp::feed
