#pragma once
// StackPilot removes or replaces only what it can prove it created. The proof for a
// folder is an owner marker, a small file written into the folder right after it is
// created and before anything else goes in: a staging folder (and so the runtime it
// becomes), a venv, a log or cache folder StackPilot made. A folder without it is the
// user's, whatever its name, and no verb deletes or renames it.
// docs/ARCHITECTURE.md, "Ownership".

#include "core/expected.h"

#include <filesystem>
#include <string>

namespace sp::ownership {

// The marker's file name inside an owned folder.
const char* markerName();

// Creates `dir` (which must not exist yet, so nothing of the user's is claimed) and
// marks it. `what` says in words what the folder is for ("staging of rocm-6.2").
Expected<void> createOwned(const std::filesystem::path& dir, const std::string& what);
// Marks a folder StackPilot has just created itself.
Expected<void> mark(const std::filesystem::path& dir, const std::string& what);
// A real folder (not a symlink) holding a regular marker file.
bool isOwned(const std::filesystem::path& dir);
// Deletes an owned folder and everything in it; refuses (Runtime error naming the
// path and what to do) when the folder has no marker. A missing folder is fine.
Expected<void> removeOwned(const std::filesystem::path& dir);
// The message for a path StackPilot did not create, with what the user can do.
std::string notOursMessage(const std::filesystem::path& p, const std::string& advice);

} // namespace sp::ownership
