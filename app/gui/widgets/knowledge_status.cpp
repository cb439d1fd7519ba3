#include "app/gui/widgets/knowledge_status.h"

#include "app/gui/controllers/background.h"
#include "core/settings.h"
#include "installers/feed_daily_check.h"
#include "stackpilot_version.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLabel>
#include <QMainWindow>
#include <QStatusBar>

namespace sp::gui {

namespace {

struct KnowledgeCheck
{
    feed::Knowledge before; // what the window plans from
    feed::Knowledge after;  // in use from the next start
    feed::DailyCheck check;
};

QString knowledgeText(const KnowledgeCheck& r)
{
    QString text =
        r.before.version == 0
            ? QCoreApplication::translate("sp::gui::KnowledgeStatus",
                                          "Knowledge shipped with StackPilot %1")
                  .arg(QStringLiteral(STACKPILOT_VERSION))
            : QCoreApplication::translate("sp::gui::KnowledgeStatus", "Knowledge from %1 (feed %2)")
                  .arg(QString::fromStdString(r.before.date()))
                  .arg(r.before.version);
    if (r.check.installed && r.after.version != r.before.version)
        text += QCoreApplication::translate("sp::gui::KnowledgeStatus",
                                            "; feed %1 is used from the next start")
                    .arg(r.after.version);
    return text;
}

} // namespace

void startKnowledgeStatus(QMainWindow& window)
{
    auto* label = new QLabel(&window);
    label->setObjectName(QStringLiteral("knowledgeStatus"));
    window.statusBar()->addPermanentWidget(label);
    runInBackground(
        label,
        [] {
            const feed::FeedStore store;
            KnowledgeCheck r;
            r.before = feed::knowledgeInUse(store);
            r.check = feed::dailyCheck(QDateTime::currentSecsSinceEpoch(), store,
                                       Settings::defaultFile());
            r.after = feed::knowledgeInUse(store);
            return r;
        },
        [label](KnowledgeCheck r) {
            label->setText(knowledgeText(r));
            label->setToolTip(QString::fromStdString(r.check.message));
        });
}

} // namespace sp::gui
