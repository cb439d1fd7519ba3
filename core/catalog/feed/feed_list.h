#pragma once
// The feeds a machine takes its catalog from, kept in settings.json (docs/FEED.md):
//   "feeds": [{"url": "https://lab.example/feed", "pubkey": "RWQ..."}]
// The list belongs to the feed code, not to sp::Settings: it is read from and written
// into Settings::document (the settings' own text, whose keys Settings does not know
// survive every write), always through Settings::update, which takes the file's lock.
// A feed URL is https://, or plain http:// to this machine only (127.0.0.0/8, ::1,
// localhost: a lab's own test server); the signature, not the transport, decides what
// is accepted.

#include "core/catalog/feed/minisign.h"
#include "core/catalog/feed/store.h"
#include "core/catalog/feed/update.h"
#include "core/expected.h"
#include "core/settings.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sp::feed {

// A settings.json lists at most this many feeds, each URL at most this long.
inline constexpr std::size_t kMaxFeeds = 64;
inline constexpr std::size_t kMaxFeedUrlBytes = 2048;

struct FeedEntry
{
    std::string url;    // the folder URL that serves manifest.json (or a folder path)
    std::string pubkey; // minisign's "RW..." line; empty: the shipped keys only
};

// settings.json "feeds"; an absent key is an empty list. `name` is used in errors.
Expected<std::vector<FeedEntry>> feedsFrom(const Settings& settings, const std::string& name);
// Adds `entry`, or replaces the entry with the same URL, in settings.document.
Expected<void> rememberFeed(Settings& settings, const FeedEntry& entry);
// Records `entry` in `file` under its lock (Settings::update).
Expected<void> rememberFeedIn(const std::filesystem::path& file, const FeedEntry& entry);

// The same feed, whatever trailing '/' either spelling has.
bool sameFeed(std::string a, std::string b);
// The keys a feed at `location` may be signed with: the shipped ones, the key `listed`
// names with it, and the key it was first taken with (`state`, when it is that feed's).
TrustOptions trustFor(const std::string& location, const std::vector<FeedEntry>& listed,
                      const std::optional<FeedState>& state);

// Refuses a URL that is neither https:// nor http:// to a loopback address.
Expected<void> checkFeedUrl(const std::string& url);
bool isLoopbackHttp(const std::string& url);

} // namespace sp::feed
