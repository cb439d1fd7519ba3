#include "core/zip_reader.h"

#include "core/paths.h"

#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <cstdio>
#include <fstream>
#include <memory>
#include <vector>

namespace fs = std::filesystem;

namespace sp {

namespace {

constexpr std::size_t kBlock = 16 << 10;

// Where libarchive reads from; counts every byte it hands over, so the bytes consumed
// while one entry is decompressed bound that entry's compressed size.
class Source
{
public:
    virtual ~Source() = default;
    virtual la_ssize_t read(const void** buffer) = 0;
    virtual la_int64_t seek(la_int64_t offset, int whence) = 0;
    std::uint64_t consumed = 0;

    static la_ssize_t readCb(archive*, void* self, const void** buffer)
    {
        auto* s = static_cast<Source*>(self);
        const la_ssize_t n = s->read(buffer);
        if (n > 0)
            s->consumed += static_cast<std::uint64_t>(n);
        return n;
    }
    static la_int64_t seekCb(archive*, void* self, la_int64_t offset, int whence)
    {
        return static_cast<Source*>(self)->seek(offset, whence);
    }

protected:
    static la_int64_t resolve(la_int64_t pos, la_int64_t size, la_int64_t offset, int whence)
    {
        const la_int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? pos : size;
        const la_int64_t to = base + offset;
        return to < 0 ? -1 : std::min(to, size);
    }
};

class MemorySource : public Source
{
public:
    explicit MemorySource(std::string_view bytes) : m_bytes(bytes) {}
    la_ssize_t read(const void** buffer) override
    {
        const std::size_t n = std::min(kBlock, m_bytes.size() - m_pos);
        *buffer = m_bytes.data() + m_pos;
        m_pos += n;
        return static_cast<la_ssize_t>(n);
    }
    la_int64_t seek(la_int64_t offset, int whence) override
    {
        const la_int64_t to = resolve(static_cast<la_int64_t>(m_pos),
                                      static_cast<la_int64_t>(m_bytes.size()), offset, whence);
        if (to >= 0)
            m_pos = static_cast<std::size_t>(to);
        return to < 0 ? ARCHIVE_FATAL : to;
    }

private:
    std::string_view m_bytes;
    std::size_t m_pos = 0;
};

class FileSource : public Source
{
public:
    FileSource(const fs::path& file, std::uint64_t size) : m_in(file, std::ios::binary)
    {
        m_size = static_cast<la_int64_t>(size);
    }
    bool ok() const { return static_cast<bool>(m_in); }
    la_ssize_t read(const void** buffer) override
    {
        m_in.read(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
        const auto n = m_in.gcount();
        if (n <= 0 && !m_in.eof())
            return ARCHIVE_FATAL;
        m_in.clear();
        m_pos += n;
        *buffer = m_buf.data();
        return static_cast<la_ssize_t>(n);
    }
    la_int64_t seek(la_int64_t offset, int whence) override
    {
        const la_int64_t to = resolve(m_pos, m_size, offset, whence);
        if (to < 0)
            return ARCHIVE_FATAL;
        m_in.clear();
        m_in.seekg(to);
        m_pos = to;
        return m_in ? to : ARCHIVE_FATAL;
    }

private:
    std::ifstream m_in;
    std::vector<char> m_buf = std::vector<char>(kBlock);
    la_int64_t m_pos = 0;
    la_int64_t m_size = 0;
};

struct ArchiveFree
{
    void operator()(archive* a) const { archive_read_free(a); }
};

std::string errText(archive* a)
{
    const char* s = archive_error_string(a);
    return s ? s : "unknown error";
}

Error refused(const std::string& origin, const std::string& why)
{
    return Error::invalid(origin + ": " + why);
}

// Decompresses the entry the archive is positioned on, within the limits.
Expected<std::string> readEntryData(archive* a, Source& src, std::uint64_t consumedBefore,
                                    const ZipLimits& limits, const std::string& where)
{
    std::string out;
    char buf[kBlock];
    for (;;) {
        const la_ssize_t n = archive_read_data(a, buf, sizeof buf);
        if (n == 0)
            return out;
        if (n < 0)
            return refused(where, "cannot read: " + errText(a));
        out.append(buf, static_cast<std::size_t>(n));
        if (out.size() > limits.maxEntryBytes)
            return refused(where, "expands past " + std::to_string(limits.maxEntryBytes) +
                                      " bytes; refused (zip bomb?)");
        const std::uint64_t packed = std::max<std::uint64_t>(src.consumed - consumedBefore, 1);
        if (out.size() >= limits.ratioFloorBytes &&
            static_cast<double>(out.size()) > limits.maxRatio * static_cast<double>(packed))
            return refused(where, "expands more than " +
                                      std::to_string(static_cast<int>(limits.maxRatio)) + ":1 (" +
                                      std::to_string(out.size()) + " bytes from at most " +
                                      std::to_string(packed) + "); refused as a zip bomb");
    }
}

// Reads the entries `wanted` accepts, in the zip's order; stops after the first one when
// `firstOnly`. Entries not wanted are skipped without being decompressed.
Expected<ZipEntries> readFrom(Source& src, const ZipEntryFilter& wanted, bool firstOnly,
                              const ZipLimits& limits, const std::string& origin)
{
    std::unique_ptr<archive, ArchiveFree> a(archive_read_new());
    archive_read_support_format_zip_seekable(a.get());
    archive_read_set_read_callback(a.get(), &Source::readCb);
    archive_read_set_seek_callback(a.get(), &Source::seekCb);
    archive_read_set_callback_data(a.get(), &src);
    if (archive_read_open1(a.get()) != ARCHIVE_OK)
        return refused(origin, "not a zip archive: " + errText(a.get()));
    ZipEntries out;
    std::uint64_t total = 0;
    for (std::size_t count = 1;; ++count) {
        const std::uint64_t before = src.consumed;
        archive_entry* e = nullptr;
        const int rc = archive_read_next_header(a.get(), &e);
        if (rc == ARCHIVE_EOF)
            return out;
        if (count > limits.maxEntries)
            return refused(origin, "more than " + std::to_string(limits.maxEntries) +
                                       " entries; refused (zip bomb?)");
        if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN)
            return refused(origin, "damaged zip: " + errText(a.get()));
        const char* name = archive_entry_pathname(e);
        if (!name || !wanted(name))
            continue;
        const std::string where = origin + ": " + name;
        if (archive_entry_filetype(e) != AE_IFREG)
            return refused(where, "not a regular file entry");
        if (archive_entry_size_is_set(e) && archive_entry_size(e) >= 0 &&
            static_cast<std::uint64_t>(archive_entry_size(e)) > limits.maxEntryBytes)
            return refused(where, std::to_string(archive_entry_size(e)) + " bytes is more than " +
                                      std::to_string(limits.maxEntryBytes) + " allowed; refused");
        auto bytes = readEntryData(a.get(), src, before, limits, where);
        if (!bytes)
            return bytes.error();
        total += bytes->size();
        if (total > limits.maxTotalBytes)
            return refused(origin, "the entries read expand past " +
                                       std::to_string(limits.maxTotalBytes) + " bytes; refused");
        out.emplace_back(name, std::move(*bytes));
        if (firstOnly)
            return out;
    }
}

Expected<std::string> onlyEntry(Expected<ZipEntries> read, const std::string& entryName,
                                const std::string& origin)
{
    if (!read)
        return read.error();
    if (read->empty())
        return refused(origin, "no " + entryName + " in the zip");
    return std::move(read->front().second);
}

// The zip file opened as a source, after the checks every reader makes.
Expected<ZipEntries> readFile(const fs::path& zip, const ZipEntryFilter& wanted, bool firstOnly,
                              const ZipLimits& limits)
{
    const std::string origin = paths::toUtf8(zip);
    std::error_code ec;
    if (!fs::is_regular_file(zip, ec))
        return refused(origin, "not a regular file");
    const auto size = fs::file_size(zip, ec);
    if (ec)
        return refused(origin, "cannot read: " + ec.message());
    if (size > limits.maxArchiveBytes)
        return refused(origin, std::to_string(size) + " bytes is larger than a bundle may be (" +
                                   std::to_string(limits.maxArchiveBytes) + " bytes)");
    FileSource src(zip, size);
    if (!src.ok())
        return refused(origin, "cannot open");
    return readFrom(src, wanted, firstOnly, limits, origin);
}

ZipEntryFilter named(const std::string& entryName)
{
    return [entryName](const std::string& name) { return name == entryName; };
}

} // namespace

bool fileLooksLikeZip(const fs::path& file)
{
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        return false;
    std::ifstream in(file, std::ios::binary);
    std::string head(4, '\0');
    in.read(head.data(), 4);
    return in && looksLikeZip(head);
}

bool looksLikeZip(std::string_view head)
{
    return head.size() >= 4 && head[0] == 'P' && head[1] == 'K' &&
           ((head[2] == '\x03' && head[3] == '\x04') || (head[2] == '\x05' && head[3] == '\x06'));
}

Expected<std::string> readZipEntry(const fs::path& zip, const std::string& entryName,
                                   const ZipLimits& limits)
{
    return onlyEntry(readFile(zip, named(entryName), true, limits), entryName, paths::toUtf8(zip));
}

Expected<ZipEntries> readZipEntries(const fs::path& zip, const ZipEntryFilter& wanted,
                                    const ZipLimits& limits)
{
    return readFile(zip, wanted, false, limits);
}

Expected<std::string> readZipEntryFromBytes(std::string_view zip, const std::string& entryName,
                                            const ZipLimits& limits, const std::string& origin)
{
    if (zip.size() > limits.maxArchiveBytes)
        return refused(origin, "larger than a bundle may be");
    MemorySource src(zip);
    return onlyEntry(readFrom(src, named(entryName), true, limits, origin), entryName, origin);
}

Expected<ZipEntries> readZipEntriesFromBytes(std::string_view zip, const ZipEntryFilter& wanted,
                                             const ZipLimits& limits, const std::string& origin)
{
    if (zip.size() > limits.maxArchiveBytes)
        return refused(origin, "larger than a bundle may be");
    MemorySource src(zip);
    return readFrom(src, wanted, false, limits, origin);
}

} // namespace sp
