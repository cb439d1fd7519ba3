#include "core/os_family.h"
#include "core/paths.h"
#include "core/select/select.h"

#include <cstdlib>

namespace sp {

SelectSettings settingsForSnapshot(const HardwareSnapshot& snap, SelectSettings host, bool portable)
{
    const std::string hostFamily = toString(hostOs());
    if (snap.os.family == hostFamily || snap.home.path.empty() || portable)
        return host;
    if (snap.os.family == "windows") {
        host.dataDir = snap.home.path + "\\AppData\\Local\\stackpilot";
        host.cacheDir = snap.home.path + "\\AppData\\Local\\cache\\stackpilot";
    } else if (snap.os.family == "linux") {
        host.dataDir = snap.home.path + "/.local/share/stackpilot";
        host.cacheDir = snap.home.path + "/.cache/stackpilot";
    }
    return host;
}

SelectSettings hostSelectSettings(const HardwareSnapshot& snap)
{
    SelectSettings host;
    host.dataDir = paths::toUtf8(paths::dataDir());
    host.cacheDir = paths::toUtf8(paths::cacheDir());
    return settingsForSnapshot(snap, std::move(host), std::getenv("STACKPILOT_HOME") != nullptr);
}

} // namespace sp
