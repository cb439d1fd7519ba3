#pragma once
// The workload's other stacks, each with why it is not first in a user's words (a known
// problem on this card, a failed check on this PC, slower, less proven), and what this
// PC's check found. A row is chosen by double click or its context menu; the window
// asks as the Profiles menu does. Stacks made for another card or system are counted.

#include "app/gui/models/plan_view.h"

#include <QListWidget>

namespace sp::gui {

class AlternativesView : public QListWidget
{
    Q_OBJECT
public:
    explicit AlternativesView(QWidget* parent = nullptr);
    void setPlan(const PlanView* view);
    // The row of `profile` (tests), or null.
    QListWidgetItem* rowOf(const QString& profile) const;

signals:
    void chooseRequested(const QString& profile);

protected:
    void contextMenuEvent(QContextMenuEvent* e) override;
};

} // namespace sp::gui
