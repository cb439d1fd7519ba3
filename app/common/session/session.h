#pragma once
// The one place the workflow of a workload lives: plan → recover leftovers → install
// missing runtimes → repair → smoke test → setup steps → launch → watch. The CLI's verbs
// and the window start its jobs and only print or show its events (events.h); neither
// holds a copy of a step.
//
// Threads (docs/ARCHITECTURE.md): a Session belongs to the thread that creates it (its
// owner: the CLI's main thread, the window's GUI thread). It owns one worker thread, on
// which every job runs, one at a time; its events reach the owner's thread in order, in
// batches, with an artifact's progress at most about 20 times a second. A job ends with
// `finished` on the owner's thread; `outcome()` then says how. The CLI waits for it in a
// local loop; the window connects.
//
// Before an install, a preflight checks every download (a profile whose artifact is gone
// is skipped), and a run that asks first sends ConfirmInstall and waits for confirm();
// before the first launch of a new or changed stack, its smoke test proves it computes on
// this card, and a failure moves to the next profile (docs/VERIFY.md).

#include "app/common/session/events.h"
#include "app/common/session/plans.h"
#include "core/catalog/types.h"
#include "core/evidence/evidence.h"
#include "core/expected.h"
#include "core/launch/launch_prep.h"
#include "core/remedy/remedy.h"
#include "core/settings.h"
#include "installers/install_journal.h"
#include "installers/installer.h"
#include "installers/model_vault.h"
#include "installers/preflight.h"

#include <QObject>
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

class QThread;

namespace sp {
class LaunchSession;
}

namespace sp::session {

struct RunOptions
{
    std::string workload;
    std::string profile;                // "" = the settings' choice, else the best
    std::vector<std::string> extraArgs; // appended to the workload's argv
    // A catalog model in the vault or a model file: handed to the workload by its
    // "model" arguments, fitted to the planned card (session_model.cpp). "" = none.
    std::string model;
    bool rerunSteps = false;
    // A failed smoke test or a missing download moves to the next-ranked profile
    // without asking (else the run stops and names the next one).
    bool autoFallback = false;
    bool verify = true;     // run the smoke test when the stack is new or changed here
    InstallOptions install; // base options of the installs: offline folder, TOFU
    // Before anything is installed, send ConfirmInstall and wait for confirm(); a "no"
    // ends the run as cancelled. False: install without asking.
    bool confirm = false;
    // Where the install is journalled while it runs (pending-install.json); empty: not.
    std::filesystem::path journal;
};

// An install on its own: the window's Resume, the CLI's install and repair.
struct InstallWork
{
    std::vector<Runtime> runtimes; // copies, in order: the worker never needs the catalog
    InstallOptions options;
    Stage stage = Stage::Install;
    bool preflight = false; // check every download before the first byte
    std::string workload;   // for the journal and a repair's completion
    std::string profile;
    std::vector<std::string> repair; // runtimes a repair remedy asked for (completed after)
    std::filesystem::path journal;   // pending-install.json while it runs; empty: none
};

// `repair`: the runtimes to check, copies; with a profile, its venv and step receipt are
// reset too, under its launch lock.
struct RepairWork
{
    std::vector<Runtime> runtimes;
    std::string profile; // "" for a runtime's repair
    InstallOptions options;
};

struct RepairReport
{
    std::string profile;
    std::size_t problemsBefore = 0;
    bool venvRemoved = false;
    std::vector<std::string> stepsRerunFor; // profiles whose setup steps run again
    std::vector<std::string> damaged;       // re-installed, in order
};

// How a job ended. `result`: the error, or whether the work went well (the launch ended
// well, the smoke test passed, the install finished).
struct Outcome
{
    Expected<bool> result = false;
    std::filesystem::path log;            // the launch's log
    std::vector<InstallResult> installed; // an install's runtimes
    std::vector<StackVerified> verified;  // the smoke tests that ran (bench: each profile)
    std::optional<RepairReport> repair;   // what a repair found and did
    std::optional<PullReport> pull;       // what a pull brought (startPull)
};

// Where the last passing profile was put back by `rollback`.
struct Rollback
{
    std::string profile;
    std::string passedAt;
    std::vector<std::string> notes; // runtimes whose version moved since it passed
};

// The running workloads that use the card `request` is planned for, each as the event a
// front end words (shared_gpu.cpp); sent before a workload starts, never before a smoke test.
std::vector<SharedGpu> sharedGpus(const Catalog& catalog, const LaunchRequest& request);

class Session : public QObject
{
    Q_OBJECT
public:
    Session(Context context, EventSink sink, QObject* parent = nullptr);
    // Cancels what runs, ends a launch's tree and waits for the worker.
    ~Session() override;

