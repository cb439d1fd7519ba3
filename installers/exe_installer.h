#pragma once
// Runs a downloaded vendor installer (format "exe-installer", e.g. AMD's HIP SDK)
// silently, waits for it, and checks that it produced its install folder. The
// installer itself is kept in the runtime's prefix, so verify/repair see it, and
// the folder it installed to is recorded in the receipt.

#include "core/expected.h"
#include "installers/downloader.h"

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace sp {

struct SilentInstall
{
    std::filesystem::path installer;
    // Catalog arguments; "{log}" and "{install_dir}" are replaced.
    std::vector<std::string> args;
    std::string installDir; // where the installer puts its files; checked afterwards
    std::filesystem::path logFile;
    std::chrono::milliseconds timeout{std::chrono::minutes(30)};
};

struct SilentInstallResult
{
    int exitCode = 0;
    bool rebootRequired = false; // Windows installers answer 3010
    std::vector<std::string> argv;
};

std::vector<std::string> expandInstallerArgs(const SilentInstall& s);

// Errors name the installer, its exit code and the log file. On Windows an
// installer that needs administrator rights (exit 740) is started again through
// the elevation prompt.
Expected<SilentInstallResult> runSilentInstaller(const SilentInstall& s, const CancelToken& cancel);

} // namespace sp
