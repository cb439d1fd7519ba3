#pragma once
// The one place the workflow of a workload lives: plan → recover leftovers → install
// missing runtimes → repair → setup steps → launch → watch. The CLI's verbs (install,
// repair, launch, run) and the window call it and only print or show its events
// (events.h); neither holds a copy of a step.
//
// Before an install, a preflight checks every download (a profile whose artifact is gone
// is skipped); before the first launch of a new or changed stack, its smoke test proves
// it computes on this card, and a failure moves to the next profile (docs/VERIFY.md).
//
// A Session runs each step on the thread that calls it and blocks that thread: the
// CLI calls it from main, the window from its own worker threads (SessionWorker). Any
// thread, or a signal handler, may cancel it.

#include "app/common/session/events.h"
#include "core/catalog/types.h"
#include "core/evidence/evidence.h"
#include "core/expected.h"
#include "core/launch/launch_prep.h"
#include "core/remedy/remedy.h"
#include "core/select/select.h"
#include "core/settings.h"
#include "core/snapshot.h"
#include "installers/installer.h"
#include "installers/preflight.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace sp::session {

struct Context
{
    const Catalog* catalog = nullptr; // outlives the session
    HardwareSnapshot snapshot;
    std::filesystem::path settingsFile; // empty: Settings::defaultFile()
    std::filesystem::path prefixRoot;   // empty: <data>/runtimes
    EnvMap userEnv;                     // what the workload's environment starts from
    std::filesystem::path evidenceFile; // empty: EvidenceStore::defaultFile()
    std::string catalogVersion;         // for the evidence records; "" = "shipped"
};

// The context every front end starts from: the catalog, this machine, and the
// environment the workload's starts from; the folders and files are the defaults.
inline Context contextFor(const Catalog* catalog, HardwareSnapshot snapshot, EnvMap userEnv = {})
{
    Context c;
    c.catalog = catalog;
    c.snapshot = std::move(snapshot);
    c.userEnv = std::move(userEnv);
    return c;
}

// What `run` is about to install, for the confirmation.
struct InstallPreview
{
    std::vector<std::string> runtimes;
    std::uint64_t downloadBytes = 0; // what the preflight learned
    bool sizesKnown = true;
    std::vector<std::string> unsized; // runtimes whose size nobody gave: named, not guessed
};

struct RunOptions
{
    std::string workload;
    std::string profile;                // "" = the settings' choice, else the best
    std::vector<std::string> extraArgs; // appended to the workload's argv
    bool rerunSteps = false;
    // A failed smoke test or a missing download moves to the next-ranked profile
    // without asking (else the run stops and names the next one).
    bool autoFallback = false;
    bool verify = true;     // run the smoke test when the stack is new or changed here
    InstallOptions install; // base options of the installs: offline folder, TOFU
    // Asked once before anything is installed, with the runtimes that will be (none:
    // not asked); false ends the run as cancelled. Null: never asked.
    std::function<bool(const LaunchRequest&, const InstallPreview&)> confirm;
};

// Where the last passing profile was put back by `rollback`.
struct Rollback
{
    std::string profile;
    std::string passedAt;
    std::vector<std::string> notes; // runtimes whose version moved since it passed
};

class Session
{
public:
    Session(Context context, EventSink sink);

    // From any thread or a signal handler (it only touches atomics): the first call
    // cancels an install and stops a launch gracefully, a second kills the launch's tree.
    void cancel() noexcept;
    bool cancelled() const noexcept { return m_cancels.load() > 0; }

    // Recovers what crashed installs left behind (the one place that does), then
    // installs `runtimes` in order. `stage` names the step in events (Install, Repair).
    Expected<std::vector<InstallResult>> install(const std::vector<const Runtime*>& runtimes,
                                                 InstallOptions options,
                                                 Stage stage = Stage::Install);

    // The profile `run` would launch for the workload: `profile` when given, else the
    // settings' choice, else the best; a runtime error says why none fits.
    Expected<std::string> chooseProfile(const std::string& workload, const std::string& profile);

    // Plans and composes a launch of `profile` with the user's settings as they are now.
    Expected<LaunchRequest> prepare(const std::string& profile,
                                    const std::vector<std::string>& extraArgs);

    // Before a launch: reinstalls the runtimes that repair remedies asked for (their
    // steps then run again and the remedies are done), then installs the plan's missing
    // runtimes when `installMissing`, else fails naming the first missing one.
    Expected<void> readyToLaunch(LaunchRequest& request, bool installMissing,
                                 const InstallOptions& base = {});

