// Pure: no windows.h, compiled by the Linux unit tests as well.
#include "detectors/windows/home_classify.h"

#include "core/strings.h"

namespace sp::win {

namespace {

bool isSep(char c)
{
    return c == '\\' || c == '/';
}

bool isLetter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// "\\?\" and "\\.\" prefixes: the long-path and device namespaces.
bool hasDevicePrefix(std::string_view p)
{
    return p.size() >= 4 && isSep(p[0]) && isSep(p[1]) && (p[2] == '?' || p[2] == '.') &&
           isSep(p[3]);
}

// For "server\share\rest" returns the length of "server\share", or 0 when either
// part is missing.
std::size_t serverShareLength(std::string_view p)
{
    std::size_t i = 0;
    while (i < p.size() && !isSep(p[i]))
        ++i;
    if (i == 0 || i == p.size())
        return 0;
    const std::size_t shareStart = ++i;
    while (i < p.size() && !isSep(p[i]))
        ++i;
    return i == shareStart ? 0 : i;
}

std::string toBackslashes(std::string_view s)
{
    std::string out(s);
    for (char& c : out) {
        if (c == '/')
            c = '\\';
    }
    return out;
}

} // namespace

std::string toString(DriveType t)
{
    switch (t) {
    case DriveType::Unknown:
        return "unknown";
    case DriveType::NoRootDir:
        return "no-root-dir";
    case DriveType::Removable:
        return "removable";
    case DriveType::Fixed:
        return "fixed";
    case DriveType::Remote:
        return "remote";
    case DriveType::CdRom:
        return "cdrom";
    case DriveType::RamDisk:
        return "ramdisk";
    }
    return "unknown";
}

bool isUncPath(std::string_view p)
{
    if (hasDevicePrefix(p)) {
        p.remove_prefix(4);
        return startsWithNoCase(p, "UNC") && p.size() > 3 && isSep(p[3]) &&
               serverShareLength(p.substr(4)) > 0;
    }
    return p.size() > 2 && isSep(p[0]) && isSep(p[1]) && serverShareLength(p.substr(2)) > 0;
}

std::string volumeRootOf(std::string_view p)
{
    if (hasDevicePrefix(p)) {
        std::string_view rest = p.substr(4);
        if (startsWithNoCase(rest, "UNC") && rest.size() > 3 && isSep(rest[3])) {
            rest.remove_prefix(4);
            const auto n = serverShareLength(rest);
            return n ? "\\\\" + toBackslashes(rest.substr(0, n)) + "\\" : std::string{};
        }
        p = rest;
    } else if (p.size() > 2 && isSep(p[0]) && isSep(p[1])) {
        const auto n = serverShareLength(p.substr(2));
        return n ? "\\\\" + toBackslashes(p.substr(2, n)) + "\\" : std::string{};
    }
    if (p.size() >= 2 && isLetter(p[0]) && p[1] == ':')
        return std::string(1, static_cast<char>(p[0] & ~0x20)) + ":\\";
    return {};
}

HomeInfo classifyWindowsHome(const std::string& path, std::optional<DriveType> driveType,
                             const std::string& volumeFilesystem)
{
    HomeInfo h;
    h.path = path;
    if (driveType)
        h.extra["drive_type"] = toString(*driveType);
    if (!volumeFilesystem.empty())
        h.extra["volume_filesystem"] = volumeFilesystem;

    if (isUncPath(path)) {
        h.filesystem = "unc";
        h.network = true;
    } else if (driveType == DriveType::Remote) {
        h.filesystem = "network";
        h.network = true;
    } else if (!volumeFilesystem.empty()) {
        h.filesystem.reserve(volumeFilesystem.size());
        for (char c : volumeFilesystem)
            h.filesystem.push_back(lower(c));
    } else {
        h.filesystem = "unknown";
    }
    return h;
}

} // namespace sp::win
