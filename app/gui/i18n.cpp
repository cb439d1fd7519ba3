#include "app/gui/i18n.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace sp::gui {

namespace {
std::string g_language;
}

std::string currentLanguage()
{
    return g_language;
}

void setLanguage(const std::string& language)
{
    g_language = language;
    static QTranslator* ours = nullptr;
    static QTranslator* qt = nullptr;
    for (QTranslator* t : {ours, qt})
        if (t) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
    ours = nullptr;
    qt = nullptr;
    const QLocale locale =
        language.empty() ? QLocale::system() : QLocale(QString::fromStdString(language));
    QLocale::setDefault(locale);
    auto* mine = new QTranslator(QCoreApplication::instance());
    // Any language without its own file (English, the C locale of a CI machine) gets the
    // English plural forms: "%n GPU(s)" in the source reads "1 GPU", "2 GPUs".
    if (mine->load(locale, QStringLiteral("stackpilot"), QStringLiteral("_"),
                   QStringLiteral(":/i18n")) ||
        mine->load(QStringLiteral(":/i18n/stackpilot_en.qm"))) {
        QCoreApplication::installTranslator(mine);
        ours = mine;
    } else {
        delete mine;
    }
    // Qt's own strings: Debian's qt6-translations-l10n, or the translations folder that
    // windeployqt fills next to the executable.
    auto* theirs = new QTranslator(QCoreApplication::instance());
    if (theirs->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                     QLibraryInfo::path(QLibraryInfo::TranslationsPath)) ||
        theirs->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                     QCoreApplication::applicationDirPath() + QStringLiteral("/translations"))) {
        QCoreApplication::installTranslator(theirs);
        qt = theirs;
    } else {
        delete theirs;
    }
}

} // namespace sp::gui
