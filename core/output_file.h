#pragma once
// Where a verb writes what the user named (`diag export -o`, `snapshot import -o`): only
// over a regular file or at a new path. A device (/dev/full), a FIFO, a socket or a
// folder there is refused before any work, so nothing is written and nothing replaced
// (as root, renaming a zip over /dev/full would replace the device node).

#include "core/expected.h"

#include <filesystem>

namespace sp {

// A usage error naming what is at `file` when it exists and is not a regular file (a
// symbolic link is judged by what it points to; a dangling one is a new path).
Expected<void> checkOutputFile(const std::filesystem::path& file);

} // namespace sp
