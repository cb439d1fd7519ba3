#pragma once
// The one catalog-loading path of every verb: built-in catalog, the user's catalog.d/
// (broken files skipped with a warning) and each --catalog-dir (a broken file is an
// error, exit 3). Warnings and notices go to stderr the same way for every verb.

#include "app/cli/command.h"
#include "core/catalog/loader.h"
#include "core/select/select.h"
#include "core/snapshot.h"

#include <optional>

namespace sp::cli {

// Prints warnings and notices to io.err; on failure prints the reason and returns nullopt.
// On failure prints "stackpilot-cli VERB: reason", sets *exitCode and returns nullopt.
std::optional<LoadedCatalog> loadCatalogForCli(const QCommandLineParser& parser, Io& io,
                                               const std::string& verb, int* exitCode);

// --hardware FILE, --no-probes, --sysfs-root DIR: where a verb's snapshot comes from.
void addSnapshotOptions(QCommandLineParser& p);
// The snapshot from --hardware, else from detecting this machine. On failure prints
// "stackpilot-cli VERB: reason" (the file and position), sets *exitCode, returns nullopt.
std::optional<HardwareSnapshot> snapshotForCli(const QCommandLineParser& parser, Io& io,
                                               const std::string& verb, int* exitCode);
// The folders a plan uses for this snapshot (the host's, or the snapshot OS's defaults).
SelectSettings selectSettingsForCli(const HardwareSnapshot& snapshot);

} // namespace sp::cli
