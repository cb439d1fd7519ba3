#include "core/atomic_file.h"
#include "core/paths.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace sp {

namespace {

std::string uniqueSuffix()
{
    static std::atomic<unsigned> counter{0};
    std::random_device rd;
    return "." + std::to_string(::getpid()) + "." + std::to_string(counter++) + "." +
           std::to_string(rd()) + ".tmp";
}

Error failure(const std::filesystem::path& file, std::string_view what, const std::string& why)
{
    return Error::runtime(paths::toUtf8(file) + ": cannot write " + std::string(what) + ": " + why);
}

bool writeAll(int fd, std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        bytes.remove_prefix(std::size_t(n));
    }
    return true;
}

// The file a write replaces: a symlink's final target, so a dotfile manager's link stays
// a link. A dangling link's target is written too (the link stays), but only into a
// folder that exists: nothing is created where the link points (issue 35, item 15).
Expected<std::filesystem::path> resolved(const std::filesystem::path& file, std::string_view what)
{
    std::filesystem::path at = file;
    std::error_code ec;
    for (int hops = 0; std::filesystem::is_symlink(at, ec); ++hops) {
        if (hops == 40)
            return failure(file, what, "too many levels of symbolic links");
        auto target = std::filesystem::read_symlink(at, ec);
        if (ec)
            return failure(file, what, ec.message());
        at = target.is_absolute() ? target : at.parent_path() / target;
    }
    if (at != file && !std::filesystem::is_directory(at.parent_path(), ec))
        return failure(file, what,
                       "it is a link to " + paths::toUtf8(at) +
                           ", whose folder does not exist; the link is left as it is");
    return at;
}

} // namespace

Expected<void> replaceFileAtomically(const std::filesystem::path& requested, std::string_view bytes,
                                     std::string_view what, unsigned newFileMode)
{
    const auto target = resolved(requested, what);
    if (!target)
        return target.error();
    const std::filesystem::path& file = *target;
    struct stat st
    {};
    const bool exists = ::stat(file.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode))
        return failure(file, what, "not a regular file");
    // Mode bits, not access(): root may write anything, but a user who made the file
    // read-only meant it.
    if (exists && (st.st_mode & S_IWUSR) == 0)
        return Error::runtime(paths::toUtf8(file) + " is read-only; StackPilot leaves it as it is");
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    auto tmp = file;
    tmp += uniqueSuffix();
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return failure(file, what, std::strerror(errno));
    const mode_t mode = exists ? (st.st_mode & 07777) : mode_t(newFileMode);
    bool ok = writeAll(fd, bytes) && ::fchmod(fd, mode) == 0;
    // Root writing a user's file hands it back to its owner; others cannot and need not.
    if (ok && exists && (st.st_uid != ::geteuid() || st.st_gid != ::getegid()))
        if (::fchown(fd, st.st_uid, st.st_gid) != 0 && errno != EPERM)
            ok = false;
    const int saved = errno;
    ok = ::fsync(fd) == 0 && ok;
    ok = ::close(fd) == 0 && ok;
    if (ok && ::rename(tmp.c_str(), file.c_str()) == 0)
        return {};
    const std::string why = std::strerror(ok ? errno : saved);
    ::unlink(tmp.c_str());
    return failure(file, what, why);
}

} // namespace sp
