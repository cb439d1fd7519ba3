#include "app/gui/models/console_model.h"

#include <QRegularExpression>
#include <algorithm>

namespace sp::gui {

const AnsiLine& ConsoleLine::ansi() const
{
    if (!m_ansi)
        m_ansi = parseAnsi(m_raw);
    return *m_ansi;
}

ConsoleLine::Severity ConsoleLine::severity() const
{
    if (m_note)
        return Note;
    if (m_issue)
        return Issue;
    if (!m_severity)
        m_severity = ConsoleModel::classify(text());
    return *m_severity;
}

ConsoleModel::ConsoleModel(int maxLines, QObject* parent)
    : QAbstractListModel(parent), m_max(std::max(100, maxLines))
{}

int ConsoleModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

namespace {

constexpr qsizetype kToolTipFrom = 100; // characters; shorter lines fit the view

} // namespace

QVariant ConsoleModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const ConsoleLine& l = lineAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return l.text();
    case Qt::ToolTipRole: // a long line (an out-of-memory report) is read whole here
        return l.text().size() > kToolTipFrom ? QVariant(l.text()) : QVariant();
    case SeverityRole:
        return int(l.severity());
    case SpansRole:
        return QVariant::fromValue(l.ansi().spans);
    case NumberRole:
        return l.number();
    case StderrRole:
        return l.isStderr();
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

void ConsoleModel::append(const QVector<Incoming>& lines, qint64 skipped)
{
    // Only the last m_max lines can be kept: the rest only count.
    const qsizetype drop = std::max<qsizetype>(0, lines.size() - m_max);
    m_total += skipped;
    for (qsizetype i = 0; i < drop; ++i)
        m_total += lines[i].note ? 0 : 1;
    const int incoming = int(lines.size() - drop);
    if (incoming == 0)
        return;
    const int overflow = int(m_lines.size()) + incoming - m_max;
    if (overflow > 0) {
        beginRemoveRows({}, 0, overflow - 1);
        m_notes -= std::count_if(m_lines.begin(), m_lines.begin() + overflow,
                                 [](const ConsoleLine& l) { return l.number() == 0; });
        m_lines.erase(m_lines.begin(), m_lines.begin() + overflow);
        endRemoveRows();
    }
    const int first = int(m_lines.size());
    beginInsertRows({}, first, first + incoming - 1);
    for (qsizetype i = drop; i < lines.size(); ++i) {
        const Incoming& l = lines[i];
        m_lines.emplace_back(l.text, l.note ? 0 : ++m_total, l.isStderr, l.note);
        m_notes += l.note ? 1 : 0;
    }
    endInsertRows();
}

void ConsoleModel::clear()
{
    beginResetModel();
    m_lines.clear();
    m_total = 0;
    m_notes = 0;
    endResetModel();
}

void ConsoleModel::markIssue(qint64 number)
{
    // Notes (number 0) sit between the numbered lines: look the number up, newest first.
    if (number <= 0)
        return;
    for (int row = int(m_lines.size()) - 1; row >= 0; --row) {
        const qint64 n = m_lines[std::size_t(row)].number();
        if (n == number) {
            m_lines[std::size_t(row)].markIssue();
            emit dataChanged(index(row), index(row), {SeverityRole});
            return;
        }
        if (n != 0 && n < number)
            return;
    }
}

int ConsoleModel::countOf(ConsoleLine::Severity s) const
{
    return int(std::count_if(m_lines.begin(), m_lines.end(),
                             [s](const ConsoleLine& l) { return l.severity() == s; }));
}

int ConsoleModel::find(const QString& needle, int from, bool backwards) const
{
    const int n = int(m_lines.size());
    if (needle.isEmpty() || n == 0)
        return -1;
    for (int step = 1; step <= n; ++step) {
        const int row = ((backwards ? from - step : from + step) % n + n) % n;
        if (lineAt(row).text().contains(needle, Qt::CaseInsensitive))
            return row;
    }
    return -1;
}

QString ConsoleModel::text(const QList<int>& rows) const
{
    QStringList out;
    for (int r : rows)
        if (r >= 0 && r < rowCount())
            out << lineAt(r).text();
    return out.join(QLatin1Char('\n'));
}

} // namespace sp::gui
