// The window's reading of "apps use the light theme" (HKCU ...\Themes\Personalize
// AppsUseLightTheme), built with MinGW by .ci/test-windows; run-under-wine.sh sets the
// value, runs this with what the reading must be (unset, dark or light), and checks the
// exit status.
#include "app/gui/widgets/system_theme.h"

#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
    const char* want = argc > 1 ? argv[1] : "";
    const auto dark = sp::gui::systemPrefersDarkApps();
    const char* got = !dark ? "unset" : *dark ? "dark" : "light";
    std::printf("apps theme: %s (expected %s)\n", got, want);
    return std::strcmp(got, want) == 0 ? 0 : 1;
}
