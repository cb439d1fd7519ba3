#include "app/gui/models/console_model.h"

#include <QRegularExpression>
#include <algorithm>

namespace sp::gui {

ConsoleModel::ConsoleModel(int maxLines, QObject* parent)
    : QAbstractListModel(parent), m_max(std::max(100, maxLines))
{}

int ConsoleModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

QVariant ConsoleModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const ConsoleLine& l = lineAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return l.line.text;
    case SeverityRole:
        return int(l.severity);
    case SpansRole:
        return QVariant::fromValue(l.line.spans);
    case NumberRole:
        return l.number;
    case StderrRole:
        return l.isStderr;
    default:
        return {};
    }
}

ConsoleLine::Severity ConsoleModel::classify(const QString& plain)
{
    // Words a person scans a console for; a known issue's line is marked separately.
    static const QRegularExpression error(
        QStringLiteral("\\b(error|exception|traceback|fatal|failed|segmentation fault|"
                       "aborted|core dumped)\\b"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression warning(QStringLiteral("\\b(warn|warning|deprecated)\\b"),
                                            QRegularExpression::CaseInsensitiveOption);
    if (error.match(plain).hasMatch())
        return ConsoleLine::Error;
    if (warning.match(plain).hasMatch())
        return ConsoleLine::Warning;
    return ConsoleLine::Normal;
}

void ConsoleModel::append(const QVector<Incoming>& lines)
{
    if (lines.isEmpty())
        return;
    // Only the last m_max of a huge batch can be kept: skip the rest before parsing.
    const qsizetype skip = std::max<qsizetype>(0, lines.size() - m_max);
    m_total += skip;
    const int incoming = int(lines.size() - skip);
    const int overflow = int(m_lines.size()) + incoming - m_max;
    if (overflow > 0) {
        beginRemoveRows({}, 0, overflow - 1);
        m_lines.erase(m_lines.begin(), m_lines.begin() + overflow);
        endRemoveRows();
    }
    const int first = int(m_lines.size());
    beginInsertRows({}, first, first + incoming - 1);
    for (qsizetype i = skip; i < lines.size(); ++i) {
        ConsoleLine l;
        l.line = parseAnsi(lines[i].text);
        l.number = ++m_total;
        l.severity = classify(l.line.text);
        l.isStderr = lines[i].isStderr;
        m_lines.push_back(std::move(l));
    }
    endInsertRows();
}

void ConsoleModel::clear()
{
    beginResetModel();
    m_lines.clear();
    m_total = 0;
    endResetModel();
}

void ConsoleModel::markIssue(qint64 number)
{
    if (m_lines.empty() || number < m_lines.front().number || number > m_lines.back().number)
        return;
    const int row = int(number - m_lines.front().number);
    m_lines[std::size_t(row)].severity = ConsoleLine::Issue;
    emit dataChanged(index(row), index(row), {SeverityRole});
}

int ConsoleModel::countOf(ConsoleLine::Severity s) const
{
    return int(std::count_if(m_lines.begin(), m_lines.end(),
                             [s](const ConsoleLine& l) { return l.severity == s; }));
}

int ConsoleModel::find(const QString& needle, int from, bool backwards) const
{
    const int n = int(m_lines.size());
    if (needle.isEmpty() || n == 0)
        return -1;
    for (int step = 1; step <= n; ++step) {
        const int row = ((backwards ? from - step : from + step) % n + n) % n;
        if (lineAt(row).line.text.contains(needle, Qt::CaseInsensitive))
            return row;
    }
    return -1;
}

QString ConsoleModel::text(const QList<int>& rows) const
{
    QStringList out;
    for (int r : rows)
        if (r >= 0 && r < rowCount())
            out << lineAt(r).line.text;
    return out.join(QLatin1Char('\n'));
}

} // namespace sp::gui
