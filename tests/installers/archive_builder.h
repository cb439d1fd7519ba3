#pragma once
// Builds archives in memory with libarchive's writer, so every hostile or broken
// archive a test feeds the installer is made by the test itself.

#include <string>
#include <vector>

namespace sp::test {

struct TestEntry
{
    enum class Type
    {
        File,
        Dir,
        Symlink,
        Hardlink,
        Fifo,
        CharDevice
    };
    std::string path;
    Type type = Type::File;
    std::string data;   // File
    std::string target; // Symlink, Hardlink
    unsigned mode = 0644;
    // Declared size for File when bigger than data (filled with zeros; for bombs).
    std::size_t zeroBytes = 0;

    static TestEntry file(std::string p, std::string d, unsigned m = 0644)
    {
        return {std::move(p), Type::File, std::move(d), {}, m, 0};
    }
    static TestEntry dir(std::string p) { return {std::move(p), Type::Dir, {}, {}, 0755, 0}; }
    static TestEntry symlink(std::string p, std::string t)
    {
        return {std::move(p), Type::Symlink, {}, std::move(t), 0777, 0};
    }
    static TestEntry hardlink(std::string p, std::string t)
    {
        return {std::move(p), Type::Hardlink, {}, std::move(t), 0644, 0};
    }
};

// format: tar, tar.gz, tar.xz, tar.zst, zip
std::string buildArchive(const std::vector<TestEntry>& entries, const std::string& format);
// A .deb: ar with debian-binary, control.tar.gz and data.tar.<ext> holding `entries`.
std::string buildDeb(const std::vector<TestEntry>& entries,
                     const std::string& dataFormat = "tar.xz");
// Mixed, realistically compressible bytes (text-like runs and random runs).
std::string mixedBytes(std::size_t n, unsigned seed);

} // namespace sp::test