    // From any thread: the first call cancels an install and stops a launch gracefully,
    // a second kills the launch's tree. (Not from a signal handler: the CLI forwards
    // signals through its own loop, app/cli/commands/install_support.cpp.)
    void cancel();
    bool cancelled() const noexcept { return m_cancels.load() > 0; }
    bool busy() const { return m_busy; }
    const Context& context() const { return m_ctx; }
    // The arguments that hand `ref` (a catalog model id or a file) to `workload`, with
    // the context and GPU layers that fit the planned card; a usage error when the
    // workload takes no model or `ref` names nothing, before anything is touched.
    Expected<std::vector<std::string>> modelArgs(const std::string& workload,
                                                 const std::string& ref);

    // Jobs: each runs on the worker and ends with `finished`. One at a time: a job
    // started while one runs is refused (false).
    bool startRun(RunOptions options);
    bool startInstall(InstallWork work);
    bool startRepair(RepairWork work);
    // The launch verb: repairs first, then installs what is missing when installMissing,
    // else fails naming it.
    bool startLaunch(LaunchRequest request, bool installMissing);
    bool startVerify(LaunchRequest request, EvidenceKind kind = EvidenceKind::Verify);
    // The smoke test's timed part for every installed profile of the workload that fits
    // this machine and has one: one StackVerified each.
    bool startBench(std::string workload);
    // A catalog model into the vault (the window's Models view): progress as the
    // model's ArtifactProgress, then RuntimeInstalled; a cancel keeps what arrived, and
    // the next pull goes on from there (session_pull.cpp).
    bool startPull(std::string model);
    // Short work that reads or writes StackPilot's files (plans, a remedy, a rollback),
    // on the worker, after what was started before it; `done` gets its result on the
    // owner's thread (dropped when the session is gone).
    template <class Work, class Done> void call(Work work, Done done);

    // The answer to ConfirmInstall: go on and install, or end the run as cancelled.
    void confirm(bool yes);
    const Outcome& outcome() const { return m_outcome; }

    // Quick reads and writes on the calling thread (they touch files only).
    Expected<std::string> chooseProfile(const std::string& workload, const std::string& profile);
    Expected<LaunchRequest> prepare(const std::string& profile,
                                    const std::vector<std::string>& extraArgs);
    Expected<std::map<std::string, LocalVerdict>> verdicts() const; // on the default card
    Expected<std::map<std::string, LocalVerdict>> verdicts(std::optional<int> gpu) const;
    Expected<Rollback> rollback(const std::string& workload);
    Expected<RemedyChange> applyRemedy(const std::string& issue, const std::string& workload);
    Expected<RemedyChange> undoRemedy(const std::string& issue, const std::string& workload);
    // What applying the remedy would do, on a copy of the settings (the banner's words).
    Expected<RemedyChange> previewRemedy(const std::string& issue, const std::string& workload);
    Expected<Settings> settings() const;
    // The plan of every workload, with exactly the inputs `run` uses (plans.h).
    std::map<std::string, Expected<Plan>> plans() const;
    bool needsVerify(const LaunchRequest& request, bool installedNow) const;

signals:
    void finished();

private:
    class Worker;
    struct Pending; // a run paused at ConfirmInstall

    bool begin(std::function<void()> job);
    void finish(Outcome outcome); // worker thread
    void finish(Expected<bool> result, std::filesystem::path log = {});
    void post(std::function<void()> f);           // to the worker
    void guarded(const std::function<void()>& f); // worker: an exception ends the job
    void crashed(const std::string& what);
    void postBack(std::function<void()> f); // to the owner's thread

