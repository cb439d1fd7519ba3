#pragma once
// The workload's console as a bounded list: the newest `maxLines` lines (the whole log
// is on disk, and the window links to it), each with its ANSI colours as spans, its
// severity (error and warning lines are marked) and its number in the launch log, so
// a known issue's "line N" points at the right row. Appending is a batch operation:
// a workload that prints a million lines costs one model update per batch.

#include "app/gui/models/ansi.h"

#include <QAbstractListModel>
#include <deque>
#include <optional>

namespace sp::gui {

// One kept line. Its colours and severity are worked out the first time they are asked
// for (when the row is painted, searched or counted), so a flood of output costs a
// string copy per kept line on the GUI thread and nothing more.
class ConsoleLine
{
public:
    enum Severity : quint8
    {
        Normal,
        Warning,
        Error,
        Issue, // the line a known issue matched
        Note   // StackPilot's own line (an install or setup step), not the workload's
    };
    ConsoleLine(QString raw, qint64 number, bool isStderr, bool note = false)
        : m_raw(std::move(raw)), m_number(number), m_stderr(isStderr), m_note(note)
    {}
    const AnsiLine& ansi() const;
    const QString& text() const { return ansi().text; } // without escapes
    Severity severity() const;
    qint64 number() const { return m_number; } // 1-based, as in the launch log; 0: a note
    bool isStderr() const { return m_stderr; }
    void markIssue() { m_issue = true; }

private:
    QString m_raw; // with escapes
    mutable std::optional<AnsiLine> m_ansi;
    mutable std::optional<Severity> m_severity;
    qint64 m_number = 0;
    bool m_stderr = false;
    bool m_issue = false;
    bool m_note = false;
};

class ConsoleModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Roles
    {
        SeverityRole = Qt::UserRole + 1,
        SpansRole,
        NumberRole,
        StderrRole
    };

    explicit ConsoleModel(int maxLines = 20000, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

    struct Incoming
    {
        QString text; // with ANSI escapes
        bool isStderr = false;
        bool note = false; // StackPilot's own: not in the launch log, so not numbered
    };
    // `skipped` lines came before these and are not kept (a flood larger than the
    // limit): they count for the numbering only.
    void append(const QVector<Incoming>& lines, qint64 skipped = 0);
    void clear();
    // Marks the line with this log number as a known issue's match (when still kept).
    void markIssue(qint64 number);

    const ConsoleLine& lineAt(int row) const { return m_lines[std::size_t(row)]; }
    int maxLines() const { return m_max; }
    qint64 totalLines() const { return m_total; }
    qint64 droppedLines() const { return m_total - (qint64(m_lines.size()) - m_notes); }
    int countOf(ConsoleLine::Severity s) const;
    // The row of the next line containing `needle` (case-insensitive) after `from`
    // (or before it, backwards), wrapping around; -1 when none.
    int find(const QString& needle, int from, bool backwards = false) const;
    // Plain text of the rows, one line each: what "Copy" puts on the clipboard.
    QString text(const QList<int>& rows) const;

    static ConsoleLine::Severity classify(const QString& plain);

private:
    int m_max;
    std::deque<ConsoleLine> m_lines;
    qint64 m_total = 0; // the workload's lines so far, kept or not
    qint64 m_notes = 0; // kept notes
};

} // namespace sp::gui
