#pragma once
// The window's installer lives in a module (stackpilot-install) that InstallJob loads on
// its worker thread at the first install. libcurl, libarchive and libgit2, with some
// thirty libraries they pull in (TLS, Kerberos, LDAP, SSH), then cost the window
// nothing at start-up; the CLI links the installer directly.

#include "core/catalog/types.h"
#include "core/expected.h"
#include "installers/installer.h"

#include <string>
#include <vector>

namespace sp::gui {

// The module's entry point: installs `runtimes` in order with `options` (its settings'
// folders applied first); 0 when all are installed, else the failing ErrorCode with
// `error` set to the message.
using InstallAllFn = int (*)(const std::vector<Runtime>* runtimes, const InstallOptions* options,
                             std::string* error);
inline constexpr const char* kInstallAllSymbol = "stackpilot_install_all";

struct InstallModule
{
    InstallAllFn installAll = nullptr;
};

// Finds and loads the module: STACKPILOT_INSTALL_MODULE (tests set it), next to the
// executable, or in ../lib/stackpilot. The error names every place it looked.
Expected<InstallModule> loadInstallModule();

} // namespace sp::gui
