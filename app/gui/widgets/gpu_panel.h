#pragma once
// The machine at a glance: the GPU that workloads will use (name, target, VRAM,
// driver, an integrated badge), every GPU in a compact table, and the probes that
// found them as small status chips whose details show on hover.

#include <QFrame>

class QLabel;
class QHBoxLayout;
class QTableView;
class QVBoxLayout;

namespace sp::gui {

class GpuTableModel;

class GpuPanel : public QFrame
{
    Q_OBJECT
public:
    explicit GpuPanel(GpuTableModel* model, QWidget* parent = nullptr);

    void showDetecting();
    void showError(const QString& error);
    void refresh(); // from the model, after detection
    // A recorded machine (--hardware FILE): say so, since nothing will run here.
    void setRecorded(const QString& file);
    QString headline() const;
    QString facts() const; // the line under the name: target, VRAM, driver

private:
    void createTable();
    void showResult();
    GpuTableModel* m_model;
    QLabel* m_title = nullptr;
    QLabel* m_facts = nullptr;
    QLabel* m_kind = nullptr;
    QTableView* m_table = nullptr; // created when there is more than one GPU
    QVBoxLayout* m_layout = nullptr;
    QHBoxLayout* m_chips = nullptr;
    QLabel* m_recorded = nullptr;
};

} // namespace sp::gui
