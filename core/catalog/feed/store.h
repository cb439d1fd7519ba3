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

// The rollback floor of one feed: the highest version of feed `feed` signed by key
// `keyId` ever installed here. Each feed and key has its own, so a lab's feed at 500
// never blocks the official one at 143, and no key can raise another key's floor.
struct FeedCounter
{
    std::string feed;  // the manifest's "feed"
    std::string keyId; // 16 hex digits
    std::int64_t highest = 0;
};

// A signed version above this is refused (JSON numbers stay exact far beyond it; a
// feed publishing once a minute for 4,000 years stays below it).
inline constexpr std::int64_t kMaxFeedVersion = std::int64_t{1} << 31;
// A version more than this far above its feed's floor is refused: a key that signed
// version 2^31 by mistake would otherwise end every later publication of that feed.
inline constexpr std::int64_t kMaxVersionJump = 10000;
inline constexpr std::size_t kMaxFeedCounters = 256;
// state.json is at most this large and this deep.
inline constexpr std::size_t kMaxStateBytes = 64u << 10;
inline constexpr int kMaxStateDepth = 4;

struct FeedState
{
    std::string active;                // folder name, "v142"
    std::vector<FeedCounter> counters; // one per feed and key
    std::string source;                // the feed URL or folder it came from
    std::string key;                   // the "RW…" key that signed it
    std::string keyId;                 // its id, 16 hex digits
    std::string installed;             // ISO 8601 UTC
    // "highest_version" of a state.json written before counters existed (0: none); the
    // store gives it to the feed and key in use (FeedStore::state).
    std::int64_t legacyHighest = 0;

    // The floor of (feed, keyId), or nullptr when that feed was never installed.
    const FeedCounter* counterFor(const std::string& feed, const std::string& keyId) const;
    // Raises (or adds) the floor of (feed, keyId) to `version`.
    void raise(const std::string& feed, const std::string& keyId, std::int64_t version);
};

// Parses state.json's text. Errors are one line naming `origin` and the position.
[[nodiscard]] Expected<FeedState> parseFeedState(const std::string& text,
                                                 const std::string& origin);
std::string toJsonText(const FeedState& s);

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

    // A new, empty, owned staging folder under root, naming this process as its holder
    // (held_folder.h); staging folders whose holder is gone are removed.
    [[nodiscard]] Expected<std::filesystem::path> createStaging() const;
    // Removes the staging folders of updates whose process is gone (held_folder.h).
    void removeAbandonedStaging() const;
    // Renames a verified staging folder to v<version>, points state.json at it and
    // removes all but the newest kKeptVersions (never the active one).
    [[nodiscard]] Expected<void> commit(const std::filesystem::path& staging,
                                        const Manifest& manifest, FeedState state) const;
    // Held while an update or a rollback changes the store, so two StackPilots never
    // switch at once (<root>/feed.lock, QLockFile). Only the switch holds it, never the
    // network. A lock file without holder information older than a few seconds (a crash
    // right after it was made) is stale. An error when another holds it.
    [[nodiscard]] Expected<std::unique_ptr<QLockFile>> lock() const;
    // Points state.json at the newest kept version older than the active one.
    [[nodiscard]] Expected<InstalledVersion> rollback() const;
    // Forgets the rollback floors of feed `name` (every key), so its next update may
    // take any version again. The counters it removed; an error when there were none.
    [[nodiscard]] Expected<std::vector<FeedCounter>> resetFeed(const std::string& name) const;

private:
    Expected<void> writeState(const FeedState& s) const;
    void prune(const std::string& active) const;

    std::filesystem::path m_root;
};

// The installed feed's catalog folder for the loader, or empty (core/catalog/loader).
std::filesystem::path installedCatalogDir();
// Where the installed feed says users' results go (empty: no feed, or it names none).
FeedSharing installedSharing();

} // namespace sp::feed
