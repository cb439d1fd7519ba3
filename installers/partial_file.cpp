#include "installers/partial_file.h"

#include "core/paths.h"

#include <cerrno>
#include <cstring>
#include <system_error>

namespace sp {

namespace {

std::FILE* openPath(const std::filesystem::path& p, const char* mode)
{
#ifdef _WIN32
    std::wstring wmode(mode, mode + std::strlen(mode));
    return _wfopen(p.c_str(), wmode.c_str());
#else
    return std::fopen(p.c_str(), mode);
#endif
}

// The failure of the call that just set errno: a full disk or a refused write has its
// cause.
Error why(const std::filesystem::path& p, const char* what)
{
    const int err = errno;
    return Error::runtime(std::string("cannot ") + what + " " + paths::toUtf8(p) + ": " +
                          std::strerror(err))
        .withCause(causeFromErrno(err));
}

long long tell(std::FILE* f)
{
#ifdef _MSC_VER
    return _ftelli64(f);
#else
    return ftello(f);
#endif
}

} // namespace

Expected<void> PartialFile::open()
{
    close();
    std::error_code ec;
    if (m_path.has_parent_path())
        std::filesystem::create_directories(m_path.parent_path(), ec);
    m_file = openPath(m_path, "r+b");
    if (!m_file)
        m_file = openPath(m_path, "w+b");
    if (!m_file)
        return why(m_path, "open");
    if (std::fseek(m_file, 0, SEEK_END) != 0)
        return why(m_path, "seek");
    const long long end = tell(m_file);
    m_size = end < 0 ? 0 : static_cast<std::uint64_t>(end);
    return {};
}

Expected<void> PartialFile::append(const char* data, std::size_t n)
{
    if (std::fwrite(data, 1, n, m_file) != n)
        return why(m_path, "write");
    m_size += n;
    return {};
}

Expected<void> PartialFile::truncate()
{
    std::fclose(m_file);
    m_file = openPath(m_path, "w+b");
    m_size = 0;
    if (!m_file)
        return why(m_path, "truncate");
    return {};
}

Expected<void> PartialFile::flush()
{
    if (m_file && std::fflush(m_file) != 0)
        return why(m_path, "write");
    return {};
}

void PartialFile::close()
{
    if (m_file)
        std::fclose(m_file);
    m_file = nullptr;
}

void PartialFile::remove()
{
    close();
    std::error_code ec;
    std::filesystem::remove(m_path, ec);
}

} // namespace sp
