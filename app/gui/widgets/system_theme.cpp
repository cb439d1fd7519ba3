#include "app/gui/widgets/system_theme.h"

#ifdef _WIN32
#include <windows.h>
#endif

namespace sp::gui {

std::optional<bool> systemPrefersDarkApps()
{
#ifdef _WIN32
    DWORD value = 0;
    DWORD size = sizeof(value);
    const LSTATUS rc = RegGetValueW(
        HKEY_CURRENT_USER, L"Software\\Microsoft\\Windows\\CurrentVersion\\Themes\\Personalize",
        L"AppsUseLightTheme", RRF_RT_REG_DWORD, nullptr, &value, &size);
    if (rc != ERROR_SUCCESS)
        return std::nullopt;
    return value == 0;
#else
    return std::nullopt;
#endif
}

} // namespace sp::gui
