#pragma once
// The chosen profile of the workload, said as a user would: what runs on which card
// and how sure that is ("SD.Next on your Radeon RX 6750 XT — works, reported by
// users"), a plain summary, what this PC's own check found, what to know before
// installing, and what will be installed. The stack's parts sit under an expander;
// the card's text scrolls, so nothing is cut on a small screen or with large fonts,
// while the buttons stay in view. The window puts its one primary button here.

#include "app/gui/models/plan_view.h"

#include <QFrame>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QToolButton;
class QVBoxLayout;

namespace sp::gui {

class ProfileCard : public QFrame
{
    Q_OBJECT
public:
    explicit ProfileCard(QWidget* parent = nullptr);

    void setPlan(const PlanView* view);
    QPushButton* primaryButton() const { return m_primary; }
    // The main button as wide as the widest of `texts`: it stays in place as they change.
    void fitPrimaryTo(const QStringList& texts);
    QString captionText() const;
    QString titleText() const;
    QString badgeText() const;
    QString installText() const;
    QString detailsText() const; // the stack's parts, under the expander
    void setDetailsShown(bool shown);
    // The GPUs to choose from, by name; `chosen`: -1 for `automatic` (the default rule,
    // in words), else an index into `names`. Shown only with more than one GPU.
    void setGpus(const QStringList& names, int chosen, const QString& automatic);
    // The workload's models (catalog ids, with their labels); `chosen` is selected. Shown
    // only for a workload that runs a model.
    void setModels(const QStringList& labels, const QStringList& ids, const QString& chosen);
    void setChoicesEnabled(bool on); // not while the workload runs
    // Where stacks install and its free space (none: not known, or a recorded PC): the
    // card says the disk an install needs there, with a link to change the folder.
    void setDisk(const QString& folder, std::optional<quint64> free);
    QComboBox* gpuChooser() const { return m_gpuChooser; }
    QComboBox* modelChooser() const { return m_modelChooser; }
    // The card's controls in the order Tab visits them: the choosers, the main button,
    // then the ways to read more.
    QList<QWidget*> focusChain() const;

signals:
    void detailsRequested();
    void environmentRequested();
    void gpuChosen(int gpu); // -1: the default rule
    void modelChosen(const QString& model);
    void settingsRequested(); // the install folder's "Change…"

private:
    QWidget* buildContent();
    QWidget* choiceRow(QWidget* parent, const QString& label, const QString& accessible,
                       QComboBox*& combo);
    QWidget* buildGpuRow(QWidget* parent);
    QWidget* buildModelRow(QWidget* parent);
    void showRuntimes(const PlanView& v);
    void showWarnings(const PlanView& v);
    void updateCaption(const PlanView* v);
    void updateDisk();

    QScrollArea* m_scroll = nullptr;
    QLabel* m_caption = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_verdict = nullptr;
    QLabel* m_about = nullptr;
    QLabel* m_why = nullptr;
    QLabel* m_evidence = nullptr;
    QLabel* m_others = nullptr; // what users' PCs reported
    QLabel* m_warning = nullptr;
    QToolButton* m_expander = nullptr;
    QLabel* m_stack = nullptr;
    QLabel* m_install = nullptr;
    quint64 m_diskNeeded = 0;
    bool m_diskPartial = false; // some parts' sizes are not known until downloaded
    QString m_diskFolder;
    std::optional<quint64> m_diskFree;
    QPushButton* m_details = nullptr;
    QPushButton* m_env = nullptr;
    QPushButton* m_primary = nullptr;
    QWidget* m_gpuRow = nullptr;
    QComboBox* m_gpuChooser = nullptr;
    QWidget* m_modelRow = nullptr;
    QComboBox* m_modelChooser = nullptr;
};

} // namespace sp::gui
