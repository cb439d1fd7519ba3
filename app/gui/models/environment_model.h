#pragma once
// The composed environment as a table: every variable the workload will see, and
// every variable StackPilot removed, with its value, whether it was added, changed or
// removed against this system's environment, and why. Rows are sorted by name.

#include "core/launch/env_composer.h"

#include <QAbstractTableModel>
#include <QVector>

namespace sp::gui {

// "••••••••abcd": what the window shows of a secret's value (the last 4 characters of a
// long one, so two tokens can be told apart).
QString maskedSecret(const QString& value);

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

    // Tab-separated rows (the selected cells, or whole rows), for the clipboard, with
    // secrets masked as on screen.
    QString copyText(const QModelIndexList& cells) const;
    int changedCount() const;

private:
    struct Row
    {
        QString name;
        QString value;  // the final value, or the removed one
        QString change; // "", "added", "changed", "removed"
        QString reason;
        bool secret = false; // a token's or key's value: shown and copied masked
    };
    QVector<Row> m_rows;
};

} // namespace sp::gui
