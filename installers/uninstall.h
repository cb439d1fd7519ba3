#pragma once
// Uninstalling: one runtime (`uninstall RUNTIME`, the CLI) and one stack (the window's
// Stacks ▸ Uninstall). A stack's removal takes its installed runtimes that no other
// installed stack still needs, and its own Python environment; what it frees is measured
// before anything is removed, so the question can say it. Only what StackPilot made is
// removed (prefix_store.h: the owner marker; profile_env.h: the venv marker).

#include "core/catalog/types.h"
#include "core/expected.h"
#include "installers/prefix_store.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace sp {

// Removes one installed runtime under its lock: ownership checked first, leftovers
// recovered, the folder renamed to the trash, then deleted. `waiting` hears once when
// another process holds the lock (it is waited for up to 30 s).
Expected<void> removeRuntime(const PrefixStore& store, const std::string& id,
                             const std::function<void(const std::string&)>& waiting = {});

// The bytes of the files under `dir` (0 when it is not there); links are not followed.
std::uint64_t treeBytes(const std::filesystem::path& dir);

struct StackRemoval
{
    std::string profile;
    std::vector<std::string> runtimes; // installed, StackPilot's, needed by no other stack
    std::vector<std::string> kept;     // installed, but another installed stack uses them
    bool venv = false;                 // the profile's own Python environment is there
    std::uint64_t bytes = 0;           // what all of it holds: the space freed
};

// What uninstalling `profile` removes, measured; nothing is changed. A runtime is kept
// when another profile whose runtimes are all installed lists it; a system runtime (a
// vendor's installer put it there) is never removed.
StackRemoval planStackRemoval(const Catalog& catalog, const PrefixStore& store,
                              const std::filesystem::path& dataDir, const std::string& profile);

// Removes what planStackRemoval lists; the result says what was removed and freed. The
// first error stops it, naming the runtime; what was removed before stays removed.
Expected<StackRemoval> removeStack(const Catalog& catalog, const PrefixStore& store,
                                   const std::filesystem::path& dataDir,
                                   const std::string& profile);

} // namespace sp
