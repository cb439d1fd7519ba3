#pragma once
// The GPUs of a hardware snapshot as a table: name, target (gfx or compute
// capability), VRAM, driver and kind. The row the core's chooseGpu picks is marked:
// it is the GPU every plan pins. Text comes from core/format, as in `detect`.

#include "core/snapshot.h"

#include <QAbstractTableModel>
#include <optional>

namespace sp::gui {

class GpuTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Target,
        Vram,
        Driver,
        Kind,
        ColumnCount
    };
    enum Roles
    {
        ChosenRole = Qt::UserRole + 1 // bool: the GPU plans use
    };

    explicit GpuTableModel(QObject* parent = nullptr);

    void setSnapshot(const HardwareSnapshot& snapshot);
    const HardwareSnapshot& snapshot() const { return m_snapshot; }
    std::optional<int> chosenRow() const { return m_chosen; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    // "rocminfo: ok", "hip: failed: no device", … for the probe chips; the detail is
    // for the tooltip.
    struct ProbeChip
    {
        QString name;
        QString status; // ok | missing | failed | timeout | crashed
        QString detail;
    };
    QVector<ProbeChip> probes() const;

private:
    QString cell(const GpuInfo& g, int column) const;

    HardwareSnapshot m_snapshot;
    std::optional<int> m_chosen;
};

} // namespace sp::gui
