#pragma once
// Folders the feed code works in for a while (a staging folder under <data>/feed, a
// private download folder under the system's temporary folder) and that an interrupted
// run leaves behind. Each one is owned (core/ownership.h) and names its holder: the
// process id and that process's start time, so a reused pid is not mistaken for the
// holder. The next run removes such a folder only when it can prove it made it: the
// name pattern, the owner marker, this user as the owner, and a holder that is gone.
// docs/FEED.md, "Interrupted runs".

#include "core/expected.h"

#include <filesystem>
#include <string>

namespace sp::feed {

// The holder file's name inside a held folder.
const char* holderName();

// Creates `dir` (it must not exist), marks it owned and records this process as holder.
[[nodiscard]] Expected<void> createHeldFolder(const std::filesystem::path& dir,
                                              const std::string& what);
// A new held folder `<parent>/<prefix><pid>-<random>`.
[[nodiscard]] Expected<std::filesystem::path>
createHeldFolderIn(const std::filesystem::path& parent, const std::string& prefix,
                   const std::string& what);
// True when `dir`'s holder is no longer running. A folder without holder information
// counts as gone once it is older than kHolderlessGraceSeconds (a crash between
// creating it and writing the holder).
bool holderGone(const std::filesystem::path& dir);
inline constexpr int kHolderlessGraceSeconds = 5;

// Removes every folder `<parent>/<prefix>*` that is a real folder owned by this user,
// carries the owner marker and whose holder is gone. Returns how many were removed.
int removeAbandoned(const std::filesystem::path& parent, const std::string& prefix);

// The prefix of the feed's private download folders under the temporary folder.
inline constexpr const char* kFeedTempPrefix = "stackpilot-feed-";
// removeAbandoned(<system temp>, kFeedTempPrefix).
int removeAbandonedFeedTemps();

} // namespace sp::feed
