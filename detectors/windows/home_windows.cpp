// The user's profile folder and whether it lives on the network (caches on a
// network share break GPU stacks: see detectors/home.h). Windows only.
#if __has_include("detectors/home.h")
#include "detectors/home.h"
#else
#include "core/snapshot.h"
namespace sp {
HomeInfo detectHome();
}
#endif
#include "detectors/windows/home_classify.h"
#include "detectors/windows/win_text.h"

namespace sp {

namespace {

std::wstring environment(const wchar_t* name)
{
    const DWORD n = GetEnvironmentVariableW(name, nullptr, 0);
    if (n == 0)
        return {};
    std::wstring v(n, L'\0');
    const DWORD got = GetEnvironmentVariableW(name, v.data(), n);
    v.resize(got < n ? got : 0);
    return v;
}

std::wstring fromUtf8(const std::string& s)
{
    if (s.empty())
        return {};
    const int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
    std::wstring w(static_cast<std::size_t>(n > 0 ? n : 0), L'\0');
    if (n > 0)
        MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
    return w;
}

} // namespace

HomeInfo detectHome()
{
    std::wstring profile = environment(L"USERPROFILE");
    if (profile.empty())
        profile = environment(L"HOMEDRIVE") + environment(L"HOMEPATH");
    const std::string path = win::toUtf8(profile);

    std::optional<win::DriveType> driveType;
    std::string volumeFs;
    const std::wstring root = fromUtf8(win::volumeRootOf(path));
    if (!root.empty()) {
        driveType = static_cast<win::DriveType>(GetDriveTypeW(root.c_str()));
        wchar_t fsName[MAX_PATH + 1] = {};
        // An unreachable share fails here; the drive type or UNC form still
        // classifies it, so the failure is not an error.
        if (GetVolumeInformationW(root.c_str(), nullptr, 0, nullptr, nullptr, nullptr, fsName,
                                  MAX_PATH + 1))
            volumeFs = win::toUtf8Terminated(fsName, MAX_PATH + 1);
    }
    return win::classifyWindowsHome(path, driveType, volumeFs);
}

} // namespace sp
