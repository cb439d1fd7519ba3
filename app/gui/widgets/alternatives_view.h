#pragma once
// The other profiles of the workload: those that could run, ranked lower, and those
// ruled out, each with its reasons and the known issues it cites (expand a row to
// read them). Profiles made for another GPU, OS or vendor are only counted.

#include "app/gui/models/plan_view.h"

#include <QTreeWidget>

namespace sp::gui {

class AlternativesView : public QTreeWidget
{
    Q_OBJECT
public:
    explicit AlternativesView(QWidget* parent = nullptr);
    void setPlan(const PlanView* view);
};

} // namespace sp::gui
