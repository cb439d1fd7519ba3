#pragma once
// The launch log's redaction: what LaunchRequest::logFilter does to each line before
// the log file gets it. The bundle's redactor (redact.h) with the secrets known by
// value (the secret-named variables of the caller's environment, of the composed
// environment and of settings.json) and every secret shape, but not the user's name:
// the log stays the user's own, and diag export still replaces the name later.
// Both front ends call redactLaunchLog on every request they launch.

#include "core/launch/env_composer.h"
#include "core/launch/launch_prep.h"
#include "core/launch/launch_session.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace sp::diag {

std::function<std::string(std::string_view)>
launchLogFilter(const EnvMap& callerEnv, const EnvMap& composedEnv, const nlohmann::json& settings);

// request.logFilter from the setup it was prepared from.
void redactLaunchLog(LaunchRequest& request, const LaunchSetup& setup);

} // namespace sp::diag
