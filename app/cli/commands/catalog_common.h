#pragma once
// Catalog loading shared by the `profiles` and `plan` verbs: built-in catalog, the
// user's catalog.d/ (broken files skipped with a warning) and each --catalog-dir
// (a broken file is an error, exit 3).

#include "app/cli/command.h"
#include "core/catalog/loader.h"

#include <optional>

namespace sp::cli {

// Prints warnings and notices to io.err; on failure prints the reason and returns nullopt.
std::optional<LoadedCatalog> loadCatalogForCli(const QCommandLineParser& parser, Io& io,
                                               int* exitCode);

} // namespace sp::cli