    // Checks every download of `runtimes` (installers/preflight.h) the way an install
    // with `base` would fetch it, and reports PreflightChecked for `profile`; nothing is
    // written. The window's installs and `run` both check before installing.
    Preflight preflight(const std::vector<const Runtime*>& runtimes, const InstallOptions& base,
                        const std::string& profile);
    // The same for the runtimes the request still needs.
    Preflight preflight(const LaunchRequest& request, const InstallOptions& base);

    // Runs the plan's smoke test in the composed environment (after the setup steps),
    // records the outcome on this machine and reports StackVerified. A usage error
    // when the profile has no smoke test.
    Expected<StackVerified> verify(const LaunchRequest& request,
                                   EvidenceKind kind = EvidenceKind::Verify);

    // Whether the request's stack should prove itself before this launch: it has a
    // smoke test and no passing record here with this driver, or was just installed.
    bool needsVerify(const LaunchRequest& request, bool installedNow) const;

    // What this machine's records say about the workload's profiles, on this card.
    Expected<std::map<std::string, LocalVerdict>> verdicts() const;

    // Makes the last profile whose smoke test passed on this card the workload's
    // choice again (settings.json); a runtime error when none passed here.
    Expected<Rollback> rollback(const std::string& workload);

    // The smoke test's timed part for every profile of the workload that fits this
    // machine, is installed and has a smoke test: one StackVerified each.
    Expected<std::vector<StackVerified>> bench(const std::string& workload);

    // After the runtimes a repair remedy asked for were reinstalled: the steps of the
    // profiles that use them run again, and the remedies are done (forgotten from the
    // settings, under their lock).
    Expected<void> completeRepair(const std::vector<std::string>& runtimeIds,
                                  const std::string& workload,
                                  const std::filesystem::path& dataDir);

    // Runs the launch on this thread, in a local event loop, until the workload ends;
    // true when the steps and the workload succeeded. `log` receives the log's path.
    Expected<bool> launch(LaunchRequest request, std::filesystem::path* log = nullptr);

    // The whole one-click path: choose, prepare, repair and install, steps, launch.
    Expected<bool> run(const RunOptions& options, std::filesystem::path* log = nullptr);

    // Applies (or undoes) a known issue's remedy to the workload's settings, read,
    // changed and written under the settings lock. An already applied remedy changes
    // nothing (RemedyChange::changed is false).
    Expected<RemedyChange> applyRemedy(const std::string& issue, const std::string& workload);
    Expected<RemedyChange> undoRemedy(const std::string& issue, const std::string& workload);

    // The settings file as it is now (defaults when missing).
    Expected<Settings> settings() const;

private:
    Expected<void> repair(LaunchRequest& request);
    // chooseProfile without the event: the profile, or why none fits.
    Expected<std::string> pickProfile(const std::string& workload,
                                      const std::string& profile) const;
    // The host's folders, with this machine's verdicts and the profiles this run skips.
    Expected<SelectSettings> selectBase() const;
    // `timedOut`, when given, says whether the launch ran past request.deadlineMs.
    Expected<bool> runLaunch(LaunchRequest request, const EventSink& sink,
                             std::filesystem::path* log, bool* timedOut = nullptr);
    // One profile of `run`: true = launched (its result in `launched`), false = the
    // profile was skipped (missing download, failed smoke test) and the next may go.
    Expected<bool> runProfile(const RunOptions& options, const std::string& profile,
                              Expected<bool>& launched, std::filesystem::path* log);
    // Preflight, confirmation, repairs and installs; false (with `missing`) when a
    // download of the profile is gone.
    Expected<bool> provision(LaunchRequest& request, const RunOptions& options,
                             std::string& missing);
    void record(const LaunchRequest& request, const StackVerified& v, EvidenceKind kind) const;
    // After a profile was skipped: the next one, announced (ProfileSwitched).
    Expected<void> skip(const std::string& profile, const std::string& reason,
                        const RunOptions& options, Stage stage);
    Expected<RemedyChange> changeRemedy(bool apply, const std::string& issue,
                                        const std::string& workload);
    // Calls the sink, one event at a time (installs report from worker threads).
    void send(const Event& e) const;
    // Reports `e` as a Failed event of `stage` and returns it.
    Error fail(Stage stage, Error e) const;

    Context m_ctx;
    EventSink m_sink;
    mutable std::mutex m_emitting;
    std::atomic<int> m_cancels{0};
    std::vector<std::string> m_skipped; // profiles this run moved away from
    CancelToken m_installCancel;
};

} // namespace sp::session
