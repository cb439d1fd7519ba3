#pragma once
// The window's state and actions, with no widget in it: detection (a child process, or
// a recorded snapshot), the catalog and settings, a plan per workload, and the one
// primary action (install and launch → launch → stop). The workflow is the session's
// (app/common/session): the controller starts its jobs, answers its confirmation and
// shows its events (app_session.cpp); it sequences no step of its own. Short reads run
// on the one background helper (background.h). Tests drive it without a window.

#include "app/common/ledger/shared_record.h"
#include "app/common/session/events.h"
#include "app/gui/controllers/failure.h"
#include "app/gui/controllers/install_progress.h"
#include "app/gui/models/console_model.h"
#include "app/gui/models/gpu_table_model.h"
#include "app/gui/models/plan_view.h"
#include "core/catalog/loader.h"
#include "core/failure_cause.h"
#include "core/launch/env_composer.h"
#include "core/select/select.h"
#include "core/settings.h"
#include "detectors/detect.h"
#include "installers/install_journal.h"
#include "installers/model_vault.h"
#include "installers/uninstall.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace sp::logmatch {
struct UnknownFailure;
}

namespace sp::session {
class Session;
}

namespace sp::gui {

struct KnownIssueNotice
{
    QString id;
    QString title;
    qint64 line = 0;
    QString excerpt;
    QString remedy;     // what the fix is, in words
    QString buttonText; // empty: advice only, nothing to apply
    QStringList references;
    // A stack failed its smoke test: the button switches to this profile and launches
    // it, instead of applying a remedy (empty: a known issue's notice).
    QString switchTo;
};

// A line in StackPilot's own log (core/app_log.h), written off the GUI thread; nothing
// while the window shows a recorded PC (setEventLog(false)), which writes nothing.
void logEvent(std::string text);
void setEventLog(bool on);

// The checklist before an install (app_checklist.cpp): the session's preview in words,
// then the stack's own advice.
QStringList checklistFor(const session::ConfirmInstall& c, const Catalog& catalog,
                         const QStringList& advice);

// A row of the Models view (app_models.cpp): a catalog model, or a file imported into the
// vault.
struct ModelRow
{
    QString id; // the catalog model's id; "" for an imported file
    QString name;
    quint64 bytes = 0;
    QStringList usedBy; // the workloads that run it, in words
    bool inVault = false;
    bool owned = false;       // downloaded by StackPilot: Remove frees its bytes
    std::optional<bool> fits; // on the card StackPilot would use; nullopt: not known
    quint64 received = 0;     // while pulling, or what a paused pull kept
    bool pulling = false;
};

// A smoke test's result as it would be shared (app_share.cpp).
struct ShareOffer
{
    std::string key;        // the evidence record's (shared.json)
    std::string declineKey; // "<profile>|<gpu>": "Not now" is remembered per stack and card
    ledger::SharedRecord record;
    std::string text;    // exactly what is queued and sent
    std::string ledger;  // where it is sent (ledger::ledgerAddress), or ""
    std::string formUrl; // without a ledger, the feed's report form with the record filled in
    bool launch = false; // a launch's result (asked once per stack and card), not a smoke test's
};

enum class ShareAnswer
{
    Share,
    NotNow,
    Always,
    Never
};

class AppController : public QObject
{
    Q_OBJECT
public:
    enum class Phase
    {
        Detecting, // the window is up; detection, catalog and plans are on their way
        Ready,
        Preparing, // the session plans and checks the downloads, or waits for the checklist
        Installing,
        Launching, // steps and start-up of the workload
        Running,
        Stopping
    };

    struct Options
    {
        QString cliProgram;                 // stackpilot-cli, for detection in a child process
        DetectOptions detect;               // what the child is told (sysfs root, probes, timeout)
        std::filesystem::path hardwareFile; // a recorded machine: plans only, nothing is run
        std::optional<HardwareSnapshot> snapshot;
        std::vector<std::filesystem::path> catalogDirs;
    };

    explicit AppController(Options options, QObject* parent = nullptr);
    ~AppController() override;

    void start();

