#pragma once
// A lock file with no holder in it. QLockFile writes its holder (pid, program, host)
// right after it creates the file, and StackPilot's locks break only when that holder
// is dead; a crash between the two steps, or a full disk, leaves an empty file that no
// holder will ever release, and every later install or download would wait on it for
// good (issue 35, item 12). Such a file, once older than a few seconds (far longer than
// the step between creating and writing takes), is stale.

#include <chrono>
#include <filesystem>

namespace sp {

inline constexpr std::chrono::seconds kHolderlessLockAge{5};

// Removes `lockFile` when it names no holder and was last written more than `minAge`
// ago; returns whether it did. A lock with a holder, dead or alive, is left to QLockFile.
bool removeHolderlessLock(const std::filesystem::path& lockFile,
                          std::chrono::seconds minAge = kHolderlessLockAge);

} // namespace sp
