#pragma once
// StackPilot's own log: <logs>/stackpilot.log, one timestamped line per event ("cli plan
// exit 0"), so a diagnostics bundle can show what was run and how it ended. Kept small:
// past kAppLogMaxBytes the file becomes stackpilot.log.1 (replacing the previous .1) and
// a new one starts. Writing never fails a caller: a log that cannot be written is skipped.
// Safe to call from any thread.

#include "core/clock.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace sp::applog {

inline constexpr std::uintmax_t kMaxBytes = 1u << 20;

std::filesystem::path file();        // <logs>/stackpilot.log
std::filesystem::path rotatedFile(); // <logs>/stackpilot.log.1

// Appends "2026-11-24T03:45:00Z <source> <text>\n"; control characters and line breaks in
// `text` are escaped so one event stays one line. `source` is "cli", "gui", ...
void write(const std::string& source, const std::string& text,
           const Clock& clock = Clock::system());

} // namespace sp::applog
