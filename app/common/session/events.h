#pragma once
// What a session tells its front ends, as typed values: the window and every CLI verb
// read these fields, never the text of a message. A launch's events keep the shape of
// `launch --json` (toJson), so scripts that read them see no change.

#include "core/expected.h"
#include "core/launch/output.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

namespace sp::session {

// The workflow's steps, in order (what a Failed event names).
enum class Stage
{
    Plan,
    Recover,
    Install,
    Repair,
    Launch,
};
const char* toString(Stage s);

// A runtime's install begins (index is 1-based, of `count` in this install).
struct RuntimeStarted
{
    std::string runtime;
    int index = 0;
    int count = 0;
};

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

struct RuntimeInstalled
{
    std::string runtime;
    std::filesystem::path dir;
    std::size_t files = 0;
    bool alreadyInstalled = false;
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
const char* toString(StepState s);

struct StepChanged
{
    StepState state = StepState::Started;
    int index = 0; // 1-based; 0 for "skipped" (all of them)
    int of = 0;
    nlohmann::json detail; // as `launch --json` prints it: argv, exit, last_lines, reason
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
    std::string text;      // "exited with code 3", "was stopped", ...
    nlohmann::json detail; // as `launch --json` prints it
};

struct Failed
{
    Stage stage = Stage::Plan;
    ErrorCode kind = ErrorCode::Runtime;
    std::string message;
};

using Event =
    std::variant<RuntimeStarted, ArtifactProgress, ArtifactDone, RuntimeInstalled, Notice,
                 StepChanged, ConsoleLine, UrlAnnounced, KnownIssueSeen, WorkloadExited, Failed>;
using EventSink = std::function<void(const Event&)>;

// One JSON object per event (`run --json`); a launch's events as `launch --json` prints
// them, the others as {"event": "runtime_started", ...}.
nlohmann::json toJson(const Event& e);

// A launch's event as the session's typed event: its JSON is read here, once.
Event fromLaunchEvent(const LaunchEvent& e);

} // namespace sp::session
