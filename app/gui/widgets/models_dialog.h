#pragma once
// The Models view (issue 30): every model the catalog offers and every file in the vault,
// with its size, the apps that use it, whether it fits the card, and its state; Download
// (with progress), Pause, Remove (only what StackPilot downloaded) and Open folder, and
// what the vault takes on disk. It shows the controller's rows and forwards clicks.

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;

namespace sp::gui {

class AppController;
struct ModelRow;

class ModelsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ModelsDialog(AppController* app, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    QPushButton* downloadButton() const { return m_download; }
    QPushButton* pauseButton() const { return m_pause; }
    QPushButton* removeButton() const { return m_remove; }
    QString summaryText() const;
    // The row of a catalog model, or -1.
    int rowOf(const QString& id) const;

private:
    void refresh();
    void updateButtons();
    const ModelRow* selected() const;
    QString stateText(const ModelRow& r) const;

    AppController* m_app;
    QLabel* m_summary = nullptr;
    QTableWidget* m_table = nullptr;
    QPushButton* m_download = nullptr;
    QPushButton* m_pause = nullptr;
    QPushButton* m_remove = nullptr;
};

} // namespace sp::gui