    Phase phase() const { return m_phase; }
    bool recordedMachine() const { return !m_options.hardwareFile.empty(); }
    // Detection has finished with a machine (with or without a GPU).
    bool detectionDone() const { return m_haveSnapshot; }
    const std::filesystem::path& recordedFile() const { return m_options.hardwareFile; }
    // Detection as the window's child `stackpilot-cli detect` runs it, for code that
    // detects in-process on a worker thread (the diagnostics bundle).
    DetectOptions detectOptions() const { return m_options.detect; }
    // False when the window shows a machine it was given (a file, or a snapshot in memory).
    bool detectsThisMachine() const
    {
        return m_options.hardwareFile.empty() && !m_options.snapshot;
    }
    const std::vector<std::filesystem::path>& catalogDirs() const { return m_options.catalogDirs; }
    QString detectionError() const { return m_detectError; }
    const HardwareSnapshot& snapshot() const { return m_gpus.snapshot(); }
    const Catalog* catalog() const;
    const Settings& settings() const { return m_settings; }
    QStringList workloads() const;
    QString workloadName(const QString& id) const;
    QString workload() const { return m_workload; }
    void setWorkload(const QString& id);
    const PlanView* plan(const QString& workload) const;
    const PlanView* currentPlan() const { return plan(m_workload); }
    QString runningWorkload() const { return m_running; }
    QString runningProfile() const { return m_runningProfile; }
    QString url() const { return m_url; }
    QString logPath() const { return m_logPath; }
    QString lastExit() const { return m_lastExit; }
    std::optional<PendingInstall> pendingInstall() const { return m_pending; }
    bool pendingFailed() const { return m_pending && !m_pending->failed.empty(); }

    // Stacks ▸ Uninstall (app_uninstall.cpp): the workload's current stack, while nothing
    // runs or installs, on this PC only. The preview measures what it frees; the removal
    // answers with an error ("" when it worked) and the bytes freed.
    // Sharing a smoke test's or a launch's result (issue 34): the answer to shareOffered;
    // or no answer (a window in the tray asks nothing), so it is asked again next time.
    void answerShare(ShareAnswer answer);
    void skipShareOffer() { m_shareOffer.reset(); }
    bool canUninstall(const QString& workload) const;
    void previewUninstall(const QString& workload, std::function<void(const StackRemoval&)> then);
    void uninstallStack(const QString& workload,
                        std::function<void(const QString& error, quint64 freed)> done);
    QString primaryText() const;
    // Every text primaryText() can give, in the current language: the button is made as
    // wide as the widest, so it never moves or resizes as the text changes.
    static QStringList primaryTexts();
    bool primaryEnabled() const;
    QString primaryToolTip() const;
    void primary();
    // The session's run of the current workload: installs what is missing (after the
    // checklist: confirmInstall), proves a new stack, launches. Every entry point (the
    // button, the Profiles menu, the tray) comes here.
    void launch();
    void stop();
    void cancelInstall();
    void resumeInstall();
    void discardPendingInstall();
    // The answer to confirmInstall.
    void answerInstall(bool yes);
    // Whether closing the window would stop something (a workload, an install).
    bool busy() const
    {
        return (m_phase != Phase::Ready && m_phase != Phase::Detecting) || !m_background.empty();
    }

    // Several workloads at once (issue 31), each on its own GPU: launching another workload
    // while one runs moves the running one to the background, where its session goes on
    // (app_runs.cpp). The console shows the foreground one; a background one's output goes
    // to its log file.
    QStringList runningWorkloads() const; // foreground first
    bool isRunning(const QString& workload) const;
    // Stops that workload only, wherever it runs; stopAll() stops every one (quit).
    void stopWorkload(const QString& workload);
    void stopAll();
    // The GPU a running workload runs on, by name ("" when it runs on the processor).
    QString runningGpu(const QString& workload) const;
    // The GPU chooser of the card (shown with more than one GPU): -1 = the default rule,
    // else an index into the snapshot's GPUs, remembered by identity in settings
    // (workloads.<id>.gpu; in memory only for a recorded PC).
    void setGpuFor(const QString& workload, int gpu);

    // Models (issue 30, app_models.cpp). The vault is read off the GUI thread; a pull runs
    // on a session of its own, so it goes on while a workload runs; pausing cancels it and
    // the next pull resumes from what arrived.
    void refreshModels();
    const QVector<ModelRow>& models() const { return m_modelRows; }
    quint64 vaultBytes() const { return m_vaultBytes; }
    std::optional<quint64> vaultFree() const { return m_vaultFree; }
    // The free space where stacks install (measured off the GUI thread with the models);
    // none on a recorded PC, whose disk is not this one.
    std::optional<quint64> installFree() const { return m_installFree; }
    QString installFolder() const;
    QString modelsFolder() const;
    void pullModel(const QString& id);
    void pausePull();
    QString pulling() const { return m_pulling; }
    void removeModel(const QString& id);
    bool takesModel(const QString& workload) const;
    QStringList modelsFor(const QString& workload) const; // catalog ids, smallest first
    // The workload's model: the one chosen on its card (settings), else the largest that
    // fits the card its plan uses; "" when it takes none.
    QString modelFor(const QString& workload) const;
    void setModelFor(const QString& workload, const QString& model);
    std::optional<bool> modelFits(const QString& model, const QString& workload) const;
    int gpuChoiceOf(const QString& workload) const; // -1: the default rule

