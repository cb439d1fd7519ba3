#pragma once
// Pure classification of a Windows home folder, apart from the API calls that
// feed it (home_windows.cpp), so the Linux unit tests cover it.

#include "core/snapshot.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sp::win {

// GetDriveTypeW's results, with the same numbers (DRIVE_UNKNOWN ... DRIVE_RAMDISK).
enum class DriveType : std::uint32_t
{
    Unknown = 0,
    NoRootDir = 1,
    Removable = 2,
    Fixed = 3,
    Remote = 4,
    CdRom = 5,
    RamDisk = 6,
};

std::string toString(DriveType t);

// "\\server\share\...", "//server/share", "\\?\UNC\server\share\...". Device
// paths ("\\.\C:", "\\?\C:\...") are not UNC.
bool isUncPath(std::string_view path);

// The root GetDriveTypeW and GetVolumeInformationW want, with its trailing
// backslash: "C:\Users\u" -> "C:\", "\\srv\share\u" -> "\\srv\share\",
// "\\?\C:\Users\u" -> "C:\". Empty when the path has no recognisable root.
std::string volumeRootOf(std::string_view path);

// path: the profile folder (UTF-8); driveType: GetDriveTypeW on its root, if it
// was asked; volumeFilesystem: GetVolumeInformationW's name ("NTFS"), or empty.
// A UNC home is "unc" and a mapped network drive is "network" whatever the
// server reports, because what matters downstream (detectors/home.h) is that the
// caches would live on the network, not which filesystem the server runs.
HomeInfo classifyWindowsHome(const std::string& path, std::optional<DriveType> driveType,
                             const std::string& volumeFilesystem);

} // namespace sp::win
