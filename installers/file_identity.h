#pragma once
// Which file this is, whatever its path: the device (volume) and inode (file index) with
// its size and modification time. A file hashed once is known again by it (the model
// import's hash cache) until it changes; two paths with the same identity are one file.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace sp {

struct FileIdentity
{
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::uint64_t size = 0;
    std::int64_t mtimeNs = 0;
    // "device:inode:size:mtime", the hash cache's key.
    std::string key() const
    {
        return std::to_string(device) + ":" + std::to_string(inode) + ":" + std::to_string(size) +
               ":" + std::to_string(mtimeNs);
    }
};

// Follows symlinks; nullopt when the file cannot be read.
std::optional<FileIdentity> fileIdentity(const std::filesystem::path& file);

} // namespace sp
