#pragma once
// The folder of installed runtimes (default <data>/runtimes/):
//
//   <root>/<id>/                   a runtime, complete and verified
//   <root>/<id>.receipt.json       what it consists of
//   <root>/.staging-<id>-<rand>/   an install in progress
//   <root>/.trash-<id>-<rand>/     a runtime being deleted
//   <root>/.locks/<id>.lock        held by the process installing <id>
//
// A runtime counts as installed only when BOTH its folder and its receipt exist.
// Commit order, so a crash at any point leaves either the old state or the new:
//   1. everything is extracted and hashed in .staging-<id>-<rand>/
//   2. an existing <id>/ is renamed to .trash-<id>-<rand>/  (now: not installed)
//   3. the receipt is written atomically (temp file + rename)  (still no folder)
//   4. .staging-<id>-<rand>/ is renamed to <id>/                (installed)
//   5. the trash is deleted
// Uninstall renames <id>/ to the trash first, then deletes the receipt, then the
// trash. Recovery (under the runtime's lock) deletes staging and trash folders and
// a receipt whose folder is missing; a folder without a receipt is moved to the
// trash, since nothing can say whether it is complete.
//
// Ownership (core/ownership.h): a staging folder gets its owner marker before its
// first file and keeps it as the runtime's folder and as trash. Nothing without the
// marker is ever removed or renamed, whatever its name; a receipt is removed only when
// it parses as StackPilot's receipt for that id.

#include "core/expected.h"
#include "installers/receipt.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sp {

class PrefixStore
{
public:
    explicit PrefixStore(std::filesystem::path root = {}); // empty = defaultRoot()
    static std::filesystem::path defaultRoot();            // <data>/runtimes

    const std::filesystem::path& root() const { return m_root; }
    std::filesystem::path runtimeDir(const std::string& id) const;
    std::filesystem::path receiptFile(const std::string& id) const;

    // Ids become folder names: letters, digits, '.', '_', '-', '+', not starting with '.'.
    static Expected<void> checkId(const std::string& id);

    Expected<void> ensureRoot() const;
    bool isInstalled(const std::string& id) const;
    Expected<Receipt> receipt(const std::string& id) const;
    std::vector<std::string> installedIds() const; // sorted

    // The caller holds the runtime's InstallLock for everything below.
    Expected<std::filesystem::path> makeStaging(const std::string& id) const;
    Expected<void> commit(const std::string& id, const std::filesystem::path& staging,
                          const Receipt& receipt) const;
    // Fails, naming the path, when `id`'s folder or receipt exists but was not made by
    // StackPilot: no verb may then remove or replace it.
    Expected<void> checkOwnership(const std::string& id) const;
    Expected<void> remove(const std::string& id) const;
    // Cleans leftovers of `id` that StackPilot made; returns one line per thing removed
    // (or, with dryRun, that would be), and one per leftover-looking thing left alone.
    std::vector<std::string> recover(const std::string& id, bool dryRun = false) const;

    // Cleans leftovers of every runtime whose lock is free (start-up recovery).
    std::vector<std::string> recoverAll(bool dryRun = false) const;

private:
    std::filesystem::path uniqueSibling(const std::string& prefix, const std::string& id) const;
    void removeTree(const std::filesystem::path& p) const;
    bool isOurReceipt(const std::string& id) const;

    std::filesystem::path m_root;
};

} // namespace sp
