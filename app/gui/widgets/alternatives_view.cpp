#include "app/gui/widgets/alternatives_view.h"

#include "app/gui/widgets/style.h"

#include <QContextMenuEvent>
#include <QMenu>

namespace sp::gui {

AlternativesView::AlternativesView(QWidget* parent) : QListWidget(parent)
{
    setWordWrap(true);
    setResizeMode(QListView::Adjust);
    setUniformItemSizes(false);
    setSpacing(2);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setToolTip(tr("Double-click a stack, or right-click it, to use it instead"));
    style::followItemTones(this);
    connect(this, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem* item) {
        const QString profile = item->data(Qt::UserRole).toString();
        if (!profile.isEmpty())
            emit chooseRequested(profile);
    });
}

void AlternativesView::setPlan(const PlanView* v)
{
    clear();
    setVisible(v && (!v->alternatives.isEmpty() || !v->otherMachine.isEmpty()));
    if (!v)
        return;
    auto* heading = new QListWidgetItem(tr("Other stacks, and why each is not first"), this);
    QFont bold = font();
    bold.setBold(true);
    heading->setFont(bold);
    heading->setFlags(Qt::ItemIsEnabled);
    for (const AlternativeRow& a : v->alternatives) {
        QString why = a.plainReason;
        if (!a.evidence.isEmpty() && !a.failedHere)
            why += QLatin1Char(' ') + a.evidence + QLatin1Char('.');
        auto* item = new QListWidgetItem(a.title + QLatin1Char('\n') + why, this);
        item->setData(Qt::UserRole, a.profile);
        // A stack that failed its check here is not "available" in any sense a user means.
        if (a.rejected || a.failedHere)
            style::setItemTone(item, style::Tone::Bad);
    }
    if (!v->otherMachine.isEmpty()) {
        auto* item = new QListWidgetItem(
            tr("%n more stack(s) for other cards or systems", nullptr, int(v->otherMachine.size())),
            this);
        item->setFlags(Qt::ItemIsEnabled);
        style::setItemTone(item, style::Tone::Neutral);
    }
}

QListWidgetItem* AlternativesView::rowOf(const QString& profile) const
{
    for (int i = 0; i < count(); ++i)
        if (item(i)->data(Qt::UserRole).toString() == profile)
            return item(i);
    return nullptr;
}

void AlternativesView::contextMenuEvent(QContextMenuEvent* e)
{
    QListWidgetItem* row = itemAt(viewport()->mapFromGlobal(e->globalPos()));
    const QString profile = row ? row->data(Qt::UserRole).toString() : QString();
    if (profile.isEmpty())
        return;
    QMenu menu(this);
    menu.addAction(tr("Use this stack instead"), this,
                   [this, profile] { emit chooseRequested(profile); });
    menu.exec(e->globalPos());
}

} // namespace sp::gui
