#pragma once
// An install the session started and has not finished. It is written before the first
// byte is fetched and removed when the install succeeds or the user cancels it. Found at
// start-up without `failed`, StackPilot was stopped mid-install (quit, crash, power
// loss): the window offers Resume (the downloader continues partial files with Range
// requests) and Discard. With `failed`, the install ended with that error: the window
// offers Retry and Discard.
//
// <data>/pending-install.json: {"workload", "profile", "runtimes": [ids], "started",
// "failed"?}

#include "core/expected.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sp {

struct PendingInstall
{
    std::string workload;
    std::string profile;
    std::vector<std::string> runtimes;
    std::string started; // ISO 8601 UTC
    std::string failed;  // the error of an install that failed; "" = interrupted
};

std::filesystem::path pendingInstallFile(const std::filesystem::path& dataDir);
Expected<void> writePendingInstall(const std::filesystem::path& file, const PendingInstall& p);
// nullopt when there is none, or when the file is not one StackPilot wrote (it is
// then left alone).
std::optional<PendingInstall> readPendingInstall(const std::filesystem::path& file);
void clearPendingInstall(const std::filesystem::path& file);
// Marks the journal's install as failed with `error` (kept as it was when unreadable).
void markPendingInstallFailed(const std::filesystem::path& file, const std::string& error);
// Discard: the journal, and of `partials` the files that bear the downloader's own names
// (64 hex digits and ".part", plain files, not links) with their lock files. How many
// partial files went.
std::size_t discardPendingInstall(const std::filesystem::path& file,
                                  const std::vector<std::filesystem::path>& partials);

} // namespace sp
