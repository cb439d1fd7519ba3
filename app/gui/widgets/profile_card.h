#pragma once
// The recommended profile of the chosen workload: its stack in words with a status
// badge, what will be installed (with sizes, and what is there already), a short why,
// and links to every reason and to the composed environment. The window puts its one
// primary button here.

#include "app/gui/models/plan_view.h"

#include <QFrame>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace sp::gui {

class ProfileCard : public QFrame
{
    Q_OBJECT
public:
    explicit ProfileCard(QWidget* parent = nullptr);

    void setPlan(const PlanView* view);
    // "Your choice" for a profile the user (or a remedy) chose, else "Recommended stack".
    void setChosenByUser(bool chosen);
    QPushButton* primaryButton() const { return m_primary; }
    QString titleText() const;
    QString badgeText() const;
    QString installText() const;

signals:
    void detailsRequested();
    void environmentRequested();

private:
    QLabel* m_caption = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_badge = nullptr;
    QLabel* m_why = nullptr;
    QLabel* m_install = nullptr;
    QLabel* m_warning = nullptr;
    QPushButton* m_details = nullptr;
    QPushButton* m_env = nullptr;
    QPushButton* m_primary = nullptr;
};

} // namespace sp::gui
