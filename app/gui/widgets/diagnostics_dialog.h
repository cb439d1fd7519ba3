#pragma once
// Help ▸ Export diagnostics…: collects the bundle off the GUI thread (the same
// diag::collect the CLI's `diag export` runs), shows the review list that `--list`
// prints (every entry, its size, what was redacted in it, and the totals by kind), and
// saves the zip where the user chooses.

#include "app/common/diag/bundle.h"

#include <QDialog>
#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace sp::gui {

class AppController;

class DiagnosticsDialog : public QDialog
{
    Q_OBJECT
public:
    DiagnosticsDialog(AppController* app, QWidget* parent = nullptr);
    ~DiagnosticsDialog() override; // cancels a collection in progress

    // Where Save writes; the default asks with a file dialog (tests answer themselves).
    void setSaveAs(std::function<QString(const QString& suggested)> ask);
    bool collected() const { return m_bundle != nullptr; }
    QTreeWidget* list() const { return m_list; }
    QPushButton* saveButton() const { return m_save; }
    QPushButton* showFileButton() const { return m_showFile; }
    QString status() const;

signals:
    void ready(); // the review list is shown
    void saved(const QString& file);

private:
    void collect();
    void show(std::shared_ptr<const diag::Bundle> bundle);
    void save();

    AppController* m_app;
    CancelToken m_cancel;
    std::shared_ptr<const diag::Bundle> m_bundle;
    std::function<QString(const QString&)> m_saveAs;
    QLabel* m_status = nullptr;
    QLabel* m_totals = nullptr;
    QTreeWidget* m_list = nullptr;
    QPushButton* m_save = nullptr;
    QPushButton* m_showFile = nullptr; // "Show in folder", after a save
    QString m_savedFile;
};

} // namespace sp::gui
