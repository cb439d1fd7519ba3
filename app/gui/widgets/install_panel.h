#pragma once
// Install progress: one bar per artifact (bytes, speed), an overall bar with speed and
// time left, the setup step running now, and Cancel. It reads the job's snapshot when
// the job says there is progress (at most ten times a second).

#include <QFrame>
#include <QVector>
#include <functional>

class QLabel;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace sp::gui {

class InstallProgress;
struct InstallSnapshot;

class InstallPanel : public QFrame
{
    Q_OBJECT
public:
    explicit InstallPanel(InstallProgress* job, QWidget* parent = nullptr);

    void refresh();
    void setStep(const QString& text);
    // Setup steps (venv, pip, builds) after the install: the heading and the step
    // running now; their output goes to the console below.
    // The stack being set up, in words (the card's title).
    void showSteps(const QString& stack);
    // How a runtime id is shown ("ZLUDA 3.9.5"); ids are never shown.
    void setRuntimeNames(std::function<QString(const QString&)> name) { m_name = std::move(name); }
    int overallPermille() const; // 0..1000; -1 while the bar is busy (no size known)
    int artifactRows() const { return int(m_rows.size()); }
    QString overallLine() const;
    // The overall line for these totals (issue 33, item 6).
    static QString overallText(const InstallSnapshot& s);

private:
    std::function<QString(const QString&)> m_name = [](const QString&) { return QString(); };

public:
    QPushButton* cancelButton() const { return m_cancel; }

signals:
    void cancelRequested();

private:
    struct Row
    {
        QLabel* label;
        QProgressBar* bar;
    };
    InstallProgress* m_job;
    QLabel* m_heading = nullptr;
    QProgressBar* m_overall = nullptr;
    QLabel* m_overallText = nullptr;
    QLabel* m_step = nullptr;
    QVBoxLayout* m_rowsLayout = nullptr;
    QVector<Row> m_rows;
    QPushButton* m_cancel = nullptr;
};

} // namespace sp::gui
