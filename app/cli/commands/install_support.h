#pragma once
// What install, repair, uninstall, verify and gc share: the --prefix-root option,
// loading the catalog and settings, the progress display and Ctrl-C handling.

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "core/catalog/types.h"
#include "core/expected.h"
#include "installers/install_plan.h"
#include "installers/installer.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sp::cli {

void addPrefixRootOption(QCommandLineParser& p);
std::filesystem::path prefixRootOf(const QCommandLineParser& p);

// Installs `runtimes` in order with a progress display on `io`; fills `report`
// (JSON) and returns the exit code. Ctrl-C cancels cleanly (staging removed).
int installRuntimes(const std::vector<const Runtime*>& runtimes, InstallOptions options,
                    const std::string& verb, Io& io, bool json, nlohmann::json& report);

int fail(Io& io, const std::string& verb, const Error& e);

} // namespace sp::cli