    // The profiles menu: "" = the best one. A profile rejected for a known issue is used
    // only with acceptRejected (the window asks first).
    void chooseProfile(const QString& workload, const QString& profile, bool acceptRejected);
    // After a failed smoke test: make `profile` the workload's choice, then launch it.
    void switchStack(const QString& profile);
    // Makes the last profile whose smoke test passed on this PC the workload's choice.
    void rollbackStack();
    QString activeProfile(const QString& workload) const;
    bool profileForced(const QString& workload) const;

    // The failure the window shows now, if any (app_failures.cpp), and its actions.
    const std::optional<FailureNotice>& currentFailure() const { return m_failure; }
    void retry();           // the failed install, or detection, again
    void continueWithCpu(); // after a failed detection: plan for the processor only
    // View ▸ Detect again: the cards are read again (a driver installed, a card plugged
    // in), whatever the last detection said; not while an install or a workload runs.
    void detectAgain();
    bool detecting() const { return !m_detect.isNull(); }
    void clearFailure();
    // Plans again, so that the plans' words follow a language change, and makes the
    // failure on screen again in the new language.
    void relabel();

    QString remedyButtonText(const std::string& issueId) const;
    void applyRemedy(const QString& issueId);

    // Changes settings.json off the GUI thread, on the one writer: the file is read,
    // changed and written under its lock (Settings::update), so what the CLI changed
    // meanwhile is kept; then the window takes the result and plans again. `done` gets
    // the error ("" when saved).
    void updateSettings(Settings::Change change, std::function<void(QString)> done = {});
    // The environment the current plan's launch would get, against this process's.
    std::optional<ComposedLaunch> composedEnvironment() const;

    InstallProgress& installProgress() { return m_progress; }
    ConsoleModel& console() { return m_console; }
    GpuTableModel& gpus() { return m_gpus; }
    // Every event of the session, in order, as the window got it (tests compare).
    session::Session* session() const { return m_session.get(); }

signals:
    void phaseChanged();
    void detected();
    void plansChanged();
    void settingsChanged();
    void knownIssue(const sp::gui::KnownIssueNotice& notice);
    void urlAnnounced(const QString& url);
    // A setup step started or ended; `running` is false once none runs any more.
    void stepChanged(const QString& text, bool running);
    void notice(const QString& text, bool error);
    void failure(const sp::gui::FailureNotice& f);
    void failureCleared();
    // "Help other owners of a <card>: share this result?", with exactly what would leave.
    // `viaBrowser`: Share opens the feed's report form in the browser (there is no ledger).
    void shareOffered(const QString& question, const QString& record, bool viaBrowser);
    // Before an install: what it means, from the session's preview (answerInstall).
    void confirmInstall(const QString& title, const QString& headline, const QStringList& items);
    // A launch began; its log file.
    void launchStarted(const QString& logPath);
    // Every event of the session, after the controller took it.
    void sessionEvent(const sp::session::Event& e);
    // A workload started or stopped running, in the foreground or the background.
    void runsChanged();
    // The Models view's rows changed (the vault was read again, a pull moved on).
    void modelsChanged();

private:
    void setPhase(Phase p);
    void detect();
    void acceptSnapshot(const HardwareSnapshot& snap);
    void loadData();
    void maybePlan();
    void replan(std::function<void()> then = {});
    void watchSettings();
    QString firstWorkload() const;
    void rememberWorkload();
    // The settings as written (or the error of writing them): the window plans with them.
    void takeSettings(Expected<Settings> saved, const std::function<void(QString)>& done);
    // The session (app_session.cpp): made once the catalog and the machine are known.
    void makeSession();
    void onSessionEvent(const session::Event& e);
    // StackPilot's own console line for an install or setup event (app_notes.cpp).
    QString noteFor(const session::Event& e) const;
    QString stepNote(const session::StepChanged& s) const;
    void addNote(const session::Event& e);
    void maybeOfferShare(const std::string& profile, EvidenceKind kind);
    void onSessionFinished();
    void takeLine(const session::ConsoleLine& l);
    void flushLines();
    void onConfirm(const session::ConfirmInstall& c);
    void onSwitched(const session::ProfileSwitched& s);
    void onFailed(const session::Failed& f);
    void onExited(const session::WorkloadExited& x);
    void onLaunchStarted(const session::LaunchStarted& l);
    void startInstall(const PendingInstall& p);
    void reportInstallFailure(const QString& error, Cause cause, const QString& switchTo);
    void onLaunchEnded(const QString& workload, const QString& profile,
                       const Expected<bool>& result);
    // After a failed smoke test: the banner that offers the next stack (app_verify.cpp).
    void offerSwitch(const session::ProfileSwitched& s);
    // The pending-install journal, read again off the GUI thread.
    void readPending();
    void reportInternalFailure(const QString& error);
    void reportDetectionFailure();
    void explainUnknown(FailureNotice& f, const logmatch::UnknownFailure& u) const;
    void reportCrash(const QString& workload, const QString& profile, const QString& exitText,
                     bool crashed);
    void setSwitchOffer(FailureNotice& f, const QString& failed) const;
    QString issueTitle(const std::string& id) const;
    QString issueFix(const std::string& id, const std::string& fallback) const;
    QString gpuName() const;
    KnownIssueNotice noticeFor(const session::KnownIssueSeen& k) const;
    void onStep(const session::StepChanged& s);
    // Several runs (app_runs.cpp): the foreground session's events and end, and the
    // background's.
    void routeEvent(int serial, const session::Event& e);
    void routeFinished(int serial);
    void onBackgroundFinished(int serial);
    void detachForeground();
    bool launchesBeside() const; // the current workload may start beside a running one
    void onSharedGpu(const session::SharedGpu& s);
    void onPullEvent(const session::Event& e);
    void onPullFinished();
    void buildModelRows();

