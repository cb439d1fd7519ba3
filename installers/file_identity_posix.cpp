#include "installers/file_identity.h"

#include <sys/stat.h>

namespace sp {

std::optional<FileIdentity> fileIdentity(const std::filesystem::path& file)
{
    struct stat st = {};
    if (::stat(file.c_str(), &st) != 0)
        return std::nullopt;
    return FileIdentity{std::uint64_t(st.st_dev), std::uint64_t(st.st_ino),
                        std::uint64_t(st.st_size),
                        std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

} // namespace sp
