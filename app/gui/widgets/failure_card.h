#pragma once
// A failure in the panel that failed: the cause in plain words, the raw message behind
// "Details", and one button per action that applies (Retry, Proxy settings, another
// stack, Export diagnostics, Open log, continue with CPU stacks). It only shows the
// controller's FailureNotice and says which action was asked for.

#include "app/gui/controllers/failure.h"

#include <QFrame>
#include <array>
#include <map>

class QHBoxLayout;
class QLabel;
class QPushButton;
class QToolButton;

namespace sp::gui {

class FailureCard : public QFrame
{
    Q_OBJECT
public:
    explicit FailureCard(QWidget* parent = nullptr);

    void showFailure(const FailureNotice& f);
    QString titleText() const;
    QString linksText() const;
    QString causeText() const;
    // The button of `action` (tests), or null when it does not apply.
    QPushButton* button(FailureNotice::Action action) const;

signals:
    void actionRequested(sp::gui::FailureNotice::Action action);

private:
    QPushButton* addButton(FailureNotice::Action action, const QString& text);

    QLabel* m_title = nullptr;
    QLabel* m_cause = nullptr;
    QLabel* m_links = nullptr; // FailureNotice::links
    QToolButton* m_disclose = nullptr;
    QLabel* m_detail = nullptr;
    QWidget* m_buttons = nullptr;
    std::array<QHBoxLayout*, 2> m_rows{}; // the ways forward, then the help
    std::map<FailureNotice::Action, QPushButton*> m_actions;
};

} // namespace sp::gui
