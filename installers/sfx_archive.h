#pragma once
// 7-Zip self-extracting executables (Git for Windows' PortableGit-*.7z.exe): a program
// stub followed by a plain 7z archive. libarchive finds the archive behind a stub only
// within a fixed window (it looks from 0x27000 to 0x60000), and Debian's p7zip stub
// (7zCon.sfx, ~490 KB) already ends past it, so the extractor finds the archive itself:
// the 7z signature, confirmed by its start header's CRC, then reads from there. Offsets
// inside a 7z archive are relative to its signature, so nothing else changes.

#include <archive.h>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>

namespace sp {

// Offset of the first 7z signature header in `file` whose CRC checks out, searching
// the first `scanLimit` bytes; nullopt when there is none.
std::optional<std::uint64_t> find7zStart(const std::filesystem::path& file,
                                         std::uint64_t scanLimit = std::uint64_t{16} << 20);

// A file read from `offset` on, as libarchive callbacks (read, seek, skip): the
// archive sees byte `offset` as its byte 0.
class OffsetSource
{
public:
    OffsetSource() = default;
    ~OffsetSource();
    OffsetSource(const OffsetSource&) = delete;
    OffsetSource& operator=(const OffsetSource&) = delete;

    // archive_read_open through the callbacks; returns libarchive's status.
    int open(archive* a, const std::filesystem::path& file, std::uint64_t offset);

private:
    static la_ssize_t read(archive*, void* self, const void** buffer);
    static la_int64_t seek(archive*, void* self, la_int64_t offset, int whence);
    static la_int64_t skip(archive*, void* self, la_int64_t request);

    std::FILE* m_file = nullptr;
    std::uint64_t m_base = 0;
    char m_buffer[1 << 16];
};

} // namespace sp
