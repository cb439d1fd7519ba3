#include "app/gui/models/environment_model.h"

#include "app/common/diag/redact.h"
#include "core/qt_text.h"

#include <QFont>
#include <algorithm>
#include <map>

namespace sp::gui {

EnvironmentModel::EnvironmentModel(QObject* parent) : QAbstractTableModel(parent) {}

QString maskedSecret(const QString& value)
{
    const QString bullets(8, QChar(0x2022));
    return value.size() > 12 ? bullets + value.right(4) : bullets;
}

void EnvironmentModel::setLaunch(const ComposedLaunch& launch)
{
    beginResetModel();
    m_rows.clear();
    std::map<std::string, const EnvChange*> changes;
    for (const EnvChange& c : launch.changes)
        changes[c.name] = &c;
    for (const auto& [name, value] : launch.env) {
        Row r{qs(name), qs(value), {}, {}};
        if (auto it = changes.find(name); it != changes.end()) {
            r.change = QString::fromLatin1(toString(it->second->kind));
            r.reason = qs(it->second->reason);
        }
        m_rows.push_back(r);
    }
    for (const EnvChange& c : launch.changes)
        if (c.kind == EnvChange::Removed)
            m_rows.push_back({qs(c.name), qs(c.before), QStringLiteral("removed"), qs(c.reason)});
    for (Row& r : m_rows) // the names diagnostics redact (HF_TOKEN, OPENAI_API_KEY, ...)
        r.secret = !r.value.isEmpty() && diag::Redactor::isSecretName(r.name.toStdString());
    std::sort(m_rows.begin(), m_rows.end(), [](const Row& a, const Row& b) {
        return a.name.compare(b.name, Qt::CaseInsensitive) < 0;
    });
    endResetModel();
}

int EnvironmentModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int EnvironmentModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EnvironmentModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& r = m_rows[index.row()];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole || role == Qt::EditRole) {
        switch (index.column()) {
        case Name:
            return r.name;
        case Value:
            if (r.secret) // the last 4 characters tell two tokens apart, no more
                return role == Qt::ToolTipRole ? tr("Hidden: it is a secret (a token or key)")
                                               : maskedSecret(r.value);
            return r.value;
        case Change:
            if (r.change == QLatin1String("added"))
                return tr("added");
            if (r.change == QLatin1String("changed"))
                return tr("changed");
            if (r.change == QLatin1String("removed"))
                return tr("removed");
            return role == Qt::ToolTipRole ? tr("as in your environment") : QString();
        case Reason:
            return r.reason;
        default:
            return {};
        }
    }
    if (role == Qt::FontRole && r.change == QLatin1String("removed") && index.column() == Value) {
        QFont f;
        f.setStrikeOut(true);
        return f;
    }
    return {};
}

QVariant EnvironmentModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Variable");
    case Value:
        return tr("Value");
    case Change:
        return tr("Change");
    case Reason:
        return tr("Why");
    default:
        return {};
    }
}

QString EnvironmentModel::copyText(const QModelIndexList& cells) const
{
    std::map<int, std::map<int, QString>> grid;
    for (const QModelIndex& i : cells)
        grid[i.row()][i.column()] = data(i, Qt::DisplayRole).toString();
    QStringList lines;
    for (const auto& [row, cols] : grid) {
        QStringList cellsOfRow;
        for (const auto& [col, text] : cols)
            cellsOfRow << text;
        lines << cellsOfRow.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

int EnvironmentModel::changedCount() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(),
                             [](const Row& r) { return !r.change.isEmpty(); }));
}

} // namespace sp::gui
