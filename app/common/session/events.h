#pragma once
// What a session tells its front ends, as typed values: the window and every CLI verb
// read these fields, never the text of a message. The installers' and the launch's
// events are typed where they happen (core/events.h); toJson gives a launch's events the
// shape `launch --json` always printed, so scripts that read them see no change.

#include "core/events.h"
#include "core/evidence/smoke_judge.h"
#include "core/expected.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace sp::session {

// The events an install and a launch emit where they happen (core/events.h).
using events::ArtifactDone;
using events::ArtifactProgress;
using events::ConsoleLine;
using events::KnownIssueSeen;
using events::Notice;
using events::Stage;
using events::StepChanged;
using events::StepState;
using events::UrlAnnounced;
using events::WorkloadExited;

// A runtime's install begins (index is 1-based, of `count` in this install).
struct RuntimeStarted
{
    std::string runtime;
    int index = 0;
    int count = 0;
};

struct RuntimeInstalled
{
    std::string runtime;
    std::filesystem::path dir;
    std::size_t files = 0;
    bool alreadyInstalled = false;
};

// A launch's processes began (a smoke test's too): where its log is.
struct LaunchStarted
{
    std::string profile;
    std::filesystem::path log;
    bool smokeTest = false;
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
    // The catalog model the run pulls into the vault first ("" = none), and its size
    // (counted in downloadBytes and diskNeeded too).
    std::string model;
    std::uint64_t modelBytes = 0;
};

// A workload starts on a card that another running workload uses (issue 31): allowed, and
// said with the card's memory and what each stack needs of it (a profile's min_vram_mb;
// nullopt where the catalog does not say).
struct SharedGpu
{
    std::string workload;
    std::string other;  // the workload that runs there already
    std::string gpu;    // the card's name
    std::string pciBus; // "" when detection did not see it
    std::optional<std::int64_t> memoryMb;
    std::optional<std::int64_t> needMb;
    std::optional<std::int64_t> otherNeedMb;
};

struct Failed
{
    Stage stage = Stage::Plan;
    ErrorCode kind = ErrorCode::Runtime;
    std::string message;
    Cause cause = Cause::Unknown; // what a front end words (app/common/diag/cause_words.h)
};

using Event = std::variant<RuntimeStarted, ArtifactProgress, ArtifactDone, RuntimeInstalled, Notice,
                           StepChanged, ConsoleLine, UrlAnnounced, KnownIssueSeen, WorkloadExited,
                           Failed, PreflightChecked, StackVerified, ProfileSwitched, ConfirmInstall,
                           LaunchStarted, SharedGpu>;
using EventSink = std::function<void(const Event&)>;

// An installer's or a launch's event as the session's: the same value, in the wider variant.
template <class Sub> Event widen(const Sub& sub)
{
    return std::visit([](const auto& x) -> Event { return x; }, sub);
}

// One JSON object per event (`run --json`); a launch's events as `launch --json` prints
// them, the others as {"event": "runtime_started", ...}.
nlohmann::json toJson(const Event& e);

} // namespace sp::session
