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

namespace sp::session {
class Session;
}

namespace sp::cli {

void addPrefixRootOption(QCommandLineParser& p);
std::filesystem::path prefixRootOf(const QCommandLineParser& p);

// --offline DIR (artifacts from DIR, never the network) and --accept-changed (an
// unpinned download whose bytes changed since first installed here is accepted and
// re-pinned), as install and run spell them. False (after a message) on a bad value.
void addInstallSourceOptions(QCommandLineParser& p);
bool readInstallSourceOptions(const QCommandLineParser& p, Io& io, const std::string& verb,
                              InstallOptions& options);

// Installs `runtimes` through a session (app/common/session) with a progress display on
// `io`; fills `report` (JSON) and returns the exit code. Ctrl-C cancels cleanly.
int installRuntimes(const std::vector<const Runtime*>& runtimes, InstallOptions options,
                    const std::string& verb, Io& io, bool json, nlohmann::json& report);

// While alive, SIGINT and SIGTERM cancel `session` (first: stop, second: kill).
class SessionInterrupts
{
public:
    explicit SessionInterrupts(session::Session& s);
    ~SessionInterrupts();
    SessionInterrupts(const SessionInterrupts&) = delete;
    SessionInterrupts& operator=(const SessionInterrupts&) = delete;

private:
    void (*m_int)(int) = nullptr;
    void (*m_term)(int) = nullptr;
};

int fail(Io& io, const std::string& verb, const Error& e);

} // namespace sp::cli
