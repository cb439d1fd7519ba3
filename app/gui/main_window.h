#pragma once
// Placeholder main window: shows what detection found, gathered off the GUI thread.
// The GUI issue replaces it with the real launcher.

#include <QMainWindow>

class QLabel;
class QTreeWidget;

namespace sp::gui {

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    void startDetection();

signals:
    void detectionFinished();

private:
    void showSnapshot(const QString& json);

    QLabel* m_status = nullptr;
    QTreeWidget* m_gpus = nullptr;
};

} // namespace sp::gui
