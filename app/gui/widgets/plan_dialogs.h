#pragma once
// Two read-only views of a plan: every reason behind the recommended stack, and the
// composed environment as a table whose cells and rows can be copied.

#include "app/gui/models/environment_model.h"
#include "app/gui/models/plan_view.h"

#include <QDialog>

class QTableView;

namespace sp::gui {

class DetailsDialog : public QDialog
{
    Q_OBJECT
public:
    DetailsDialog(const PlanView& view, QWidget* parent = nullptr);
};

class EnvironmentDialog : public QDialog
{
    Q_OBJECT
public:
    EnvironmentDialog(const ComposedLaunch& launch, const QString& profile,
                      QWidget* parent = nullptr);
    EnvironmentModel* model() { return &m_model; }
    QTableView* table() const { return m_table; }
    void copySelected();

private:
    EnvironmentModel m_model;
    QTableView* m_table = nullptr;
};

} // namespace sp::gui
