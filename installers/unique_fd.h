#pragma once
// An owned file descriptor (POSIX open / Windows _wopen): closed on every path out of
// the extractor's writers, so no early return can leak one.

#include <cstddef>
#include <filesystem>
#include <utility>

namespace sp {

class UniqueFd
{
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : m_fd(fd) {}
    UniqueFd(UniqueFd&& o) noexcept : m_fd(std::exchange(o.m_fd, -1)) {}
    UniqueFd& operator=(UniqueFd&& o) noexcept
    {
        if (this != &o) {
            reset();
            m_fd = std::exchange(o.m_fd, -1);
        }
        return *this;
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd() { reset(); }

    // Creates `p`, which must not exist (never follows a symlink there), write-only.
    static UniqueFd createExclusive(const std::filesystem::path& p);

    bool valid() const { return m_fd >= 0; }
    int get() const { return m_fd; }
    // Writes all of `n` bytes; 0 or the errno of the failure (ENOSPC for a full disk).
    int writeAll(const char* data, std::size_t n) const;
    // Reads up to `n` bytes: the count, 0 at the end, or -1 with errno set.
    long readSome(char* data, std::size_t n) const;
    // Sets the permission bits (POSIX; nothing on Windows).
    void setMode(unsigned mode) const;
    // Closes now and reports the result: a failed close is a failed write.
    int close();
    void reset();

private:
    int m_fd = -1;
};

} // namespace sp
