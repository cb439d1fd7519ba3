#pragma once
// An install the window started and has not finished. It is written before the first
// byte is fetched and removed when the install succeeds or the user cancels it, so
// finding it at start-up means StackPilot was killed mid-install: the window then
// offers to resume (the downloader continues partial files with Range requests).
//
// <data>/pending-install.json: {"workload", "profile", "runtimes": [ids], "started"}

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
};

std::filesystem::path pendingInstallFile(const std::filesystem::path& dataDir);
Expected<void> writePendingInstall(const std::filesystem::path& file, const PendingInstall& p);
// nullopt when there is none, or when the file is not one StackPilot wrote (it is
// then left alone).
std::optional<PendingInstall> readPendingInstall(const std::filesystem::path& file);
void clearPendingInstall(const std::filesystem::path& file);

} // namespace sp
