#pragma once
// A profile's own state outside the runtimes: its virtual environment
// (<data>/venvs/<profile>) and its step receipt (<data>/steps/<profile>.json).
// StackPilot marks the venv folder as its own before the first setup step writes into
// it, so `repair PROFILE` can rebuild it and `uninstall PROFILE` can remove it without
// ever touching a folder of the same name that the user made.

#include "core/expected.h"

#include <filesystem>
#include <string>

namespace sp {

std::filesystem::path venvDir(const std::filesystem::path& dataDir, const std::string& profile);

// Before the setup steps: creates and marks the venv folder when it is absent; accepts
// it when StackPilot's marker is there; refuses a folder that is not StackPilot's.
Expected<void> claimVenv(const std::filesystem::path& venv, const std::string& profile);

struct ProfileReset
{
    bool venvRemoved = false;
    bool receiptRemoved = false;
};

// Removes the profile's venv (only when StackPilot's) and its step receipt, so that
// the next launch runs every setup step again from nothing. A venv folder without the
// marker is an error naming it, and then nothing is removed.
Expected<ProfileReset> resetProfileState(const std::filesystem::path& dataDir,
                                         const std::string& profile);

} // namespace sp
