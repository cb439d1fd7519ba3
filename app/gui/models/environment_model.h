#pragma once
// The composed environment as a table: every variable the workload will see, and
// every variable StackPilot removed, with its value, whether it was added, changed or
// removed against this system's environment, and why. Rows are sorted by name.

#include "core/launch/env_composer.h"

#include <QAbstractTableModel>
#include <QVector>

namespace sp::gui {

class EnvironmentModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Value,
        Change,
        Reason,
        ColumnCount
    };

    explicit EnvironmentModel(QObject* parent = nullptr);
    void setLaunch(const ComposedLaunch& launch);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    // Tab-separated rows (the selected cells, or whole rows), for the clipboard.
    QString copyText(const QModelIndexList& cells) const;
    int changedCount() const;

private:
    struct Row
    {
        QString name;
        QString value;  // the final value, or the removed one
        QString change; // "", "added", "changed", "removed"
        QString reason;
    };
    QVector<Row> m_rows;
};

} // namespace sp::gui
