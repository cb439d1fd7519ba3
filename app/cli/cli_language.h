#pragma once
// The CLI's language: English, unless the environment asks for Simplified Chinese
// (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, in gettext's order). Then the window's zh_CN
// translation (resources/translations, compiled into stackpilot-cli as :/i18n) is
// installed, so a failure's cause reads the same in both front ends
// (app/common/diag/cause_words.h). Only those words are translated; the rest of the
// CLI stays English.

#include <QProcessEnvironment>
#include <string>

namespace sp::cli {

// "zh_CN" when the environment asks for it, else "" (English).
std::string cliLanguage(const QProcessEnvironment& env);

// Installs the translation of `language` ("" installs none); false when there is none.
bool installCliTranslation(const std::string& language);

} // namespace sp::cli
