#include "app/cli/cli_language.h"

#include <QCoreApplication>
#include <QTranslator>

namespace sp::cli {

namespace {

// "zh_CN.UTF-8", "zh-CN", "zh_CN@x", "zh" ask for Simplified Chinese.
bool asksForChinese(const QString& value)
{
    const QString locale = value.section(QLatin1Char('.'), 0, 0).section(QLatin1Char('@'), 0, 0);
    return locale == QLatin1String("zh") || locale == QLatin1String("zh_CN") ||
           locale == QLatin1String("zh-CN");
}

} // namespace

std::string cliLanguage(const QProcessEnvironment& env)
{
    // The locale: the first of LC_ALL, LC_MESSAGES, LANG that is set.
    QString locale;
    for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        locale = env.value(QLatin1String(name));
        if (!locale.isEmpty())
            break;
    }
    // LANGUAGE (a list, first choice first) overrides it, unless the locale is C.
    const QString language = env.value(QStringLiteral("LANGUAGE")).section(QLatin1Char(':'), 0, 0);
    const bool plainC = locale == QLatin1String("C") || locale == QLatin1String("POSIX");
    const QString wanted = !language.isEmpty() && !plainC ? language : locale;
    return asksForChinese(wanted) ? "zh_CN" : "";
}

bool installCliTranslation(const std::string& language)
{
    if (language.empty())
        return false;
    auto* t = new QTranslator(QCoreApplication::instance());
    if (!t->load(QStringLiteral(":/i18n/stackpilot_") + QString::fromStdString(language))) {
        delete t;
        return false;
    }
    return QCoreApplication::installTranslator(t);
}

} // namespace sp::cli
