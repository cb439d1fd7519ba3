// Windows: the volume serial number and the 64-bit file index stand for device and inode
// (GetFileInformationByHandle; the index is stable while the file exists on NTFS).
#include "installers/file_identity.h"

#include <windows.h>

namespace sp {

std::optional<FileIdentity> fileIdentity(const std::filesystem::path& file)
{
    HANDLE h = CreateFileW(file.c_str(), FILE_READ_ATTRIBUTES,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (h == INVALID_HANDLE_VALUE)
        return std::nullopt;
    BY_HANDLE_FILE_INFORMATION info = {};
    const BOOL ok = GetFileInformationByHandle(h, &info);
    CloseHandle(h);
    if (!ok)
        return std::nullopt;
    auto join = [](DWORD high, DWORD low) { return (std::uint64_t(high) << 32) | low; };
    return FileIdentity{info.dwVolumeSerialNumber, join(info.nFileIndexHigh, info.nFileIndexLow),
                        join(info.nFileSizeHigh, info.nFileSizeLow),
                        std::int64_t(join(info.ftLastWriteTime.dwHighDateTime,
                                          info.ftLastWriteTime.dwLowDateTime)) *
                            100};
}

} // namespace sp
