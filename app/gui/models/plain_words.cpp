#include "app/gui/models/plain_words.h"

#include <QCoreApplication>
#include <QDate>
#include <QDateTime>
#include <QLocale>

namespace sp::gui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("PlainWords", text);
}

QString daysAgo(const std::string& iso, const QDate& today)
{
    const QDateTime at = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODate);
    if (!at.isValid())
        return {};
    const qint64 days = at.toLocalTime().date().daysTo(today);
    if (days <= 0)
        return tr("today");
    if (days == 1)
        return tr("yesterday");
    return QCoreApplication::translate("PlainWords", "%n days ago", nullptr, int(days));
}

} // namespace

QString uiLanguage()
{
    return QLocale().name();
}

QString userText(const UserText& text)
{
    return QString::fromStdString(text.in(uiLanguage().toStdString()));
}

QString statusPhrase(const QString& status)
{
    if (status == QLatin1String("tested"))
        return tr("works, tested on this kind of card");
    if (status == QLatin1String("community"))
        return tr("works, reported by users");
    return tr("experimental, may not work");
}

QString statusExplanation(const QString& status)
{
    if (status == QLatin1String("tested"))
        return tr("This stack was run and checked on this kind of graphics card.");
    if (status == QLatin1String("community"))
        return tr("Users with this kind of graphics card report that this stack works; "
                  "public reports are linked under “Why this stack?”.");
    return tr("Nobody has confirmed this stack on this kind of card yet. StackPilot checks "
              "it on your PC before the first start.");
}

QString rankPhrase(const std::string& code)
{
    if (code == "failed-here")
        return tr("It failed its check on this PC.");
    if (code == "fallback")
        return tr("It runs on the processor only, which is much slower.");
    if (code == "evidence")
        return tr("The recommended stack already passed its check on this PC.");
    if (code == "status")
        return tr("Fewer people have confirmed that it works.");
    if (code == "preference")
        return tr("The published guides recommend the other route for this card.");
    if (code == "unverified-url")
        return tr("One of its downloads cannot be checked against a published address.");
    if (code == "support")
        return tr("Its support for your graphics card is weaker.");
    if (code == "specificity")
        return tr("It is made for a wider range of cards, not for yours in particular.");
    if (code == "older")
        return tr("It uses older versions.");
    return tr("It is as good; the recommended one comes first.");
}

QString evidencePhrase(const LocalVerdict& v, const QDate& today)
{
    const QString when = daysAgo(v.at, today);
    switch (v.state) {
    case LocalVerdict::State::Passed:
        return tr("Passed its check on this PC %1").arg(when);
    case LocalVerdict::State::Failed:
        return tr("Failed its check on this PC %1").arg(when);
    case LocalVerdict::State::Unverified:
        break;
    }
    return v.passedEarlier ? tr("Passed on this PC before the driver changed; it is checked "
                                "again before the next start")
                           : tr("Failed on this PC before the driver changed; it is checked "
                                "again before the next start");
}

} // namespace sp::gui
