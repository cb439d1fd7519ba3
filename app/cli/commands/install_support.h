#pragma once
// What install, repair, uninstall, verify and gc share: reading --prefix-root and the
// install source options, the progress display and Ctrl-C handling.

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

namespace sp::session {
class Session;
struct Outcome;
} // namespace sp::session

namespace sp::cli {

// --prefix-root DIR (Option::PrefixRoot), or empty for the default root.
std::filesystem::path prefixRootOf(const QCommandLineParser& p);

// --offline DIR (artifacts from DIR, never the network) and --accept-changed (an
// unpinned download whose bytes changed since first installed here is accepted and
// re-pinned): Option::InstallSource, as install and run take them. False (after a
// message) on a bad value.
bool readInstallSourceOptions(const QCommandLineParser& p, Io& io, const std::string& verb,
                              InstallOptions& options);

// Installs `runtimes` through a session (app/common/session) with a progress display on
// `io`; fills `report` (JSON) and returns the exit code. Ctrl-C cancels cleanly.
int installRuntimes(const std::vector<const Runtime*>& runtimes, InstallOptions options,
                    const std::string& verb, Io& io, bool json, nlohmann::json& report);

// How an install or a repair job ended: each runtime installed, or the error; said on
// `io` (or in `report`, printed as JSON) and returned as the exit code.
int reportInstalled(const session::Outcome& outcome, const std::string& verb, Io& io, bool json,
                    nlohmann::json& report);

// Waits in a local loop for the session's job that `started` says began (false: one was
// already running), and returns how it ended. Meanwhile SIGINT and SIGTERM cancel it
// (first: stop, second: kill): the handler only writes a byte, which this loop reads.
const session::Outcome& waitFor(session::Session& session, bool started);

int fail(Io& io, const std::string& verb, const Error& e);

} // namespace sp::cli
