#pragma once
// Whether the system asks applications for a dark theme. Qt 6.4 does not say
// (QStyleHints::colorScheme arrived in 6.5), so the one place that knows is read here.
// Plain C++ without Qt: .ci/test-windows builds it with MinGW and checks it under Wine.

#include <optional>

namespace sp::gui {

// Windows: HKCU\Software\Microsoft\Windows\CurrentVersion\Themes\Personalize's
// AppsUseLightTheme (0 = dark apps); nullopt when the value is absent. Elsewhere
// nullopt: the platform's palette already follows the desktop.
std::optional<bool> systemPrefersDarkApps();

} // namespace sp::gui
