#pragma once
// One launch per profile at a time: <data>/locks/launch-<profile>.lock, held for as
// long as the launch lives with a lock the kernel releases when the process dies
// (flock on POSIX, LockFileEx on Windows), so a killed launcher leaves no stale lock.
// The file holds the holder's PID, which a refused launch names.

#include "core/expected.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace sp {

// Whether the process `pid` still runs.
bool processAlive(long long pid);

class LaunchLock
{
public:
    // Runtime error "profile P is already running (process N)" when another process
    // (or another LaunchLock of this one) holds it; runtime error naming the file when
    // it cannot be created.
    static Expected<std::unique_ptr<LaunchLock>> acquire(const std::filesystem::path& dataDir,
                                                         const std::string& profile);
    ~LaunchLock();
    LaunchLock(const LaunchLock&) = delete;
    LaunchLock& operator=(const LaunchLock&) = delete;

    static std::filesystem::path file(const std::filesystem::path& dataDir,
                                      const std::string& profile);
    // The PID the profile's lock file names when that process still runs; nullopt when
    // no lock file, no PID or the process is gone. It reads only: the lock is not taken,
    // so a launch starting at this moment is never refused because of it.
    static std::optional<long long> liveHolder(const std::filesystem::path& dataDir,
                                               const std::string& profile);

private:
    LaunchLock() = default;
#ifdef _WIN32
    void* m_handle = nullptr;
#else
    int m_fd = -1;
#endif
};

} // namespace sp
