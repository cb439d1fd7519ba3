#pragma once
// A failure as the window shows it: in the panel that failed, the cause in plain words,
// the raw detail behind a disclosure, and the actions that apply. The controller makes
// them (app_failures.cpp); the window only shows them (widgets/failure_card.h).

#include <QString>
#include <QVector>

namespace sp::gui {

struct FailureNotice
{
    enum class Kind
    {
        Install,   // a download, check or unpack failed
        Detection, // the GPUs could not be detected
        Crash      // the workload ended by itself with an error or a crash
    };
    enum class Action
    {
        Retry,             // the install again, or detection again
        ProxySettings,     // the settings, where proxy and mirrors are
        SwitchStack,       // `switchTo`, the next stack that may work
        ExportDiagnostics, // a redacted bundle for a bug report
        OpenLog,           // the workload's log file
        ContinueWithCpu,   // plan for this PC's processor only
        Discard,           // a failed install: remove its partial files
        CopySearchText,    // an unknown failure: its line, ready for a search box
        ReportFailure      // an unknown failure: a redacted report, ready to paste
    };

    Kind kind = Kind::Install;
    QString title;  // "The install did not finish"
    QString cause;  // plain words: what happened and what helps
    QString detail; // the raw message, shown on request
    QVector<Action> actions;
    QString switchTo;    // SwitchStack: the profile
    QString switchLabel; // SwitchStack: the button's words
    QString logPath;     // OpenLog
    QString searchText;  // CopySearchText
    QString report;      // ReportFailure: Markdown, redacted
    QString links;       // rich text: where to get what helps (a driver), as links

    bool has(Action a) const { return actions.contains(a); }
};

} // namespace sp::gui
