#include "core/paths.h"
#include "installers/safe_folder.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sp {

namespace {

std::string errnoText(int err)
{
    return std::strerror(err);
}

// Opens `name` below `dirFd` as a folder, creating it when missing; never follows a link.
Expected<UniqueFd> openChildNoFollow(int dirFd, const std::string& name, const fs::path& shown)
{
    UniqueFd fd(::openat(dirFd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid() && errno == ENOENT) {
        if (::mkdirat(dirFd, name.c_str(), 0755) != 0 && errno != EEXIST)
            return Error::runtime("cannot create " + paths::toUtf8(shown) + ": " +
                                  errnoText(errno));
        fd = UniqueFd(
            ::openat(dirFd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    }
    if (!fd.valid()) {
        const int err = errno;
        if (err == ELOOP || err == ENOTDIR)
            return Error::invalid(paths::toUtf8(shown) +
                                  " is a link or not a folder; StackPilot writes only into "
                                  "folders it can enter without following a link");
        return Error::runtime("cannot open " + paths::toUtf8(shown) + ": " + errnoText(err));
    }
    return fd;
}

} // namespace

Expected<SafeFolder> SafeFolder::open(const fs::path& root, const std::vector<std::string>& below)
{
    std::error_code ec;
    fs::create_directories(root, ec);
    UniqueFd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd.valid())
        return Error::runtime("cannot open " + paths::toUtf8(root) + ": " + errnoText(errno));
    fs::path shown = root;
    for (const auto& name : below) {
        shown /= paths::fromUtf8(name);
        auto child = openChildNoFollow(fd.get(), name, shown);
        if (!child)
            return child.error();
        fd = std::move(*child);
    }
    return SafeFolder(std::move(fd), shown);
}

std::optional<FolderEntry> SafeFolder::entry(const std::string& name) const
{
    struct stat st
    {};
    if (::fstatat(m_fd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        return std::nullopt;
    return FolderEntry{S_ISREG(st.st_mode), static_cast<std::uint64_t>(st.st_size),
                       static_cast<std::uint64_t>(st.st_dev),
                       static_cast<std::uint64_t>(st.st_ino)};
}

Expected<UniqueFd> SafeFolder::createNew(const std::string& name) const
{
    UniqueFd fd(::openat(m_fd.get(), name.c_str(),
                         O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!fd.valid())
        return Error::runtime("cannot create " + paths::toUtf8(m_path / paths::fromUtf8(name)) +
                              ": " + errnoText(errno));
    return fd;
}

Expected<UniqueFd> SafeFolder::openRead(const std::string& name) const
{
    UniqueFd fd(::openat(m_fd.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid())
        return Error::runtime("cannot read " + paths::toUtf8(m_path / paths::fromUtf8(name)) +
                              ": " + errnoText(errno));
    return fd;
}

Expected<void> SafeFolder::linkNew(const SafeFolder& source, const std::string& sourceName,
                                   const std::string& name) const
{
    // linkat never replaces: EEXIST when anything, a dangling link too, is there.
    if (::linkat(source.m_fd.get(), sourceName.c_str(), m_fd.get(), name.c_str(), 0) != 0)
        return Error::runtime("cannot link " + paths::toUtf8(m_path / paths::fromUtf8(name)) +
                              ": " + errnoText(errno));
    return {};
}

void SafeFolder::removeOwn(const std::string& name) const
{
    ::unlinkat(m_fd.get(), name.c_str(), 0);
}

} // namespace sp
