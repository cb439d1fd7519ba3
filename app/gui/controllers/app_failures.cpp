// AppController's failures: each one becomes a FailureNotice for the panel that
// failed (an install, detection, a workload that ended by itself), with the actions
// that apply, and the actions themselves (Retry, continue with CPU stacks, switch).

#include "app/common/diag/cause_words.h"
#include "app/common/diag/redact.h"
#include "app/gui/controllers/app_controller.h"
#include "app/gui/controllers/background.h"
#include "app/gui/models/plain_words.h"
#include "core/logmatch/explain.h"
#include "core/paths.h"
#include "core/qt_text.h"

namespace sp::gui {

void AppController::relabel()
{
    if (m_failure && m_remakeFailure)
        m_remakeFailure();
    replan();
}

// The cause in words from its typed cause, set where the install failed: the same
// words the CLI prints (app/common/diag/cause_words.h).
void AppController::reportInstallFailure(const QString& error, Cause cause, const QString& switchTo)
{
    m_remakeFailure = [this, error, cause, switchTo] {
        reportInstallFailure(error, cause, switchTo);
    };
    FailureNotice f;
    f.kind = FailureNotice::Kind::Install;
    f.title = tr("The install did not finish");
    f.cause = causeWords(cause);
    f.detail = error;
    f.actions = {FailureNotice::Action::Retry, FailureNotice::Action::Discard};
    // The proxy is worth a look only when the server could not be reached.
    if (cause == Cause::Network || cause == Cause::Tls || cause == Cause::Unknown)
        f.actions << FailureNotice::Action::ProxySettings;
    if (!switchTo.isEmpty() && catalog()) {
        f.switchTo = switchTo;
        f.switchLabel = tr("Use %1 instead").arg(stackTitle(*catalog(), toStd(switchTo)));
        f.actions << FailureNotice::Action::SwitchStack;
    } else {
        setSwitchOffer(f, currentPlan() ? currentPlan()->profile : QString());
    }
    f.actions << FailureNotice::Action::ExportDiagnostics;
    m_failure = f;
    emit failure(f);
}

// The session's worker stopped on an exception: a card, never a button left waiting.
void AppController::reportInternalFailure(const QString& error)
{
    m_remakeFailure = [this, error] { reportInternalFailure(error); };
    FailureNotice f;
    f.kind = FailureNotice::Kind::Install;
    f.title = tr("StackPilot stopped on an internal error");
    f.cause = causeWords(Cause::Internal);
    f.detail = error;
    f.actions = {FailureNotice::Action::Retry, FailureNotice::Action::ExportDiagnostics};
    m_failure = f;
    emit failure(f);
}

void AppController::reportDetectionFailure()
{
    m_remakeFailure = [this] { reportDetectionFailure(); };
    FailureNotice f;
    f.kind = FailureNotice::Kind::Detection;
    f.title = tr("StackPilot could not detect the graphics card");
    f.cause = !m_catalogBroken
                  ? tr("The check of the graphics hardware failed. Press Retry, or go on "
                       "with the stacks that run on the processor (slower, but they work "
                       "without a graphics driver).")
                  : tr("StackPilot's knowledge files could not be read. Press Retry; if "
                       "this persists, export diagnostics and report it.");
    f.detail = m_detectError;
    // The likeliest cause on a new PC is no graphics driver at all: name where each
    // vendor publishes its own.
    if (!m_catalogBroken)
        f.links = tr("No graphics driver installed yet? Get it from your card's maker: "
                     "<a href=\"https://www.amd.com/en/support/download/drivers.html\">AMD</a>, "
                     "<a href=\"https://www.nvidia.com/en-us/drivers/\">NVIDIA</a>, "
                     "<a href=\"https://www.intel.com/content/www/us/en/download-center/"
                     "home.html\">Intel</a>. Then choose View ▸ Detect graphics cards again.");
    f.actions = {FailureNotice::Action::Retry};
    if (!m_catalogBroken)
        f.actions << FailureNotice::Action::ContinueWithCpu;
    f.actions << FailureNotice::Action::ExportDiagnostics;
    m_failure = f;
    emit failure(f);
}

// After a workload ended by itself with an error: a known problem's words when its
// output showed one, else how it ended.
void AppController::reportCrash(const QString& workload, const QString& profile,
                                const QString& exitText, bool crashed)
{
    m_remakeFailure = [=, this] { reportCrash(workload, profile, exitText, crashed); };
    const QString name = workloadName(workload);
    FailureNotice f;
    f.kind = FailureNotice::Kind::Crash;
    f.title = crashed ? tr("%1 crashed").arg(name) : tr("%1 stopped with an error").arg(name);
    f.cause =
        m_seenIssue.isEmpty()
            ? (crashed
                   ? tr("The workload crashed: %1.").arg(exitText)
                   : tr("The workload %1. Its last lines are in the console above.").arg(exitText))
            : m_seenIssue;
    f.detail = exitText;
    f.logPath = logPath();
    setSwitchOffer(f, profile);
    f.actions << FailureNotice::Action::ExportDiagnostics << FailureNotice::Action::OpenLog;
    if (!m_seenIssue.isEmpty() || f.logPath.isEmpty()) {
        m_failure = f;
        emit failure(f);
        return;
    }
    // The log is read off the GUI thread; the card follows with what it says.
    const std::filesystem::path log = toPath(f.logPath);
    runInBackground(
        this, [log] { return logmatch::explainFile(log, 0); },
        [this, f](const logmatch::UnknownFailure& u) mutable {
            explainUnknown(f, u);
            m_failure = f;
            emit failure(f);
        });
}

// No known problem matched: the line of the log that decides it, where it comes from,
// and what to search for and report (core/logmatch/explain.h).
void AppController::explainUnknown(FailureNotice& f, const logmatch::UnknownFailure& u) const
{
    if (!u.found)
        return;
    // How it ended stays first; the line that explains it follows.
    f.cause += QStringLiteral("\n\n") +
               tr("Not a known problem yet. The line that decides it comes from %1:\n%2")
                   .arg(componentPhrase(u.component), qs(u.decisive));
    for (const auto& l : u.lines)
        f.detail += QStringLiteral("\n") + qs(l);
    diag::RedactionCounts counts;
    const diag::Redactor redactor(diag::Identity::fromEnvironment());
    f.searchText = qs(redactor.text(u.searchText, counts));
    f.report = qs(redactor.text(
        logmatch::failureReport(u, paths::toUtf8(toPath(f.logPath).filename())), counts));
    f.actions << FailureNotice::Action::CopySearchText << FailureNotice::Action::ReportFailure;
}

// The next stack that may work instead of `failed`: the first one that can run here and
// did not fail its check.
void AppController::setSwitchOffer(FailureNotice& f, const QString& failed) const
{
    const PlanView* v = currentPlan();
    if (!v || !v->plan || failed.isEmpty())
        return;
    for (const AlternativeRow& a : v->alternatives)
        if (!a.rejected && !a.failedHere && a.profile != failed) {
            f.switchTo = a.profile;
            f.switchLabel = tr("Use %1 instead").arg(a.title);
            f.actions << FailureNotice::Action::SwitchStack;
            return;
        }
}

void AppController::clearFailure()
{
    if (!m_failure)
        return;
    m_failure.reset();
    emit failureCleared();
}

void AppController::retry()
{
    if (!m_failure)
        return;
    const auto kind = m_failure->kind;
    clearFailure();
    if (kind == FailureNotice::Kind::Detection) {
        m_detectError.clear();
        if (m_catalogBroken)
            loadData();
        detect();
        return;
    }
    m_pending ? resumeInstall() : launch();
}

void AppController::detectAgain()
{
    if (busy() || detecting())
        return;
    clearFailure();
    m_detectError.clear();
    if (m_catalogBroken)
        loadData();
    detect();
}

// Plans for this PC's processor: a snapshot with no GPU, of this PC's OS.
void AppController::continueWithCpu()
{
    clearFailure();
    m_detectError.clear();
    HardwareSnapshot cpu;
#ifdef Q_OS_WIN
    cpu.os.family = "windows";
#else
    cpu.os.family = "linux";
#endif
    logEvent("detection failed: planning for the processor only");
    acceptSnapshot(cpu);
}

// The words of a known issue a user reads: its user title, else the maintainer's.
QString AppController::issueTitle(const std::string& id) const
{
    const KnownIssue* k = catalog() ? catalog()->knownIssue(id) : nullptr;
    if (!k)
        return {};
    return k->ui.title.empty() ? qs(k->title) : userText(k->ui.title);
}

QString AppController::issueFix(const std::string& id, const std::string& fallback) const
{
    const KnownIssue* k = catalog() ? catalog()->knownIssue(id) : nullptr;
    return k && !k->ui.fix.empty() ? userText(k->ui.fix) : qs(fallback);
}

} // namespace sp::gui
