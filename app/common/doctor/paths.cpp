// Checks on where StackPilot and the user's files live: the install path (a), the
// network home (f).

#include "core/paths.h"

#include "app/common/doctor/doctor.h"
#include "core/strings.h"

#include <algorithm>

namespace sp::doctor {

namespace {

bool hasNonAscii(const std::string& s)
{
    return std::any_of(s.begin(), s.end(),
                       [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}

// A path component that is OneDrive's folder ("OneDrive", "OneDrive - Contoso").
bool underOneDrive(const std::string& path)
{
    for (const auto& part : splitList(lower(path), '\\')) {
        for (const auto& component : splitList(part, '/'))
            if (component.rfind("onedrive", 0) == 0)
                return true;
    }
    return false;
}

} // namespace

std::vector<Finding> checkInstallPath(const DoctorInput& in)
{
    std::vector<Finding> out;
    // The checks read the folder as text, as the tools that mangle it do.
    const std::string dir = paths::toUtf8(in.dataDir);
    const std::string fix = "Move StackPilot's data to a short local folder with only ASCII "
                            "characters (for example C:\\StackPilot or ~/stackpilot): set the "
                            "install folder in Settings (settings.json \"install_dir\") or "
                            "STACKPILOT_HOME, then install the runtimes again.";
    // Python, the HIP SDK's tools and several build scripts mangle or reject
    // non-ASCII paths (a user name with an accent is enough).
    if (hasNonAscii(dir))
        out.push_back({"install-path-non-ascii", "warning",
                       "the data folder " + dir + " contains non-ASCII characters", fix});
    // OneDrive replaces files with cloud placeholders and locks them while syncing:
    // a runtime can lose files or fail to update mid-launch.
    if (underOneDrive(dir))
        out.push_back({"install-path-onedrive", "warning",
                       "the data folder " + dir +
                           " is inside OneDrive, which syncs and may "
                           "offload the runtimes' files",
                       fix});
    // Program Files needs elevation to write: installs and pip fail or land in the
    // VirtualStore.
    if (lower(dir).find("program files") != std::string::npos)
        out.push_back({"install-path-program-files", "warning",
                       "the data folder " + dir +
                           " is under Program Files, which needs "
                           "administrator rights to write",
                       fix});
    return out;
}

std::vector<Finding> checkNetworkHome(const DoctorInput& in)
{
    if (!in.snapshot ||
        !(in.snapshot->home.network || isNetworkFilesystem(in.snapshot->home.filesystem)))
        return {};
    const auto& home = in.snapshot->home;
    std::string moved;
    if (in.plan && in.catalog) {
        for (const auto& var : in.catalog->cacheVariables) {
            auto it = in.plan->env.find(var.name);
            if (it != in.plan->env.end())
                moved += (moved.empty() ? "" : ", ") + var.name + "=" + it->second;
        }
    }
    Finding f{"network-home", "info",
              "the home folder " + home.path + " is on a network filesystem (" +
                  (home.filesystem.empty() ? "unknown type" : home.filesystem) +
                  "), where GPU kernel and model caches break",
              ""};
    if (moved.empty())
        f.fix = "Plan a workload (doctor --workload W) to see where its caches are "
                "relocated; StackPilot moves them to a local disk when it launches.";
    else
        f.fix = "Nothing to do: StackPilot relocates the caches to a local disk when it "
                "launches (" +
                moved + ").";
    return {f};
}

} // namespace sp::doctor
