#pragma once
// The live workload log: ANSI colours rendered, error and warning lines marked, a
// known issue's line highlighted; search, copy and follow-tail; the number of lines
// kept and a link to the whole log on disk. Above it, a banner names a known issue in
// plain words with its fix as a button, and "Open in browser" appears once the
// workload announces its URL.

#include <QFrame>
#include <QWidget>

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;

namespace sp::gui {

class ConsoleModel;
struct KnownIssueNotice;

class IssueBanner : public QFrame
{
    Q_OBJECT
public:
    explicit IssueBanner(QWidget* parent = nullptr);
    void showNotice(const KnownIssueNotice& n);
    QString issueId() const { return m_id; }
    QString titleText() const;
    QPushButton* actionButton() const { return m_action; }

signals:
    void remedyRequested(const QString& issueId);
    void whyRequested();

private:
    QString m_id;
    QLabel* m_title = nullptr;
    QLabel* m_text = nullptr;
    QPushButton* m_action = nullptr;
    QPushButton* m_dismiss = nullptr;
};

class ConsoleView : public QWidget
{
    Q_OBJECT
public:
    explicit ConsoleView(ConsoleModel* model, QWidget* parent = nullptr);

    void setLogPath(const QString& path);
    void setUrl(const QString& url); // empty hides "Open in browser"
    void showIssue(const KnownIssueNotice& n);
    void clearIssue();
    IssueBanner* banner() const { return m_banner; }
    QListView* view() const { return m_view; }
    bool followTail() const;
    void setFollowTail(bool on);
    // Selects the next match of the search text; false when there is none.
    bool findNext(bool backwards = false);
    void copySelection();
    QPushButton* openUrlButton() const { return m_openUrl; }

signals:
    void remedyRequested(const QString& issueId);
    void whyRequested();
    void openUrlRequested(const QString& url);

private:
    QHBoxLayout* buildBar();
    void updateCount();

    ConsoleModel* m_model;
    IssueBanner* m_banner = nullptr;
    QListView* m_view = nullptr;
    QLineEdit* m_search = nullptr;
    QCheckBox* m_follow = nullptr;
    QLabel* m_count = nullptr;
    QLabel* m_log = nullptr;
    QLabel* m_empty = nullptr; // shown over the list while it is empty
    QPushButton* m_openUrl = nullptr;
    QString m_url;
};

} // namespace sp::gui
