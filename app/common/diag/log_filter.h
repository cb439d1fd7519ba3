#pragma once
// The launch log's redaction: what LaunchRequest::logFilter does to the lines before
// the log file gets them. The bundle's redactor (redact.h) with the secrets known by
// value (the secret-named variables of the caller's environment, of the composed
// environment and of settings.json) and every secret shape, but not the user's name:
// the log stays the user's own, and diag export still replaces the name later. A
// private key spans lines: its block is followed from line to line (key_blocks.h),
// and up to 64 lines that may be a key's body are held back until a line that is none
// (or an END) says what they were.
// Both front ends call redactLaunchLog on every request they launch.

#include "core/launch/env_composer.h"
#include "core/launch/launch_prep.h"
#include "core/launch/launch_session.h"

#include <memory>
#include <nlohmann/json.hpp>

namespace sp::diag {

std::shared_ptr<LogFilter> launchLogFilter(const EnvMap& callerEnv, const EnvMap& composedEnv,
                                           const nlohmann::json& settings);

// request.logFilter from the setup it was prepared from.
void redactLaunchLog(LaunchRequest& request, const LaunchSetup& setup);

} // namespace sp::diag