    // Steps, on the worker.
    Expected<PullReport> pullModel(const Model& model);
    // The run's model (RunOptions::model, else the workload's in settings): its arguments
    // now, or, for a catalog model not in the vault yet, m_pullModel (pulled after the
    // checklist, then its arguments).
    Expected<void> resolveRunModel();
    Expected<void> pullRunModel(LaunchRequest& request);
    // The arguments that hand the run's model over: the file's (modelArgs), or, for an
    // app with model folders, the vault's view (viewArgs, installers/model_view.h).
    Expected<std::vector<std::string>> handOver(const std::string& ref);
    Expected<std::vector<std::string>> viewArgs(const Workload& workload);
    Expected<std::vector<InstallResult>> install(const std::vector<const Runtime*>& runtimes,
                                                 InstallOptions options,
                                                 Stage stage = Stage::Install);
    void runInstall(const InstallWork& work);
    void runRepair(const RepairWork& work);
    Expected<std::vector<const Runtime*>> damaged(const RepairWork& work, const PrefixStore& store,
                                                  RepairReport& report) const;
    Expected<void> readyToLaunch(LaunchRequest& request, bool installMissing,
                                 const InstallOptions& base = {});
    Preflight preflight(const std::vector<const Runtime*>& runtimes, const InstallOptions& base,
                        const std::string& profile);
    Preflight preflight(const LaunchRequest& request, const InstallOptions& base);
    Expected<void> repair(LaunchRequest& request);
    Expected<void> completeRepair(const std::vector<std::string>& runtimeIds,
                                  const std::string& workload,
                                  const std::filesystem::path& dataDir);
    Expected<std::string> pickProfile(const std::string& workload,
                                      const std::string& profile) const;
    Expected<SelectSettings> selectBase() const;
    void record(const LaunchRequest& request, const StackVerified& v, EvidenceKind kind) const;
    // The workload's own launch, and the launch evidence its end leaves
    // (session_launch_record.cpp).
    void launchWorkload(LaunchRequest request);
    Expected<RemedyChange> changeRemedy(bool apply, const std::string& issue,
                                        const std::string& workload);

    // The asynchronous steps: a launch (or a smoke test) on the worker's loop.
    struct LaunchEnd
    {
        Expected<bool> ok = false;
        std::filesystem::path log;
        bool timedOut = false;
    };
    // `sink` takes each of the launch's events as its own (a line is moved, not copied, on
    // its way to the owner's thread).
    void launchThen(LaunchRequest request, std::function<void(Event&&)> sink,
                    std::function<void(LaunchEnd)> then, bool smokeTest = false);
    void verifyThen(const LaunchRequest& request, EvidenceKind kind,
                    std::function<void(Expected<StackVerified>)> then);
    StackVerified judge(const LaunchRequest& request, const SmokeOutput& out, const SmokeEnd& end,
                        EvidenceKind kind, int deadlineS);
    void applyCancel(); // worker: stop or kill the launch, answer a waiting confirmation
    ConfirmInstall confirmation(const LaunchRequest& request, const Preflight& p) const;

    // `run`, one profile at a time (session_run.cpp).
    void runNext();
    void runProvisioned(LaunchRequest request, bool installing);
    // After a profile was skipped: the next one, announced (ProfileSwitched); false when
    // the run ended.
    bool skip(const std::string& profile, const std::string& reason, Stage stage);
    void benchNext(std::vector<std::string> ids, std::size_t at);

    // Delivers an event to the owner's thread, in order (any thread).
    void send(Event e) const;
    void flush() const; // owner's thread
    Error fail(Stage stage, Error e) const;

    Context m_ctx;
    EventSink m_sink;
    QThread* m_thread = nullptr;
    QObject* m_worker = nullptr; // lives on m_thread; the jobs' context
    std::atomic<int> m_cancels{0};
    // The session is going away (StackPilot quits): an install it stops stays journalled
    // as interrupted, so the next start offers Resume; a user's cancel clears it.
    std::atomic<bool> m_closing{false};
    mutable std::mutex m_cancelLock; // m_installCancel is replaced per job
    CancelToken m_installCancel;
    bool m_busy = false; // owner's thread
    Outcome m_outcome;   // the last job's, set on the owner's thread

    // Worker's state.
    LaunchSession* m_launch = nullptr;
    int m_cancelsHandled = 0;
    RunOptions m_run;
    const Model* m_pullModel = nullptr; // the run's model, to pull after the checklist
    bool m_viewLater = false;           // an app with model folders: its view, after it too
    std::string m_forced;               // the profile the run was asked for, until tried
    int m_tried = 0;
    std::vector<std::string> m_skipped; // profiles this run moved away from
    std::unique_ptr<Pending> m_pending;
    std::vector<StackVerified> m_verified;

    // Events on their way to the owner's thread.
    mutable std::mutex m_outboxLock;
    mutable std::vector<Event> m_outbox;
    // A delivered batch's room, kept for a later one (up to a bound): a flood of lines
    // then allocates nothing per event on its way, and no thread frees what the other
    // is allocating from.
    mutable std::vector<Event> m_outboxSpare;
    mutable std::map<std::pair<std::string, int>, long long> m_progressSentMs;
    mutable std::map<std::pair<std::string, int>, ArtifactProgress> m_progressHeld;
};

template <class Work, class Done> void Session::call(Work work, Done done)
{
    post([this, work = std::move(work), done = std::move(done)]() mutable {
        auto result = std::make_shared<decltype(work())>(work());
        postBack([result, done = std::move(done)]() mutable { done(std::move(*result)); });
    });
}

} // namespace sp::session
