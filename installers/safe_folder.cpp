#include "installers/safe_folder.h"

#include "core/paths.h"
#include "installers/sha256.h"

#include <cerrno>
#include <cstring>

namespace sp {

Expected<void> SafeFolder::copyNew(const SafeFolder& source, const std::string& sourceName,
                                   const std::string& name) const
{
    auto in = source.openRead(sourceName);
    if (!in)
        return in.error();
    auto out = createNew(name);
    if (!out)
        return out.error();
    const std::string shown = paths::toUtf8(m_path / paths::fromUtf8(name));
    char buf[1 << 16];
    long n = 0;
    while ((n = in->readSome(buf, sizeof buf)) > 0)
        if (out->writeAll(buf, static_cast<std::size_t>(n)) != 0)
            return Error::runtime("cannot write " + shown + ": " + std::strerror(errno));
    if (n < 0 || out->close() != 0)
        return Error::runtime("cannot copy to " + shown + ": " + std::strerror(errno));
    return {};
}

Expected<std::string> sha256OfFd(const UniqueFd& fd, const std::string& what)
{
    Sha256 sha;
    char buf[1 << 16];
    long n = 0;
    while ((n = fd.readSome(buf, sizeof buf)) > 0)
        sha.update(buf, static_cast<std::size_t>(n));
    if (n < 0)
        return Error::runtime("cannot read " + what + ": " + std::strerror(errno));
    return sha.hexDigest();
}

} // namespace sp
