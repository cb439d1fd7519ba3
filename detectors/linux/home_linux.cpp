#include "detectors/linux/home_linux.h"

#include "detectors/home.h"

#include <QDir>
#include <QString>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#ifdef __linux__
#include <sys/vfs.h>
#endif

namespace sp::linuxhome {

namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape(std::string_view s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 3 < s.size()) {
            const auto a = s[i + 1], b = s[i + 2], c = s[i + 3];
            if (a >= '0' && a <= '3' && b >= '0' && b <= '7' && c >= '0' && c <= '7') {
                out += char((a - '0') * 64 + (b - '0') * 8 + (c - '0'));
                i += 3;
                continue;
            }
        }
        out += s[i];
    }
    return out;
}

std::vector<std::string_view> fields(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ')
            ++i;
        const auto start = i;
        while (i < line.size() && line[i] != ' ')
            ++i;
        if (i > start)
            out.push_back(line.substr(start, i - start));
    }
    return out;
}

bool isUnder(const std::string& path, const std::string& mountPoint)
{
    if (mountPoint == "/")
        return !path.empty() && path.front() == '/';
    if (path.compare(0, mountPoint.size(), mountPoint) != 0)
        return false;
    return path.size() == mountPoint.size() || path[mountPoint.size()] == '/';
}

#ifdef __linux__
// Used when mountinfo cannot be read (some sandboxes hide /proc).
std::string fsTypeFromMagic(unsigned long magic)
{
    switch (magic) {
    case 0x6969:
        return "nfs";
    case 0xff534d42:
        return "cifs";
    case 0xfe534d42:
        return "smb3";
    case 0x65735546:
        return "fuse";
    case 0x517b:
        return "smbfs";
    case 0xef53:
        return "ext4";
    case 0x9123683e:
        return "btrfs";
    case 0x58465342:
        return "xfs";
    case 0x01021994:
        return "tmpfs";
    case 0x794c7630:
        return "overlay";
    case 0x2fc12fc1:
        return "zfs";
    case 0xf2f52010:
        return "f2fs";
    case 0x01021997:
        return "9p";
    case 0x00c36400:
        return "ceph";
    default:
        return {};
    }
}
#endif

// The snapshot is JSON, which must be UTF-8; mount points need not be.
std::string validUtf8(const std::string& s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size())).toStdString();
}

} // namespace

std::optional<Mount> mountFor(std::string_view mountinfo, const std::string& path)
{
    std::optional<Mount> best;
    while (!mountinfo.empty()) {
        const auto eol = mountinfo.find('\n');
        const auto line = mountinfo.substr(0, eol);
        mountinfo = eol == std::string_view::npos ? std::string_view() : mountinfo.substr(eol + 1);
        // id parent major:minor root mount-point options [optional...] - fstype source super
        const auto f = fields(line);
        std::size_t dash = 6;
        while (dash < f.size() && f[dash] != "-")
            ++dash;
        if (f.size() < 6 || dash + 1 >= f.size())
            continue;
        Mount m;
        m.mountPoint = unescape(f[4]);
        m.fsType = std::string(f[dash + 1]);
        if (dash + 2 < f.size())
            m.source = unescape(f[dash + 2]);
        if (m.mountPoint.empty() || m.mountPoint.front() != '/' || !isUnder(path, m.mountPoint))
            continue;
        if (!best || m.mountPoint.size() >= best->mountPoint.size())
            best = std::move(m);
    }
    return best;
}

HomeInfo detectHomeAt(const std::string& home, const std::string& mountinfoPath)
{
    HomeInfo info;
    info.path = validUtf8(home);
    // Compare the real location: a home reached through a symlink (/home -> /mnt/nfs/home)
    // lives where the link points.
    std::error_code ec;
    std::string resolved = std::filesystem::weakly_canonical(home, ec).string();
    if (ec || resolved.empty())
        resolved = home;

    std::ifstream in(mountinfoPath, std::ios::binary);
    if (in) {
        std::ostringstream buf;
        buf << in.rdbuf();
        if (auto m = mountFor(buf.str(), resolved)) {
            info.filesystem = validUtf8(m->fsType);
            info.extra["mount_point"] = validUtf8(m->mountPoint);
        }
    }
#ifdef __linux__
    if (info.filesystem.empty()) {
        struct statfs st
        {};
        if (::statfs(resolved.c_str(), &st) == 0)
            info.filesystem = fsTypeFromMagic(static_cast<unsigned long>(st.f_type));
    }
#endif
    if (info.filesystem.empty())
        info.filesystem = "unknown";
    // fuse.sshfs and friends are named by their FUSE subtype.
    info.network = isNetworkFilesystem(info.filesystem);
    return info;
}

} // namespace sp::linuxhome

#ifndef _WIN32
namespace sp {

HomeInfo detectHome()
{
    return linuxhome::detectHomeAt(QDir::homePath().toStdString(), "/proc/self/mountinfo");
}

} // namespace sp
#endif
