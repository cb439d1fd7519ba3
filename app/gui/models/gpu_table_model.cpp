#include "app/gui/models/gpu_table_model.h"

#include "core/format.h"
#include "core/qt_text.h"
#include "core/select/select.h"

#include <QFont>

namespace sp::gui {

GpuTableModel::GpuTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void GpuTableModel::setSnapshot(const HardwareSnapshot& snapshot)
{
    beginResetModel();
    m_snapshot = snapshot;
    m_chosen = chooseGpu(m_snapshot);
    endResetModel();
}

int GpuTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_snapshot.gpus.size());
}

int GpuTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString GpuTableModel::cell(const GpuInfo& g, int column) const
{
    switch (column) {
    case Name:
        return qs(g.name.empty() ? g.pciId : g.name);
    case Target:
        return qs(format::gpuTarget(g));
    case Vram:
        return qs(format::vramMb(g.vramMb));
    case Driver:
        return qs(g.driverVersion.value_or("-"));
    case Kind:
        return !g.integrated ? tr("unknown") : *g.integrated ? tr("integrated") : tr("discrete");
    default:
        return {};
    }
}

QVariant GpuTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const GpuInfo& g = m_snapshot.gpus[std::size_t(index.row())];
    const bool chosen = m_chosen && *m_chosen == index.row();
    switch (role) {
    case Qt::DisplayRole:
        return cell(g, index.column());
    case Qt::ToolTipRole: {
        QStringList sources;
        for (const auto& s : g.sources)
            sources << qs(s);
        QString tip =
            tr("PCI %1 rev %2 at %3\nFound by: %4")
                .arg(qs(g.pciId), qs(g.pciRevision.empty() ? "-" : g.pciRevision),
                     qs(g.pciBus.empty() ? "-" : g.pciBus), sources.join(QStringLiteral(", ")));
        if (chosen)
            tip += QLatin1Char('\n') + tr("Workloads run on this GPU.");
        return tip;
    }
    case Qt::FontRole:
        if (chosen) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case ChosenRole:
        return chosen;
    default:
        return {};
    }
}

QVariant GpuTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("GPU");
    case Target:
        return tr("Target");
    case Vram:
        return tr("VRAM");
    case Driver:
        return tr("Driver");
    case Kind:
        return tr("Kind");
    default:
        return {};
    }
}

QVector<GpuTableModel::ProbeChip> GpuTableModel::probes() const
{
    QVector<ProbeChip> out;
    for (const auto& p : m_snapshot.probes)
        out.push_back({qs(p.name), qs(toString(p.status)), qs(p.detail)});
    return out;
}

} // namespace sp::gui
