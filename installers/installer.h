#pragma once
// Installs one runtime: takes its lock, cleans leftovers of an earlier crash,
// checks free space, then streams every artifact (in parallel) from the fetcher
// through an ExtractSink into one staging folder. Only when every artifact's size
// and SHA-256 matched and every entry was written does the PrefixStore commit it
// (receipt, then an atomic folder rename). Any failure removes the staging folder.
// A runtime whose one artifact has format "git" is checked out at its pinned commit
// into the staging folder instead (installers/git_checkout.h); the rest is the same.

#include "core/catalog/types.h"
#include "core/clock.h"
#include "core/events.h"
#include "core/expected.h"
#include "core/settings.h"
#include "installers/downloader.h"
#include "installers/extract.h"
#include "installers/fetcher.h"
#include "installers/prefix_store.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sp {

struct InstallOptions
{
    std::filesystem::path prefixRoot; // empty = PrefixStore::defaultRoot()
    std::optional<std::filesystem::path> offlineDir;
    bool allowNetwork = true;
    bool force = false; // reinstall even when installed (repair)
    Settings settings;
    DownloaderOptions downloader;
    std::chrono::milliseconds lockTimeout{-1}; // negative: wait as long as it takes
    // Free space asked for before starting: declared size x this factor (the
    // download cache copy plus the unpacked files).
    double spaceFactor = 3.0;
    CancelToken cancel;
    events::InstallSink onEvent;  // called from worker threads too
    const Clock* clock = nullptr; // stamps the receipt; null = Clock::system()
    // Trust on first use for artifacts the catalog does not pin (installers/pin_store.h).
    std::filesystem::path pinFile; // empty: PinStore::defaultFile()
    bool acceptChangedDownloads = false;
};

struct InstalledArtifact
{
    std::string url;
    FetchResult fetch;
    std::uint64_t extractedBytes = 0;
};

struct InstallResult
{
    std::string id;
    bool alreadyInstalled = false;
    std::filesystem::path dir;
    std::vector<InstalledArtifact> artifacts;
    std::vector<std::string> warnings;
    std::size_t files = 0;
};

class Installer
{
public:
    explicit Installer(InstallOptions options);
    ~Installer();

    Expected<InstallResult> install(const Runtime& runtime);
    const PrefixStore& store() const { return m_store; }

    // The URL's last path segment, without query: the artifact's display name.
    static std::string artifactName(const Artifact& a);
    // Artifact::maxExtractedSize, else 20 x the declared size, else the settings' cap.
    static std::uint64_t extractCap(const Artifact& a, const Settings& s);

private:
    Expected<InstallResult> installLocked(const Runtime& runtime);
    // The stages of installLocked, in order.
    std::optional<InstallResult> alreadyInstalled(const Runtime& rt) const;
    Expected<void> checkFreeSpace(const Runtime& rt) const;
    Expected<std::vector<std::unique_ptr<ExtractSink>>>
    makeSinks(const Runtime& rt, const std::filesystem::path& stagingDir,
              StagingClaims& claims) const;
    Expected<void> fetchAll(const Runtime& rt, std::vector<std::unique_ptr<ExtractSink>>& sinks,
                            std::vector<std::optional<Expected<FetchResult>>>& fetched);
    Expected<void>
    firstFetchError(const Runtime& rt,
                    const std::vector<std::optional<Expected<FetchResult>>>& fetched) const;
    // Fetches (or checks out) every artifact into the staging folder, fills the receipt.
    Expected<void> stageArtifacts(const Runtime& rt, const std::filesystem::path& stagingDir,
                                  Receipt& receipt, InstallResult& result);
    // A runtime whose one artifact is a git repository pinned to a commit.
    Expected<void> checkoutGit(const Runtime& rt, const std::filesystem::path& stagingDir,
                               Receipt& receipt, InstallResult& result);
    void fillReceiptHeader(const Runtime& rt, Receipt& receipt) const;
    // Unpinned artifacts: the digest first seen for their URL, or the refusal.
    Expected<void>
    checkFirstUsePins(const Runtime& rt,
                      const std::vector<std::optional<Expected<FetchResult>>>& fetched) const;
    std::string now() const; // ISO 8601 UTC, from the options' clock
    void fillReceipt(const Runtime& rt, const std::vector<std::unique_ptr<ExtractSink>>& sinks,
                     const std::vector<std::optional<Expected<FetchResult>>>& fetched,
                     Receipt& receipt, InstallResult& result);
    // Runs the runtime's exe-installer artifacts, which are in the staging folder.
    Expected<void> runInstallers(const Runtime& runtime, const std::filesystem::path& stagingDir,
                                 Receipt& receipt);
    void notify(const events::FromInstall& e) const;
    void notice(const std::string& runtime, std::string text) const;
    void progress(const std::string& runtime, int artifact, const std::string& name,
                  const DownloadProgress& p) const;

    InstallOptions m_o;
    PrefixStore m_store;
    std::unique_ptr<Fetcher> m_fetcher;
};

} // namespace sp
