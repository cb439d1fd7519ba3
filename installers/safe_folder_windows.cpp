// Windows has no openat: each step is checked for a link or junction (a reparse point)
// before it is used, files are created with _O_EXCL, and a hard link never replaces.
#include "core/paths.h"
#include "installers/safe_folder.h"

#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>

namespace fs = std::filesystem;

namespace sp {

namespace {

bool isLinkOrJunction(const fs::path& p)
{
    std::error_code ec;
    const auto st = fs::symlink_status(p, ec);
    return st.type() == fs::file_type::symlink || st.type() == fs::file_type::junction;
}

} // namespace

Expected<SafeFolder> SafeFolder::open(const fs::path& root, const std::vector<std::string>& below)
{
    std::error_code ec;
    fs::create_directories(root, ec);
    fs::path shown = root;
    for (const auto& name : below) {
        shown /= paths::fromUtf8(name);
        if (!fs::exists(fs::symlink_status(shown, ec)))
            fs::create_directory(shown, ec);
        if (isLinkOrJunction(shown) || !fs::is_directory(fs::symlink_status(shown, ec)))
            return Error::invalid(paths::toUtf8(shown) +
                                  " is a link or not a folder; StackPilot writes only into "
                                  "folders it can enter without following a link");
    }
    return SafeFolder(UniqueFd(), shown);
}

std::optional<FolderEntry> SafeFolder::entry(const std::string& name) const
{
    std::error_code ec;
    const fs::path p = m_path / paths::fromUtf8(name);
    const auto st = fs::symlink_status(p, ec);
    if (ec || !fs::exists(st))
        return std::nullopt;
    const bool regular = st.type() == fs::file_type::regular;
    return FolderEntry{regular, regular ? static_cast<std::uint64_t>(fs::file_size(p, ec)) : 0, 0,
                       0};
}

Expected<UniqueFd> SafeFolder::createNew(const std::string& name) const
{
    auto fd = UniqueFd::createExclusive(m_path / paths::fromUtf8(name));
    if (!fd.valid())
        return Error::runtime("cannot create " + paths::toUtf8(m_path / paths::fromUtf8(name)));
    return fd;
}

Expected<UniqueFd> SafeFolder::openRead(const std::string& name) const
{
    const fs::path p = m_path / paths::fromUtf8(name);
    if (isLinkOrJunction(p))
        return Error::invalid(paths::toUtf8(p) + " is a link");
    UniqueFd fd(_wopen(p.c_str(), _O_RDONLY | _O_BINARY));
    if (!fd.valid())
        return Error::runtime("cannot read " + paths::toUtf8(p));
    return fd;
}

Expected<void> SafeFolder::linkNew(const SafeFolder& source, const std::string& sourceName,
                                   const std::string& name) const
{
    std::error_code ec;
    fs::create_hard_link(source.m_path / paths::fromUtf8(sourceName),
                         m_path / paths::fromUtf8(name), ec);
    if (ec)
        return Error::runtime("cannot link " + paths::toUtf8(m_path / paths::fromUtf8(name)) +
                              ": " + ec.message());
    return {};
}

void SafeFolder::removeOwn(const std::string& name) const
{
    std::error_code ec;
    fs::remove(m_path / paths::fromUtf8(name), ec);
}

} // namespace sp
