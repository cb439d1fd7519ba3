#pragma once
// The Linux side of detectHome(), with its inputs injectable for tests.

#include "core/snapshot.h"

#include <optional>
#include <string>
#include <string_view>

namespace sp::linuxhome {

struct Mount
{
    std::string mountPoint;
    std::string fsType; // "ext4", "nfs4", "fuse.sshfs", ...
    std::string source; // "server:/export", "/dev/sda2"
};

// The mount from /proc/self/mountinfo text that holds `path`: the longest mount
// point that is a whole-component prefix of it; of equal ones, the last (it is
// mounted on top). Malformed lines are skipped.
std::optional<Mount> mountFor(std::string_view mountinfo, const std::string& path);

// detectHome() with the home folder and the mountinfo file given.
HomeInfo detectHomeAt(const std::string& home, const std::string& mountinfoPath);

} // namespace sp::linuxhome
