#pragma once
// A folder below one the user named, opened without following a symlink at any step,
// in which files are only ever created where nothing is: what StackPilot did not create
// is never replaced, and nothing lands outside the named folder (issue 35, item 1).
// POSIX keeps an open descriptor of the folder and works with openat, linkat and
// unlinkat, so a folder swapped for a symlink after the check changes nothing. Windows
// checks each step for a link or junction before using it (safe_folder_windows.cpp).

#include "core/expected.h"
#include "installers/unique_fd.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sp {

struct FolderEntry
{
    bool regularFile = false; // false: a folder, a link, a device, ...
    std::uint64_t size = 0;
    std::uint64_t device = 0;
    std::uint64_t inode = 0; // device + inode name the file (0 where unknown)
};

class SafeFolder
{
public:
    // `root` itself (the user's choice, which may be a link), created when missing, then
    // each of `below` (plain names, validated by the caller) opened or created without
    // following a link. Fails, naming the step, at a link or anything not a folder.
    static Expected<SafeFolder> open(const std::filesystem::path& root,
                                     const std::vector<std::string>& below);

    const std::filesystem::path& path() const { return m_path; }

    // What `name` is, without following a link; nullopt when nothing is there.
    std::optional<FolderEntry> entry(const std::string& name) const;
    // A new file `name` for writing; fails when anything is there already.
    Expected<UniqueFd> createNew(const std::string& name) const;
    // `name` for reading, refusing a link.
    Expected<UniqueFd> openRead(const std::string& name) const;
    // A hard link `name` here to `source`'s `sourceName`; fails when anything is here.
    Expected<void> linkNew(const SafeFolder& source, const std::string& sourceName,
                           const std::string& name) const;
    // A copy of `source`'s `sourceName` as the new file `name` (where a link cannot be).
    Expected<void> copyNew(const SafeFolder& source, const std::string& sourceName,
                           const std::string& name) const;
    // Removes `name`: only for a file this process created here.
    void removeOwn(const std::string& name) const;

    SafeFolder(SafeFolder&&) = default;
    SafeFolder& operator=(SafeFolder&&) = default;

private:
    SafeFolder(UniqueFd fd, std::filesystem::path path)
        : m_fd(std::move(fd)), m_path(std::move(path))
    {}
    UniqueFd m_fd; // POSIX: the folder, opened O_DIRECTORY | O_NOFOLLOW
    std::filesystem::path m_path;
};

// Reads all of `fd` into a SHA-256 digest (lower-case hex).
Expected<std::string> sha256OfFd(const UniqueFd& fd, const std::string& what);

} // namespace sp
