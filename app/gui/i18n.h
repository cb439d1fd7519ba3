#pragma once
// The window's language: StackPilot's own strings (resources/translations) and Qt's
// standard ones (Save, Cancel, Yes, No: qtbase), switched at run time. Installing the
// translators sends every widget a LanguageChange event; the main window rebuilds its
// texts on it, and the catalog's user texts follow QLocale's default.

#include <string>

namespace sp::gui {

// "" = the system's language; "en" or "zh_CN". Replaces the translators installed by an
// earlier call.
void setLanguage(const std::string& language);
// What the last setLanguage() was given.
std::string currentLanguage();

} // namespace sp::gui
