#pragma once
// Replacing a user's file without ever leaving half of it, and without changing what
// the user chose for it: its mode and owner stay, a read-only file is refused rather
// than replaced, and the temporary file is created exclusively under a unique name in
// the same folder (a symlink planted at a predictable name is never followed).

#include "core/expected.h"

#include <filesystem>
#include <string_view>

namespace sp {

// Writes `bytes` to a new temporary file beside `file`, flushes it to disk and renames
// it over `file`. A new file gets `newFileMode` (POSIX permission bits). `what` names
// the document in errors ("settings").
[[nodiscard]] Expected<void> replaceFileAtomically(const std::filesystem::path& file,
                                                   std::string_view bytes, std::string_view what,
                                                   unsigned newFileMode = 0600);

} // namespace sp
