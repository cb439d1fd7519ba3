#pragma once
// What a session tells its front ends, as typed values: the window and every CLI verb
// read these fields, never the text of a message. A launch's events keep the shape of
// `launch --json` (toJson), so scripts that read them see no change.

#include "core/evidence/smoke_judge.h"
#include "core/expected.h"
#include "core/launch/output.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace sp::session {

// The workflow's steps, in order (what a Failed event names).
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

// A launch's processes began (a smoke test's too): where its log is.
struct LaunchStarted
{
    std::string profile;
    std::filesystem::path log;
    bool smokeTest = false;
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

// Before any byte of an install: is every download of the profile still there?
struct PreflightChecked
{
    std::string profile;
    bool available = true;
    std::string reason;              // the missing artifact, when not available
    int artifacts = 0;               // checked
    std::uint64_t downloadBytes = 0; // from the network, sizes known
    bool sizesKnown = true;
    double seconds = 0; // how long the check took
};

// A smoke test ended (docs/VERIFY.md).
struct StackVerified
{
    std::string profile;
    bool passed = false;
    std::string reason;     // why it failed, in words
    std::string knownIssue; // the known issue its output matched
    std::optional<double> seconds;
    std::string device; // as the runtime names the card
    std::string arch;
    nlohmann::json result; // the smoke test's JSON line: its known fields, bounded
    SmokeCause cause = SmokeCause::None;
    std::string deviceCheck; // whether it ran on the planned GPU, in words
    int deadlineS = 0;       // how long it was allowed
};

// The session moved from one profile to the next (a missing download, a failed smoke
// test), or proposes to when it may not (`switched` false: --auto-fallback was not given).
struct ProfileSwitched
{
    std::string from;
    std::string to; // "" when no other profile fits
    std::string reason;
    bool switched = true;
};

// A run asks before it installs (RunOptions::confirm): what will be downloaded, what disk
// it needs, what needs administrator rights, what cannot be checked, and the stack's own
// advice. The front end answers with Session::confirm.
struct ConfirmInstall
{
    std::string workload;
    std::string profile;
    std::vector<std::string> runtimes;
    std::uint64_t downloadBytes = 0; // from the preflight (the catalog's sizes offline)
    std::uint64_t catalogBytes = 0;  // what the catalog declares
    bool sizesKnown = true;          // false: some server did not say a file's size
    // The runtimes with a download nobody gave a size for (the catalog nor the server):
    // what downloadBytes leaves out, named, never hidden behind "at least".
    std::vector<std::string> unsized;
    int unpinned = 0;             // downloads without a published checksum
    std::uint64_t diskNeeded = 0; // while installing
    std::optional<std::uint64_t> diskFree;
    std::vector<std::string> needsAdmin; // runtimes that install system-wide
    std::vector<std::string> advice;     // the profile's warnings
};

struct Failed
{
    Stage stage = Stage::Plan;
    ErrorCode kind = ErrorCode::Runtime;
    std::string message;
    Cause cause = Cause::Unknown; // what a front end words (app/common/diag/cause_words.h)
};

using Event =
    std::variant<RuntimeStarted, ArtifactProgress, ArtifactDone, RuntimeInstalled, Notice,
                 StepChanged, ConsoleLine, UrlAnnounced, KnownIssueSeen, WorkloadExited, Failed,
                 PreflightChecked, StackVerified, ProfileSwitched, ConfirmInstall, LaunchStarted>;
using EventSink = std::function<void(const Event&)>;

// One JSON object per event (`run --json`); a launch's events as `launch --json` prints
// them, the others as {"event": "runtime_started", ...}.
nlohmann::json toJson(const Event& e);

// A launch's event as the session's typed event: its JSON is read here, once.
Event fromLaunchEvent(const LaunchEvent& e);

} // namespace sp::session
