#pragma once
// The one place the workflow of a workload lives: plan → recover leftovers → install
// missing runtimes → repair → setup steps → launch → watch. The CLI's verbs (install,
// repair, launch, run) and the window call it and only print or show its events
// (events.h); neither holds a copy of a step.
//
// A Session runs each step on the thread that calls it and blocks that thread: the
// CLI calls it from main, the window from its own worker threads (SessionWorker). Any
// thread, or a signal handler, may cancel it.

#include "app/common/session/events.h"
#include "core/catalog/types.h"
#include "core/expected.h"
#include "core/launch/launch_prep.h"
#include "core/remedy/remedy.h"
#include "core/settings.h"
#include "core/snapshot.h"
#include "installers/installer.h"

#include <atomic>
#include <filesystem>
#include <functional>
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
};

struct RunOptions
{
    std::string workload;
    std::string profile;                // "" = the settings' choice, else the best
    std::vector<std::string> extraArgs; // appended to the workload's argv
    bool rerunSteps = false;
    // Asked once before anything is installed, with the runtimes that will be (none:
    // not asked); false ends the run as cancelled. Null: never asked.
    std::function<bool(const LaunchRequest&, const std::vector<std::string>& toInstall)> confirm;
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
    Expected<void> readyToLaunch(LaunchRequest& request, bool installMissing);

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
    CancelToken m_installCancel;
};

} // namespace sp::session
