#pragma once
// The diagnostics bundle: one zip that answers what a helper would ask, with every
// entry redacted (app/common/diag/redact.h). `stackpilot-cli diag export` and the
// window's Help > Export diagnostics both run
//
//     collect(options)  -> Bundle         (worker thread: runs detection and verify)
//     list(bundle)      -> review list     (any thread; what `--list` prints)
//     write(bundle, …)  -> the zip file    (worker thread)
//
// collect() and write() block and touch no widget: call them off the GUI thread. They
// poll `options.cancel` between steps and entries, and report through
// `options.progress` (called on the calling thread). The same state gives the same
// bytes: entries come in a fixed order with fixed zip headers, and nothing in them says
// when the bundle was made. docs/DIAGNOSTICS.md lists what goes in and the limits.

#include "app/common/diag/redact.h"
#include "core/cancel_token.h"
#include "core/clock.h"
#include "core/expected.h"
#include "core/launch/env_composer.h"
#include "core/snapshot.h"
#include "detectors/detect.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sp::diag {

inline constexpr int kBundleSchema = 1;
inline constexpr std::size_t kLaunchLogs = 3;                // logs shipped, newest first
inline constexpr std::size_t kRecentLaunches = 10;           // launches summarised
inline constexpr std::uint64_t kLogTailBytes = 5u << 20;     // each launch log: its last 5 MB
inline constexpr std::uint64_t kFileBytes = 16u << 20;       // receipts, catalog overrides
inline constexpr std::uint64_t kProbeStreamBytes = 1u << 20; // each probe's stdout/stderr
inline constexpr std::size_t kCatalogOverrideFiles = 200;
inline constexpr std::size_t kVerifyProblemsListed = 20; // per runtime; all are counted

struct Entry
{
    std::string name;  // path in the zip ("report.md", "launches/<profile>/<stamp>.log")
    std::string bytes; // after redaction
    RedactionCounts redactions;
    std::string note; // "last 5242880 of 9000000 bytes", or empty
};

struct Bundle
{
    std::vector<Entry> entries; // in the order they are written
    RedactionCounts redactions; // over every entry (names included)
    nlohmann::json report;      // report.json as written
};

struct Progress
{
    std::string step; // "catalog", "hardware", "plans", "verify <id>", "redact", ...
    int done = 0;
    int total = 0;
};

struct CollectOptions
{
    // The machine: this snapshot (e.g. --hardware FILE) instead of detecting.
    std::optional<HardwareSnapshot> snapshot;
    std::string snapshotOrigin;                     // the file it came from, for the report
    DetectOptions detect;                           // used when no snapshot is given
    std::vector<std::filesystem::path> catalogDirs; // --catalog-dir
    // The workload whose environment difference and doctor findings the report shows;
    // empty = the last launched one, else the first with a fitting profile.
    std::string workload;
    std::optional<EnvMap> environment; // empty = this process's
    std::optional<Identity> identity;  // empty = Identity::fromEnvironment()
    CancelToken cancel;
    std::function<void(const Progress&)> progress;
};

// The shipped catalog's identity (it has no version field): each file's SHA-256 and one
// digest over them. report.json carries it as catalog.digest, so that a helper's
// `plan --hardware BUNDLE` can tell whether it plans with the catalog the user had.
struct CatalogIdentity
{
    nlohmann::json files; // [{"name", "sha256"}]
    std::string digest;
};
CatalogIdentity shippedCatalogIdentity();

// Errors: invalid input when an explicitly named --catalog-dir is broken, cancelled when
// the token was pulled. Everything else that fails (detection, a broken settings.json,
// an unreadable receipt) is reported inside the bundle, which is what it is for.
Expected<Bundle> collect(const CollectOptions& options);

struct ListItem
{
    std::string name;
    std::uint64_t bytes = 0;
    RedactionCounts redactions;
    std::string note;
};
// The review list: every entry, its size after redaction and what was redacted in it.
std::vector<ListItem> list(const Bundle& bundle);
// {"entries": [{"name", "bytes", "redactions": {kind: n}, "note"}], "redactions": {...}}
nlohmann::json listJson(const Bundle& bundle);

// The zip, built in memory with libarchive: deflated entries in bundle order, mode 0644,
// no owner, no time (every header says 1980-01-01), so equal bundles give equal bytes.
Expected<std::string> zipBytes(const Bundle& bundle);

enum class Overwrite
{
    Never, // an existing file is an error (StackPilot never replaces what it did not write)
    Allow, // the user named this file (-o, a save dialog that asked): replace it
};
// Writes to a temporary file in the target's folder, then renames it into place.
Expected<void> write(const Bundle& bundle, const std::filesystem::path& file, Overwrite mode);
// "stackpilot-diagnostics-20261124T034500Z.zip" for the clock's now (UTC).
std::string defaultFileName(const Clock& clock);
// Writes to `dir`/defaultFileName(), or a "-2", "-3", ... name when that exists; never
// replaces anything. Returns the path written.
Expected<std::filesystem::path> writeNew(const Bundle& bundle, const std::filesystem::path& dir,
                                         const Clock& clock = Clock::system());

} // namespace sp::diag
