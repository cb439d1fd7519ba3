#include "installers/install_lock.h"

#include "core/paths.h"
#include "core/qt_text.h"
#include "core/stale_lock.h"

#include <QLockFile>
#include <QString>
#include <thread>

namespace fs = std::filesystem;

namespace sp {

namespace {

std::unique_ptr<QLockFile> makeLock(const fs::path& file)
{
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    auto lock = std::make_unique<QLockFile>(qpath(file));
    // Only a dead holder makes the lock stale; an install may legitimately run for
    // hours, so age alone must never break it.
    lock->setStaleLockTime(0);
    return lock;
}

} // namespace

InstallLock::InstallLock(std::unique_ptr<QLockFile> lock) : m_lock(std::move(lock)) {}

InstallLock::~InstallLock()
{
    if (m_lock)
        m_lock->unlock();
}

fs::path InstallLock::lockFile(const fs::path& prefixRoot, const std::string& id)
{
    return prefixRoot / ".locks" / paths::fromUtf8(id + ".lock");
}

std::unique_ptr<InstallLock> InstallLock::tryAcquire(const fs::path& prefixRoot,
                                                     const std::string& id)
{
    removeHolderlessLock(lockFile(prefixRoot, id));
    auto lock = makeLock(lockFile(prefixRoot, id));
    if (!lock->tryLock(0))
        return nullptr;
    return std::unique_ptr<InstallLock>(new InstallLock(std::move(lock)));
}

Expected<std::unique_ptr<InstallLock>> InstallLock::acquire(
    const fs::path& prefixRoot, const std::string& id, std::chrono::milliseconds timeout,
    const std::function<void(const std::string&)>& waiting, const CancelToken& cancel)
{
    const auto file = lockFile(prefixRoot, id);
    removeHolderlessLock(file);
    auto lock = makeLock(file);
    if (lock->tryLock(0))
        return std::unique_ptr<InstallLock>(new InstallLock(std::move(lock)));
    if (lock->error() == QLockFile::PermissionError || lock->error() == QLockFile::UnknownError)
        return Error::runtime(paths::toUtf8(file) + ": cannot create the install lock");
    qint64 pid = 0;
    QString host, app;
    lock->getLockInfo(&pid, &host, &app);
    const std::string holder = pid > 0
                                   ? "another StackPilot process (pid " + std::to_string(pid) + ")"
                                   : "another StackPilot process";
    if (timeout.count() == 0)
        return Error::runtime(holder + " is installing '" + id + "' (lock " + paths::toUtf8(file) +
                              ")");
    if (waiting)
        waiting("waiting for " + holder + " that is installing '" + id + "'...");
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        removeHolderlessLock(file); // a holder that died before writing its name
        if (lock->tryLock(100))
            return std::unique_ptr<InstallLock>(new InstallLock(std::move(lock)));
        if (cancel.cancelled())
            return Error::cancelled("cancelled while waiting for the install lock");
        if (timeout.count() > 0 && std::chrono::steady_clock::now() > deadline)
            return Error::runtime("timed out waiting for " + holder + " that is installing '" + id +
                                  "'");
    }
}

} // namespace sp
