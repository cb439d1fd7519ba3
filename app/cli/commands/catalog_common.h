#pragma once
// The one catalog-loading path of every verb: built-in catalog, the user's catalog.d/
// (broken files skipped with a warning) and each --catalog-dir (a broken file is an
// error, exit 3). Warnings and notices go to stderr the same way for every verb.

#include "app/cli/command.h"
#include "core/catalog/loader.h"

#include <optional>

namespace sp::cli {

// Prints warnings and notices to io.err; on failure prints the reason and returns nullopt.
// On failure prints "stackpilot-cli VERB: reason", sets *exitCode and returns nullopt.
// `userTexts`, when given, are read in place of <config>/catalog.d (plan --hardware BUNDLE).
std::optional<LoadedCatalog>
loadCatalogForCli(const QCommandLineParser& parser, Io& io, const std::string& verb, int* exitCode,
                  std::optional<std::vector<CatalogLoadOptions::Text>> userTexts = std::nullopt);

} // namespace sp::cli
