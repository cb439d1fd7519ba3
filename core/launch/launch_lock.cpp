#include "core/launch/launch_lock.h"

#include "core/paths.h"

#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#ifdef _WIN32
#include <windows.h>
#else
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#endif

namespace fs = std::filesystem;

namespace sp {

namespace {

// A profile id as a file name: anything but [A-Za-z0-9._-] becomes '_'.
std::string fileSafe(const std::string& profile)
{
    std::string out = profile;
    for (char& c : out) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
        if (!ok)
            c = '_';
    }
    return out;
}

std::string heldBy(const std::string& profile, const std::string& pidText)
{
    std::string pid;
    for (char c : pidText)
        if (c >= '0' && c <= '9')
            pid += c;
    return "profile " + profile + " is already running (process " +
           (pid.empty() ? std::string("unknown") : pid) + ")";
}

#ifdef _WIN32
// The lock is on one byte far past the PID, so a refused launch can still read it.
constexpr DWORD kLockOffsetHigh = 1;

std::string readPid(HANDLE h)
{
    char buf[32] = {};
    DWORD got = 0;
    OVERLAPPED at = {};
    ReadFile(h, buf, sizeof buf - 1, &got, &at);
    return std::string(buf, got);
}
#else
std::string readPid(int fd)
{
    char buf[32] = {};
    const ssize_t got = ::pread(fd, buf, sizeof buf - 1, 0);
    return got > 0 ? std::string(buf, static_cast<std::size_t>(got)) : std::string();
}
#endif

} // namespace

fs::path LaunchLock::file(const fs::path& dataDir, const std::string& profile)
{
    return dataDir / "locks" / ("launch-" + fileSafe(profile) + ".lock");
}

std::optional<long long> LaunchLock::liveHolder(const fs::path& dataDir, const std::string& profile)
{
    // The holder writes its PID at the start of the file; the lock itself is elsewhere
    // (flock, or a byte far past the end on Windows), so reading never waits.
    std::ifstream in(file(dataDir, profile), std::ios::binary);
    long long pid = 0;
    if (!(in >> pid) || pid <= 0 || !processAlive(pid))
        return std::nullopt;
    return pid;
}

// The helper's inner parent reaps the first process at once (Windows: the helper holds
// its handle, so the id is not reused).
bool processAlive(long long pid)
{
#ifdef _WIN32
    HANDLE h = OpenProcess(SYNCHRONIZE, FALSE, static_cast<DWORD>(pid));
    if (!h)
        return false;
    const bool alive = WaitForSingleObject(h, 0) == WAIT_TIMEOUT;
    CloseHandle(h);
    return alive;
#else
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
#endif
}

#ifdef _WIN32

Expected<std::unique_ptr<LaunchLock>> LaunchLock::acquire(const fs::path& dataDir,
                                                          const std::string& profile)
{
    const fs::path path = file(dataDir, profile);
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    HANDLE h = CreateFileW(path.wstring().c_str(), GENERIC_READ | GENERIC_WRITE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_ALWAYS,
                           FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE)
        return Error::runtime(paths::toUtf8(path) + ": cannot create the launch lock");
    OVERLAPPED at = {};
    at.OffsetHigh = kLockOffsetHigh;
    if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at)) {
        std::string pid = readPid(h);
        CloseHandle(h);
        return Error::runtime(heldBy(profile, pid));
    }
    const std::string pid = std::to_string(GetCurrentProcessId()) + "\n";
    SetEndOfFile(h);
    DWORD wrote = 0;
    OVERLAPPED start = {};
    WriteFile(h, pid.data(), static_cast<DWORD>(pid.size()), &wrote, &start);
    std::unique_ptr<LaunchLock> lock(new LaunchLock);
    lock->m_handle = h;
    return lock;
}

LaunchLock::~LaunchLock()
{
    if (m_handle)
        CloseHandle(static_cast<HANDLE>(m_handle)); // releases the lock
}

#else

Expected<std::unique_ptr<LaunchLock>> LaunchLock::acquire(const fs::path& dataDir,
                                                          const std::string& profile)
{
    const fs::path path = file(dataDir, profile);
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    // O_CLOEXEC: the workload never inherits the lock; O_NOFOLLOW: a planted link is
    // not followed.
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return Error::runtime(paths::toUtf8(path) +
                              ": cannot create the launch lock: " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        // The holder writes its PID right after taking the lock: wait a moment for it.
        std::string pid = readPid(fd);
        for (int i = 0; i < 20 && pid.empty(); ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            pid = readPid(fd);
        }
        ::close(fd);
        return Error::runtime(heldBy(profile, pid));
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0 ||
        ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
        // The lock holds without the PID; a refused launch then says "unknown".
    }
    std::unique_ptr<LaunchLock> lock(new LaunchLock);
    lock->m_fd = fd;
    return lock;
}

LaunchLock::~LaunchLock()
{
    if (m_fd >= 0)
        ::close(m_fd); // releases the lock
}

#endif

} // namespace sp