    struct BackgroundRun
    {
        int serial = 0;
        std::unique_ptr<session::Session> session;
        QString profile;
        QString url;
        std::optional<int> gpu; // index into the snapshot's GPUs
        bool stopping = false;
    };

    Options m_options;
    QPointer<QProcess> m_detect; // the detection child while it runs
    Phase m_phase = Phase::Detecting;
    QString m_detectError;
    bool m_haveSnapshot = false;
    std::shared_ptr<const LoadedCatalog> m_catalog;
    Settings m_settings;
    std::optional<PendingInstall> m_pending;
    std::unique_ptr<session::Session> m_session;
    int m_serial = 0; // m_session's; events of other serials belong to a background run
    std::map<QString, BackgroundRun> m_background;   // by workload
    std::unique_ptr<session::Session> m_pullSession; // the Models view's pulls
    QString m_pulling;
    QVector<ModelRow> m_modelRows;
    quint64 m_vaultBytes = 0;
    std::optional<quint64> m_vaultFree;
    std::optional<quint64> m_installFree;
    std::vector<VaultFile> m_vaultFiles;
    std::map<QString, PlanView> m_views;
    QString m_workload;
    QString m_running;
    QString m_runningProfile;
    QString m_url;
    QString m_lastExit;
    QString m_logPath;
    bool m_relaunch = false;
    bool m_launchAfterPlan = false; // switchStack: launch once the new choice is planned
    bool m_rerunSteps = false;
    bool m_launched = false;  // the workload itself started (not only its smoke test)
    bool m_smokeTest = false; // the launch under way is a stack's smoke test
    std::optional<FailureNotice> m_failure;
    std::function<void()> m_remakeFailure; // the report that made m_failure, again
    std::optional<ShareOffer> m_shareOffer;
    bool m_catalogBroken = false; // the catalog could not be read: no plan at all
    QString m_seenIssue;          // the known problem this launch's output showed, in words
    std::optional<session::WorkloadExited> m_exit;
    std::optional<session::Failed> m_failed;          // this job's failure, if any
    std::optional<session::ProfileSwitched> m_switch; // the next profile the run named
    std::optional<session::StackVerified> m_verified; // this run's last smoke test
    SelectSettings m_base; // what the plans were made with (session::selectBaseFor)
    QVector<ConsoleModel::Incoming> m_lines; // this batch's, for the console at once
    qint64 m_linesDropped = 0;
    GpuTableModel m_gpus;
    ConsoleModel m_console;
    InstallProgress m_progress;
    QFileSystemWatcher m_settingsWatch; // the config folder: settings.json changed elsewhere
};

} // namespace sp::gui
