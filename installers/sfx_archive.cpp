#include "installers/sfx_archive.h"

#include <archive.h>
#include <cerrno>
#include <cstring>
#include <vector>
#include <zlib.h>

namespace sp {

namespace {

constexpr unsigned char kSignature[6] = {'7', 'z', 0xBC, 0xAF, 0x27, 0x1C};
constexpr std::size_t kStartHeader = 32; // signature 6, version 2, CRC 4, next header 20

std::FILE* openFile(const std::filesystem::path& file)
{
#ifdef _WIN32
    return _wfopen(file.c_str(), L"rb");
#else
    return std::fopen(file.c_str(), "rb");
#endif
}

bool seekTo(std::FILE* f, std::uint64_t pos)
{
#ifdef _WIN32
    return _fseeki64(f, static_cast<long long>(pos), SEEK_SET) == 0;
#else
    return fseeko(f, static_cast<off_t>(pos), SEEK_SET) == 0;
#endif
}

std::uint32_t le32(const unsigned char* p)
{
    return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
           std::uint32_t{p[3]} << 24;
}

// A signature at `p` whose start header CRC (over the 20 bytes after it) matches.
bool isStartHeader(const unsigned char* p)
{
    if (std::memcmp(p, kSignature, sizeof kSignature) != 0)
        return false;
    const uLong crc = crc32(0L, p + 12, 20);
    return static_cast<std::uint32_t>(crc) == le32(p + 8);
}

} // namespace

std::optional<std::uint64_t> find7zStart(const std::filesystem::path& file, std::uint64_t scanLimit)
{
    std::FILE* f = openFile(file);
    if (!f)
        return std::nullopt;
    std::vector<unsigned char> buf(1 << 20);
    std::uint64_t base = 0; // file offset of buf[0]
    std::size_t have = 0;
    std::optional<std::uint64_t> found;
    while (!found && base < scanLimit) {
        have += std::fread(buf.data() + have, 1, buf.size() - have, f);
        if (have < kStartHeader)
            break;
        for (std::size_t i = 0; i + kStartHeader <= have; ++i)
            if (buf[i] == '7' && isStartHeader(&buf[i])) {
                found = base + i;
                break;
            }
        // Keep the tail: a header may straddle two blocks.
        const std::size_t keep = kStartHeader - 1;
        std::memmove(buf.data(), buf.data() + have - keep, keep);
        base += have - keep;
        have = keep;
        if (std::feof(f))
            break;
    }
    std::fclose(f);
    return found;
}

OffsetSource::~OffsetSource()
{
    if (m_file)
        std::fclose(m_file);
}

int OffsetSource::open(archive* a, const std::filesystem::path& file, std::uint64_t offset)
{
    m_file = openFile(file);
    if (!m_file || !seekTo(m_file, offset)) {
        archive_set_error(a, errno, "cannot open the archive");
        return ARCHIVE_FATAL;
    }
    m_base = offset;
    archive_read_set_callback_data(a, this);
    archive_read_set_read_callback(a, &OffsetSource::read);
    archive_read_set_seek_callback(a, &OffsetSource::seek);
    archive_read_set_skip_callback(a, &OffsetSource::skip);
    return archive_read_open1(a);
}

la_ssize_t OffsetSource::read(archive*, void* self, const void** buffer)
{
    auto* s = static_cast<OffsetSource*>(self);
    *buffer = s->m_buffer;
    const std::size_t n = std::fread(s->m_buffer, 1, sizeof s->m_buffer, s->m_file);
    return std::ferror(s->m_file) ? -1 : static_cast<la_ssize_t>(n);
}

// The archive ends where the file ends, so SEEK_END needs no translation; SEEK_SET does.
la_int64_t OffsetSource::seek(archive*, void* self, la_int64_t offset, int whence)
{
    auto* s = static_cast<OffsetSource*>(self);
    const long long base = static_cast<long long>(s->m_base);
    if (whence == SEEK_SET)
        offset += base;
#ifdef _WIN32
    const int rc = _fseeki64(s->m_file, offset, whence);
    const long long now = _ftelli64(s->m_file);
#else
    const int rc = fseeko(s->m_file, static_cast<off_t>(offset), whence);
    const long long now = static_cast<long long>(ftello(s->m_file));
#endif
    if (rc != 0 || now < base)
        return ARCHIVE_FATAL;
    return now - base;
}

la_int64_t OffsetSource::skip(archive* a, void* self, la_int64_t request)
{
    auto* s = static_cast<OffsetSource*>(self);
    const long long before = seek(a, self, 0, SEEK_CUR);
    if (before < 0 || seek(a, s, before + request, SEEK_SET) < 0)
        return 0;
    return request;
}

} // namespace sp
