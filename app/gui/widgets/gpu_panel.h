#pragma once
// The machine at a glance: the GPU that workloads will use (name, target, VRAM,
// driver, an integrated badge), every GPU in a compact table, and the probes that
// found them as small status chips whose details show on hover.

#include <QFrame>

class QLabel;
class QHBoxLayout;
class QTableView;

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
    QString headline() const;

private:
    GpuTableModel* m_model;
    QLabel* m_title = nullptr;
    QLabel* m_facts = nullptr;
    QLabel* m_kind = nullptr;
    QTableView* m_table = nullptr;
    QHBoxLayout* m_chips = nullptr;
};

} // namespace sp::gui
