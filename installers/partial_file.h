#pragma once
// The resume file of one download: bytes received so far, appended as they arrive.

#include "core/expected.h"
#include "core/paths.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>

namespace sp {

class PartialFile
{
public:
    explicit PartialFile(std::filesystem::path path) : m_path(std::move(path)) {}
    ~PartialFile() { close(); }
    PartialFile(const PartialFile&) = delete;
    PartialFile& operator=(const PartialFile&) = delete;

    // Opens for reading and appending, creating it (and its folder) if needed.
    Expected<void> open();
    std::uint64_t size() const { return m_size; }
    // Reads the whole current content from the start, in chunks, into `fn(data, n)`;
    // stops at the first error fn returns.
    template <class Fn> Expected<void> replay(Fn&& fn);
    Expected<void> append(const char* data, std::size_t n);
    Expected<void> truncate(); // back to zero bytes
    Expected<void> flush();
    void close();
    void remove(); // closes and deletes
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
    std::FILE* m_file = nullptr;
    std::uint64_t m_size = 0;
};

template <class Fn> Expected<void> PartialFile::replay(Fn&& fn)
{
    if (std::fseek(m_file, 0, SEEK_SET) != 0)
        return Error::runtime("cannot read " + paths::toUtf8(m_path));
    static constexpr std::size_t chunk = 1 << 20;
    auto buf = std::make_unique<char[]>(chunk);
    std::uint64_t left = m_size;
    while (left > 0) {
        const std::size_t want = left < chunk ? static_cast<std::size_t>(left) : chunk;
        const std::size_t got = std::fread(buf.get(), 1, want, m_file);
        if (got == 0)
            return Error::runtime("cannot read " + paths::toUtf8(m_path));
        if (auto r = fn(buf.get(), got); !r)
            return r;
        left -= got;
    }
    if (std::fseek(m_file, 0, SEEK_END) != 0)
        return Error::runtime("cannot seek " + paths::toUtf8(m_path));
    return {};
}

} // namespace sp
