#include "installers/unique_fd.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>

#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace sp {

UniqueFd UniqueFd::createExclusive(const std::filesystem::path& p)
{
#ifdef _WIN32
    return UniqueFd(
        _wopen(p.c_str(), _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY, _S_IREAD | _S_IWRITE));
#else
    return UniqueFd(::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
#endif
}

int UniqueFd::writeAll(const char* d, std::size_t n) const
{
    while (n > 0) {
#ifdef _WIN32
        const auto w = _write(m_fd, d, static_cast<unsigned>(n));
#else
        const auto w = ::write(m_fd, d, n);
#endif
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        d += w;
        n -= static_cast<std::size_t>(w);
    }
    return 0;
}

long UniqueFd::readSome(char* d, std::size_t n) const
{
    while (true) {
#ifdef _WIN32
        const long r = _read(m_fd, d, static_cast<unsigned>(n));
#else
        const long r = static_cast<long>(::read(m_fd, d, n));
#endif
        if (r >= 0 || errno != EINTR)
            return r;
    }
}

void UniqueFd::setMode([[maybe_unused]] unsigned mode) const
{
#ifndef _WIN32
    ::fchmod(m_fd, static_cast<mode_t>(mode));
#endif
}

int UniqueFd::close()
{
    if (m_fd < 0)
        return 0;
#ifdef _WIN32
    const int rc = _close(m_fd);
#else
    const int rc = ::close(m_fd);
#endif
    m_fd = -1;
    return rc;
}

void UniqueFd::reset()
{
    close();
}

} // namespace sp
