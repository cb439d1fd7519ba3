#pragma once
// Two read-only views of a plan: why the recommended stack, in a user's words with the
// ids and commands folded away for experts, and the composed environment as a table
// whose cells and rows can be copied.

#include "app/gui/models/environment_model.h"
#include "app/gui/models/plan_view.h"

#include <QDialog>

class QPlainTextEdit;
class QTableView;
class QTextBrowser;
class QToolButton;

namespace sp::gui {

class DetailsDialog : public QDialog
{
    Q_OBJECT
public:
    DetailsDialog(const PlanView& view, QWidget* parent = nullptr);
    QString text() const;   // what a user reads, unfolded
    QString expert() const; // what "Details for experts" holds
    QToolButton* expertToggle() const { return m_expertToggle; }
    QPlainTextEdit* expertView() const { return m_expert; }

private:
    QTextBrowser* m_text = nullptr;
    QToolButton* m_expertToggle = nullptr;
    QPlainTextEdit* m_expert = nullptr;
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
