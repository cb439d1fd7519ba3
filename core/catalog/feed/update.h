#pragma once
// Taking a catalog feed: fetch the manifest and its minisign signature, check them
// against the trusted keys and the trust rules, fetch every file with its listed size
// and SHA-256 into a staging folder, load the staged catalog with the loader's own
// checks, and only then switch (FeedStore::commit). docs/FEED.md.

#include "core/catalog/feed/manifest.h"
#include "core/catalog/feed/minisign.h"
#include "core/catalog/feed/store.h"
#include "core/expected.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sp::feed {

// Where a feed's files come from: a folder (catalog verify DIR, tests) or a URL
// (installers/feed_http_source.h, over libcurl).
class FeedSource
{
public:
    virtual ~FeedSource() = default;
    virtual std::string location() const = 0;
    // A small file of the feed (manifest.json, manifest.json.minisig): at most maxBytes.
    [[nodiscard]] virtual Expected<std::string> fetchText(const std::string& name,
                                                          std::size_t maxBytes) const = 0;
    // A listed file into `dest`: never more than file.size bytes are read, and the
    // size and SHA-256 must be the listed ones.
    [[nodiscard]] virtual Expected<void> fetchFile(const FeedFile& file,
                                                   const std::filesystem::path& dest) const = 0;
};

class DirectorySource : public FeedSource
{
public:
    // A trailing separator is dropped, so errors name "DIR/manifest.json", never "DIR//…".
    explicit DirectorySource(std::filesystem::path dir);
    std::string location() const override;
    Expected<std::string> fetchText(const std::string& name, std::size_t maxBytes) const override;
    Expected<void> fetchFile(const FeedFile& file,
                             const std::filesystem::path& dest) const override;

private:
    std::filesystem::path m_dir;
};

// The keys that ship with this StackPilot (two, so that one can be rotated).
std::vector<PublicKey> shippedKeys();

struct TrustOptions
{
    std::vector<PublicKey> keys; // shipped keys plus lab keys (settings, --pubkey)
    std::int64_t now = 0;        // seconds since the epoch; 0 = the clock
    std::string thisVersion;     // empty = STACKPILOT_VERSION
};

enum class Outcome
{
    Installed, // switched to the feed's version
    UpToDate,  // the installed version is the feed's
    Skipped,   // the feed is for a newer StackPilot
    Verified,  // verify: every check passed, nothing installed
};

struct UpdateResult
{
    Outcome outcome = Outcome::Verified;
    Manifest manifest;
    std::string keyId;   // the key that signed, 16 hex digits
    std::string message; // one line for the user
};

// Every check but the store's: signature, manifest, expiry, files, the catalog loads.
[[nodiscard]] Expected<UpdateResult> verifyFeed(const FeedSource& source,
                                                const TrustOptions& options);
// verifyFeed, keeping what it checked in `dir`: dir/catalog/*.json (the feed's catalog,
// loaded once), manifest.json and its signature. Nothing is staged when the outcome is
// Skipped. `catalog diff` plans from dir/catalog.
[[nodiscard]] Expected<UpdateResult> verifyFeedInto(const FeedSource& source,
                                                    const TrustOptions& options,
                                                    const std::filesystem::path& dir);
// The checks, the rollback rule against `store`, then the switch.
[[nodiscard]] Expected<UpdateResult>
updateFeed(const FeedSource& source, const TrustOptions& options, const FeedStore& store);

// SHA-256 of a file in lower-case hex, or an error.
[[nodiscard]] Expected<std::string> sha256OfFile(const std::filesystem::path& file);

} // namespace sp::feed
