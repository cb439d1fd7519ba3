#pragma once
// The workflow's events that start below the session: what an install and a launch
// emit, as typed values, from where they happen. The session (app/common/session/
// events.h) adds its own and delivers them all as one variant; nothing converts an
// event from one type to another, and no front end reads a message's text or JSON.

#include "core/launch/contained_process.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace sp::events {

// The workflow's steps, in order (what a Failed event and a Notice name).
enum class Stage
{
    Plan,
    Preflight,
    Recover,
    Install,
    Repair,
    Verify,
    Launch,
};

constexpr const char* toString(Stage s)
{
    constexpr const char* names[] = {"plan",   "preflight", "recover", "install",
                                     "repair", "verify",    "launch"};
    return names[static_cast<int>(s)];
}

struct ArtifactProgress
{
    std::string runtime;
    int artifact = -1; // index in the runtime's artifacts
    std::string name;
    std::uint64_t received = 0;
    std::optional<std::uint64_t> total;
    double bytesPerSecond = 0;
    std::optional<double> etaSeconds;
};

struct ArtifactDone
{
    std::string runtime;
    int artifact = -1;
    std::string name;
};

// Something worth a line that is not an error: a leftover recovered, a mirror skipped.
struct Notice
{
    Stage stage = Stage::Install;
    std::string runtime; // "" when not about one runtime
    std::string text;
};

// A setup step's state; "skipped" covers all steps (done before with the same ones).
enum class StepState
{
    Started,
    Done,
    Skipped,
    Failed,
    Stopped,
    Warning,
};

constexpr const char* toString(StepState s)
{
    constexpr const char* names[] = {"started", "done", "skipped", "failed", "stopped", "warning"};
    return names[static_cast<int>(s)];
}

struct StepChanged
{
    StepState state = StepState::Started;
    int index = 0; // 1-based; 0 when not about one step (skipped, a warning after them)
    int of = 0;
    std::vector<std::string> argv;      // the step's command, when about one step
    std::optional<ProcessEnd> exit;     // done, failed, stopped
    std::vector<std::string> lastLines; // failed, stopped: the step's last output
    std::string text;                   // skipped: why; warning: what
};

struct ConsoleLine
{
    bool isStderr = false;
    std::string text; // decoded UTF-8, ANSI colours kept
};

struct UrlAnnounced
{
    std::string url; // 0.0.0.0 already rewritten to 127.0.0.1
};

struct KnownIssueSeen
{
    std::string id;
    std::string title;
    long long line = 0;
    std::string excerpt;
    std::string remedy;
    std::string action;
};

struct WorkloadExited
{
    ProcessEnd end; // its text: "exited with code 3", "was stopped", ...
    bool timedOut = false;
    bool leftoversStopped = false;        // a smoke test's children outlived it
    std::vector<std::string> knownIssues; // what its log matched
    // Ended by itself (a crash or an exit), not stopped by the user or a deadline.
    bool byItself() const { return end.stoppedBy == "none"; }
    bool crashed() const
    {
        return end.kind == ProcessEnd::Signaled || end.kind == ProcessEnd::NtStatus;
    }
};

// What a launch emits (core/launch), and what an install emits (installers/).
using FromLaunch =
    std::variant<StepChanged, ConsoleLine, UrlAnnounced, KnownIssueSeen, WorkloadExited>;
using FromInstall = std::variant<ArtifactProgress, ArtifactDone, Notice>;
using LaunchSink = std::function<void(const FromLaunch&)>;
using InstallSink = std::function<void(const FromInstall&)>;

} // namespace sp::events
