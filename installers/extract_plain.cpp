// The extractor's "file" format: an artifact written as one plain file into the
// staging folder (a single binary such as llamafile), hashed as it streams.

#include "core/paths.h"
#include "installers/extract_writer.h"
#include "installers/sha256.h"
#include "installers/unique_fd.h"

#include <cerrno>
#include <cstring>

namespace fs = std::filesystem;

namespace sp {

struct EntryWriter::Plain
{
    UniqueFd fd;
    std::string rel;
    bool executable = false;
    Sha256 sha;
    std::uint64_t size = 0;
};

Expected<void> EntryWriter::beginPlainFile(const std::string& fileName, bool executable)
{
    auto rel = sanitize(fileName, 0);
    if (!rel || rel->empty() || rel->find('/') != std::string::npos)
        return fail(fileName, "not a plain file name");
    if (auto r = claim(*rel, fileName); !r)
        return r;
    m_plain = std::make_shared<Plain>();
    m_plain->rel = *rel;
    m_plain->executable = executable;
    const fs::path p = m_o.root / paths::fromUtf8(*rel);
    std::error_code ec;
    fs::remove(p, ec);
    m_plain->fd = UniqueFd::createExclusive(p);
    if (!m_plain->fd.valid()) {
        const int err = errno;
        return fail(fileName, std::string("cannot create file: ") + std::strerror(err),
                    causeFromErrno(err));
    }
    return {};
}

Expected<void> EntryWriter::writePlain(const char* data, std::size_t size)
{
    if (!m_plain || !m_plain->fd.valid())
        return Error::runtime("internal: plain file not open");
    if (auto r = countBytes(size, m_plain->rel); !r)
        return r;
    if (int err = m_plain->fd.writeAll(data, size))
        return fail(m_plain->rel, std::string("write failed: ") + std::strerror(err),
                    causeFromErrno(err));
    m_plain->sha.update(data, size);
    m_plain->size += size;
    return {};
}

Expected<void> EntryWriter::endPlainFile()
{
    if (!m_plain || !m_plain->fd.valid())
        return Error::runtime("internal: plain file not open");
    m_plain->fd.setMode(m_plain->executable ? 0755 : 0644);
    const int rc = m_plain->fd.close();
    if (rc != 0) {
        const int err = errno;
        return fail(m_plain->rel, std::string("write failed: ") + std::strerror(err),
                    causeFromErrno(err));
    }
    replaceRecord({m_plain->rel,
                   FileRecord::Type::File,
                   m_plain->size,
                   m_plain->sha.hexDigest(),
                   {},
                   m_plain->executable});
    m_plain.reset();
    return {};
}

} // namespace sp
