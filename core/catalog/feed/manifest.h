#pragma once
// The catalog feed's manifest (docs/FEED.md): which catalog files make up one version
// of the knowledge, with their sizes and SHA-256 digests. The manifest is what the
// maintainer signs; every byte a machine installs is checked against it.

#include "core/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sp::feed {

// A manifest is at most this large and this deep; it lists at most this many files,
// each at most this large.
inline constexpr std::size_t kMaxManifestBytes = 1u << 20;
inline constexpr int kMaxManifestDepth = 8;
inline constexpr std::size_t kMaxFeedFiles = 64;
inline constexpr std::uint64_t kMaxFeedFileBytes = 64u << 20;

struct FeedFile
{
    std::string path; // a plain file name: [A-Za-z0-9._-]+ ending in ".json"
    std::uint64_t size = 0;
    std::string sha256; // 64 lower-case hex digits
};

// Where users' results go (docs/LEDGER.md), when the feed names it: the ledger's address
// for an HTTPS PUT of each record, and a web form (a GitHub issue form) that a browser
// opens with the record filled in, for a feed without a ledger.
struct FeedSharing
{
    std::string ledger;     // "https://ledger.example.org/records", or ""
    std::string reportForm; // "https://github.com/o/r/issues/new?template=result.yml", or ""

    bool empty() const { return ledger.empty() && reportForm.empty(); }
};

struct Manifest
{
    std::string feed;          // the feed's name, e.g. "stackpilot"
    std::int64_t version = 0;  // monotonic; a lower one than installed is a rollback
    std::string published;     // ISO 8601 UTC, "2026-11-20T10:00:00Z"
    std::string expires;       // ISO 8601 UTC
    std::string minStackPilot; // "0.1.0": the oldest StackPilot that may use it
    std::vector<FeedFile> files;
    FeedSharing sharing; // "sharing": {"ledger": ..., "report_form": ...}, optional
};

// Parses and checks a manifest. Errors are one line naming `origin` and the position:
// "manifest.json:3:7: ..." for syntax, "manifest.json: /files/2/sha256: ..." for fields.
[[nodiscard]] Expected<Manifest> parseManifest(const std::string& text, const std::string& origin);
// The addresses as a manifest's "sharing" must give them; an error names the option
// (--ledger, --report-form) that is wrong.
[[nodiscard]] Expected<void> checkSharing(const FeedSharing& sharing);
// The manifest as the maintainer publishes it (stable key order, two-space indent).
std::string toJsonText(const Manifest& m);

// Seconds since the epoch of an ISO 8601 UTC time ("...Z" or "+00:00"), or an error.
[[nodiscard]] Expected<std::int64_t> parseUtcTime(const std::string& text);
// "a.b.c" compared numerically; missing parts are 0. -1, 0 or 1.
int compareVersions(const std::string& a, const std::string& b);
// A file name a feed may carry.
bool isValidFeedPath(const std::string& path);

} // namespace sp::feed
