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

    // The detection command line: stackpilot-cli next to this executable by default.
    void setDetectCommand(const QString& program, const QStringList& args);
    void startDetection();
    int gpuRowCount() const;
    QStringList gpuRow(int row) const;
    QString statusText() const;

signals:
    void detectionFinished();

private:
    void showSnapshot(const QString& json);

    QString m_detectProgram;
    QStringList m_detectArgs;
    QLabel* m_status = nullptr;
    QTreeWidget* m_gpus = nullptr;
};

} // namespace sp::gui
