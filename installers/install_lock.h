#pragma once
// One installer per runtime at a time, across processes: a QLockFile at
// <prefix-root>/.locks/<id>.lock. QLockFile records the holder's pid and treats
// the lock as stale once that process is gone, so a killed install never blocks
// the next one.

#include "core/expected.h"
#include "installers/downloader.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

class QLockFile;

namespace sp {

class InstallLock
{
public:
    ~InstallLock();
    InstallLock(const InstallLock&) = delete;
    InstallLock& operator=(const InstallLock&) = delete;

    // Takes the lock; when another process holds it, calls `waiting` once with a
    // message and waits up to `timeout` (negative = forever), waking on cancel.
    static Expected<std::unique_ptr<InstallLock>>
    acquire(const std::filesystem::path& prefixRoot, const std::string& id,
            std::chrono::milliseconds timeout,
            const std::function<void(const std::string&)>& waiting, const CancelToken& cancel = {});

    // Non-blocking: nullptr when someone holds it.
    static std::unique_ptr<InstallLock> tryAcquire(const std::filesystem::path& prefixRoot,
                                                   const std::string& id);

    static std::filesystem::path lockFile(const std::filesystem::path& prefixRoot,
                                          const std::string& id);

private:
    explicit InstallLock(std::unique_ptr<QLockFile> lock);
    std::unique_ptr<QLockFile> m_lock;
};

} // namespace sp
