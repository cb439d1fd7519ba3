#pragma once
// From "launch PROFILE" to a LaunchRequest: plan the profile's workload on this
// snapshot, compose the environment from the user's, compile the matcher. The CLI's
// `launch` (and its --dry-run) and the window both start here.

#include "core/catalog/types.h"
#include "core/expected.h"
#include "core/launch/launch_session.h"
#include "core/select/select.h"
#include "core/settings.h"
#include "core/snapshot.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sp {

struct LaunchSetup
{
    const Catalog* catalog = nullptr;
    HardwareSnapshot snapshot;
    std::string profile;
    SelectSettings select; // StackPilot's folders for this snapshot
    Settings settings;     // the user's: overrides of the workload, grace, logs kept
    EnvMap userEnv;
    std::vector<std::string> extraArgs;
    std::filesystem::path logsRoot;
    std::filesystem::path dataDir;
};

// Usage error for an unknown profile; runtime error when the profile is rejected on
// this machine (with the reasons) or the matcher does not compile.
Expected<LaunchRequest> prepareLaunch(const LaunchSetup& setup);

// What the launch tells the matcher about the machine: its OS and the plan's GPU
// runtimes ("rocm", "cuda", "zluda", "vulkan"), as a cause's context reads them.
logmatch::LogContext planLogContext(const Plan& plan, const std::string& osFamily);

// The plan's runtimes that should be installed but are not (their folder is absent).
std::vector<std::string> missingRuntimes(const Plan& plan);

// `launch --dry-run --json`: {"profile", "workload", "env", "argv", "cwd",
// "changes": [{"name", "change": added|changed|removed, "before", "after", "reason"}]}.
nlohmann::json dryRunJson(const LaunchRequest& request);

// This process's environment.
EnvMap currentEnvironment();

} // namespace sp
