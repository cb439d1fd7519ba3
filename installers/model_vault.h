#pragma once
// The model vault (docs/MODELS.md): one content-addressed store, <data>/models, shared
// by every workload and profile. A file lives at blobs/sha256-<hex>; index.json says
// what each blob is (model, file name, size, where it came from, how it is stored) and
// which workloads use it. A pull goes through the downloader (resumable, verified,
// atomic); a file with per-piece digests has a bad piece fetched again alone. The vault
// removes only what it created: blobs it downloaded and links it made.

#include "core/cancel_token.h"
#include "core/catalog/types.h"
#include "core/expected.h"
#include "installers/downloader.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sp {

enum class VaultStorage
{
    Owned,     // downloaded into blobs/ by StackPilot
    Linked,    // a hard link in blobs/ to a user's file (same filesystem: zero bytes)
    Referenced // the user's file where it is (another filesystem): never touched
};
const char* toString(VaultStorage s); // "owned" | "linked" | "referenced"

struct VaultFile
{
    std::string sha256;
    std::uint64_t size = 0;
    std::string name;   // the file's name as its source calls it
    std::string model;  // the catalog model id, or "" for an imported file
    std::string source; // the URL it was pulled from, or the user's path
    VaultStorage storage = VaultStorage::Owned;
    std::filesystem::path path; // where the bytes are (the blob, or the user's file)
};

// The index's form of a file, also what `models --json` prints.
nlohmann::json toJson(const VaultFile& f);

struct PullOptions
{
    DownloaderOptions downloader;
    CancelToken cancel;
    ProgressFn progress;
};

struct PullReport
{
    std::string model;
    std::vector<VaultFile> files;
    std::uint64_t networkBytes = 0;  // received over the network in this pull
    std::uint64_t replayedBytes = 0; // taken from a pull that was cut off
    int piecesRefetched = 0;         // bad pieces fetched again alone
    bool alreadyThere = false;
    std::vector<std::string> notes; // what happened, in words ("piece 3 of 64 was wrong ...")
};

class ModelVault
{
public:
    explicit ModelVault(std::filesystem::path root); // <data>/models
    static std::filesystem::path defaultRoot();      // paths::dataDir() / "models"

    const std::filesystem::path& root() const { return m_root; }
    std::filesystem::path blobPath(const std::string& sha256) const;

    // Every file of `model` into the vault; blocking (a worker's call).
    Expected<PullReport> pull(const Model& model, const PullOptions& options);
    // The files the index lists (an empty vault: none).
    Expected<std::vector<VaultFile>> files() const;
    // Where `model`'s first file is when all of its files are in the vault.
    std::optional<std::filesystem::path> pathOf(const Model& model) const;
    // Re-hashes every file; the ones whose bytes changed, in words.
    Expected<std::vector<std::string>> verify() const;
    // Forgets `model`'s files; deletes the blobs and links StackPilot made, never a
    // user's referenced file. Returns the bytes freed.
    Expected<std::uint64_t> remove(const std::string& model);
    // Registers files found elsewhere (`models import`), by digest.
    Expected<void> record(const std::vector<VaultFile>& files);

private:
    Expected<VaultFile> pullFile(const Model& model, const ModelFile& file,
                                 const PullOptions& options, PullReport& report);
    Expected<VaultFile> fetchFile(const ModelFile& file, VaultFile v, const PullOptions& options,
                                  PullReport& report);
    std::filesystem::path m_root;
};

} // namespace sp
