#include "app/gui/widgets/alternatives_view.h"

#include "app/gui/widgets/style.h"

#include <QHeaderView>

namespace sp::gui {

AlternativesView::AlternativesView(QWidget* parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("Other profiles"), tr("Verdict")});
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    setRootIsDecorated(true);
    setWordWrap(true);
    setUniformRowHeights(false);
    setFrameShape(QFrame::NoFrame);
    style::followItemTones(this);
}

void AlternativesView::setPlan(const PlanView* v)
{
    clear();
    if (!v)
        return;
    for (const AlternativeRow& a : v->alternatives) {
        auto* item = new QTreeWidgetItem(this);
        item->setText(0, a.title);
        item->setToolTip(0, a.profile);
        // A stack that failed its check here is not "available" in any sense a user means.
        const bool bad = a.rejected || a.failedHere;
        item->setText(1, a.rejected     ? tr("rejected")
                         : a.failedHere ? tr("failed here")
                                        : tr("available"));
        style::setItemTone(item, 1, bad ? style::Tone::Bad : style::Tone::Good);
        item->setData(0, Qt::UserRole, a.profile);
        for (const QString& r : a.reasons) {
            auto* child = new QTreeWidgetItem(item);
            child->setText(0, r);
            child->setToolTip(0, r);
            child->setFirstColumnSpanned(true);
        }
        if (!a.knownIssues.isEmpty()) {
            auto* child = new QTreeWidgetItem(item);
            child->setText(0, tr("Known issues: %1").arg(a.knownIssues.join(QStringLiteral(", "))));
            child->setFirstColumnSpanned(true);
        }
    }
    if (!v->otherMachine.isEmpty()) {
        auto* item = new QTreeWidgetItem(this);
        item->setText(0, tr("%n profile(s) made for another GPU, OS or vendor", nullptr,
                            int(v->otherMachine.size())));
        style::setItemTone(item, 0, style::Tone::Neutral);
        for (const QString& id : v->otherMachine)
            (new QTreeWidgetItem(item))->setText(0, id);
    }
}

} // namespace sp::gui
