#pragma once
// The catalog verbs that read a whole catalog rather than a feed: `catalog check`
// (catalog_check.cpp) and `catalog diff` (catalog_diff.cpp). catalog.cpp dispatches.

#include "app/cli/command.h"
#include "core/catalog/feed/update.h"

#include <filesystem>
#include <string>

namespace sp::cli {

// catalog check [DIR] [--deep]: one line per artifact; 1 when any failed.
int runCatalogCheck(const QCommandLineParser& p, Io& io, const std::string& dir);
// catalog diff [DIR|URL]: the plans of this machine that the new catalog would change.
int runCatalogDiff(const QCommandLineParser& p, Io& io, const std::string& where);

// catalog reset-feed NAME [--yes]: forgets feed NAME's rollback floors (catalog_reset.cpp).
int runCatalogResetFeed(const QCommandLineParser& p, Io& io, const std::string& name);

// The feed `catalog diff` compares with (WHERE, else what `update` would take), verified
// as `catalog verify` does and kept in `dir` (catalog.cpp).
Expected<feed::UpdateResult> verifyFeedForDiff(const QCommandLineParser& p,
                                               const std::string& where,
                                               const std::filesystem::path& dir);

} // namespace sp::cli
