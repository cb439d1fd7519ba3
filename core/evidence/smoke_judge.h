#pragma once
// Judging a smoke test (docs/VERIFY.md): which of its output lines is the result, and
// whether the stack passed on the GPU it was planned for. The session feeds it the
// smoke test's lines and how the process ended; tests and fuzz_smoke_result drive the
// same code with arbitrary lines.

#include "core/select/plan.h"
#include "core/snapshot.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sp {

// Why a smoke test failed, set where it is found; the words come from it.
enum class SmokeCause
{
    None,            // passed
    TimedOut,        // it ran past its deadline and was stopped
    KnownIssue,      // its output matched a known issue
    ReportedFailure, // it printed "ok": false
    ExitedBadly,     // it exited with a code other than 0, or was killed
    NoResult,        // it printed no result line
    DeviceMismatch   // it ran, but not on the GPU the profile was planned for
};
// "", "timeout", "known-issue", "reported-failure", "exit", "no-result", "device-mismatch"
const char* toString(SmokeCause c);

// The GPU the profile was planned for, as its smoke test should find it.
struct ExpectedDevice
{
    bool check = false; // false: a CPU fallback, or no GPU was planned
    std::string vendor; // "amd", "nvidia", "intel"
    std::string name;   // "AMD Radeon RX 7900 XTX"
    std::vector<std::string>
        arch;                // "gfx1031", and "gfx1030" where HSA_OVERRIDE_GFX_VERSION says so
    bool translated = false; // ZLUDA: the runtime reports a CUDA arch on an AMD card
};
ExpectedDevice expectedDevice(const HardwareSnapshot& snap, const Plan& plan, bool fallback);

// Collects the smoke test's output: the last line that looks like its JSON result.
class SmokeOutput
{
public:
    static constexpr std::size_t kMaxResultLine = 1u << 16; // longer lines are not read
    void line(const std::string& text);
    const std::string& resultLine() const { return m_result; }
    bool tooLong() const { return m_tooLong; }

private:
    std::string m_result;
    bool m_tooLong = false; // the last result-looking line was over kMaxResultLine
};

// How the smoke test's process ended, and what the matcher saw.
struct SmokeEnd
{
    bool exitedWell = false; // the first process exited with 0
    std::string exitText;    // "exited with code 3"
    bool timedOut = false;
    int deadlineS = 0;
    std::string knownIssue; // the first known issue its output matched
    std::string knownTitle;
};

struct SmokeVerdict
{
    bool passed = false;
    SmokeCause cause = SmokeCause::None;
    std::string reason;                               // why it failed, in words; "" when it passed
    nlohmann::json result = nlohmann::json::object(); // its known fields, bounded
    std::optional<double> seconds;
    std::string device;
    std::string arch;
    std::string deviceCheck; // "matched", "not reported", "not checked: ...", the mismatch
};

SmokeVerdict judgeSmoke(const SmokeOutput& out, const SmokeEnd& end, const ExpectedDevice& want);

} // namespace sp
