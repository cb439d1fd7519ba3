#pragma once
// User settings kept in <config>/settings.json. A missing file means defaults; a
// file that is not valid JSON or has a wrong value is an error naming
// "file:line:col". Unknown keys are ignored so a newer StackPilot's file still loads,
// and written back as they were: every write keeps the keys (at any depth) and the
// mode and owner of the file, and refuses a read-only one (core/atomic_file.h).
// Changes go through update(), which reads, changes and writes under a cross-process
// lock, so the window, `run` and `remedy apply` never lose each other's changes.
//
// {
//   "proxy": "http://proxy.corp:3128",          // CURLOPT_PROXY; "" = environment only
//   "mirrors": {"github.com": ["https://mirror.example/github.com"]},
//   "mirrors_first": true,    // rewritten URLs tried before the original (else after)
//   "parallel_downloads": 3,  // 1..16
//   "max_extract_size": 68719476736, // bytes; bomb guard for artifacts without a bound
//   "keep_launches": 20,      // 1..1000 launch logs kept per profile
//   "stop_grace_ms": 5000,    // 0..600000: how long a stopped workload may take to exit
//   "console_code_page": 0,   // 0..65535; 0 = the system's (Windows consoles)
//   "install_dir": "",        // runtimes, venvs and step receipts; "" = <data>
//   "cache_dir": "",          // downloads and the shared pip cache; "" = <cache>
//   "probe_timeout_ms": 5000, // 100..600000: one vendor probe or tool at most this long
//   "open_browser": false,    // the window opens the workload's URL when it is announced
//   "language": "",           // "" = the system's; "en" or "zh_CN"
//   "theme": "",              // "" = the system's; "light" or "dark"
//   "workloads": {"llamafile": {          // per-workload overrides that remedies write
//       "profile": "", "accept_rejected": false, "env": {"K": "V"}, "args": ["--tinyblas"],
//       "relocate_caches": false, "repair": ["zluda-3.9.5-rocm5"],
//       "remedies": [{"issue": "hipblas-status-unknown", "action": "add_args",
//                     "applied_at": "2026-01-02T03:04:05Z", "before": {"args": {"--tinyblas":
//                     false}}}]}}
// }
//
// Mirror rules rewrite a URL's "scheme://host[:port]" into the prefix: with the rule
// above, https://github.com/a/b.zip becomes https://mirror.example/github.com/a/b.zip.
// The artifact's SHA-256 still decides whether a mirror's bytes are accepted.

#include "core/catalog/types.h"
#include "core/expected.h"
#include "core/gpu_identity.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sp {

// What an applied remedy replaced, field by field; a field it did not touch is absent.
// env and list entries are per item, so remedies that touch different items undo
// independently: env maps a variable to its old value (nullopt = was unset), args and
// repair map an item to whether it was already there.
struct RemedyBefore
{
    std::optional<std::string> profile; // "" = no forced profile
    std::map<std::string, std::optional<std::string>> env;
    std::map<std::string, bool> args;
    std::optional<bool> relocateCaches;
    std::map<std::string, bool> repair;
};

struct AppliedRemedy
{
    std::string issue; // known issue id
    RemedyAction action = RemedyAction::Info;
    std::string appliedAt; // ISO 8601 UTC, "2026-01-02T03:04:05Z"
    RemedyBefore before;
};

// Overrides for one workload (settings.json "workloads"), written by remedies.
struct WorkloadOverrides
{
    std::string profile; // force this profile; "" = the best one
    // The user confirmed `profile` although selection rejects it for a known issue
    // (the window asks first); a profile for another OS or vendor is still refused.
    bool acceptRejected = false;
    std::map<std::string, std::string> env;
    std::vector<std::string> args;
    bool relocateCaches = false;
    std::vector<std::string> repair; // runtime ids to reinstall
    std::vector<AppliedRemedy> remedies;
    // The GPU the user chose for this workload ("gpu": {"pci_bus", "pci_id", "name"});
    // nullopt: the default rule (chooseGpu).
    std::optional<GpuIdentity> gpu;
    // The model the workload runs with ("model": a catalog model id or a file), chosen on
    // its card; `run --model` wins over it. "" = the one that fits the card best.
    std::string model;
};

struct Settings
{
    std::optional<std::string> proxy;
    // A Hugging Face token for gated models ("hf_token"; else the HF_TOKEN variable): sent
    // only to huggingface.co (DownloaderOptions::bearer), shown masked, and redacted by
    // value from logs and bundles (its key names a secret: diag/redact.cpp).
    std::string hfToken;
    std::map<std::string, std::vector<std::string>> mirrors; // host -> URL prefixes
    bool mirrorsFirst = true;
    int parallelDownloads = 3;
    std::uint64_t maxExtractSize = std::uint64_t{64} << 30;
    int keepLaunches = 20;
    int stopGraceMs = 5000;
    int consoleCodePage = 0;          // 0 = the system's
    std::filesystem::path installDir; // empty = paths::dataDir()'s default
    std::filesystem::path cacheDir;   // empty = paths::cacheDir()'s default
    int probeTimeoutMs = 5000;
    bool openBrowser = false;
    std::string language; // "" = the system's
    std::string theme;    // "" = the system's, "light", "dark"
    // The workload the window showed last: it opens on it again ("" = the first one).
    std::string lastWorkload;
    // Sharing a smoke test's result with the ledger (docs/LEDGER.md): "ask" (once per stack
    // and card), "always" or "never"; and the ledger's address ("" = none: results wait
    // in the queue; STACKPILOT_LEDGER_URL also sets it).
    std::string shareResults = "ask";
    std::string ledgerUrl;
    std::map<std::string, WorkloadOverrides> workloads; // by workload id
    // A lab's list ("allowed_profiles", docs/LAB.md): only these profiles are ever
    // chosen; the others are listed as rejected with the reason. Empty = all.
    std::vector<std::string> allowedProfiles;
    // The JSON text these settings were read from ("" = defaults): its keys that this
    // version does not know are written back by toJson() and save().
    std::string document;

    // <config>/settings.json
    static std::filesystem::path defaultFile();
    static Expected<Settings> load(); // defaultFile(); missing = defaults
    static Expected<Settings> loadFile(const std::filesystem::path& file);
    // `name` is used in error messages ("name:line:col: ...").
    static Expected<Settings> parse(const std::string& text, const std::string& name);

    std::string toJson() const; // pretty-printed, round-trips through parse()
    // Makes paths::dataDir() and cacheDir() follow install_dir and cache_dir.
    void applyFolders() const;
    // Writes these settings over `file` atomically (core/atomic_file.h). Use update()
    // to change a file another process may be changing too.
    [[nodiscard]] Expected<void> save(const std::filesystem::path& file) const;

    // Reads `file` under its lock (settings.json.lock), applies `change` and writes the
    // result back if `change` succeeded; returns the settings as written. The lock is
    // waited for up to ten seconds, then the error names the process that holds it.
    using Change = std::function<Expected<void>(Settings&)>;
    [[nodiscard]] static Expected<Settings> update(const std::filesystem::path& file,
                                                   const Change& change);

    // The mirror URLs for `url` (empty when no rule matches its host).
    std::vector<std::string> mirrorUrlsFor(const std::string& url) const;
    // The URLs to try, in order: rule mirrors and the original(s), deduplicated.
    std::vector<std::string> expandUrls(const std::vector<std::string>& urls) const;
};

} // namespace sp
