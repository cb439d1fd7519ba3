#pragma once
// Writes archive entries under one staging root and nowhere else. Every path is
// checked lexically (no absolute paths, no `..`, no drive letters) and every parent
// folder must be a real folder we created, never a symlink, so nothing an archive
// says can make a write land outside the root. Symlinks may only point inside the
// root; hard links only at files this extraction already wrote. Device nodes,
// FIFOs and sockets are refused; setuid/setgid/sticky bits are stripped with a
// warning (a runtime never needs them, and refusing would reject harmless
// packages that ship them).

#include "core/expected.h"
#include "installers/file_hasher.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

struct archive;
struct archive_entry;

namespace sp {

class UniqueFd;

// One thing an installed runtime consists of, as the receipt records it.
struct FileRecord
{
    enum class Type
    {
        File,
        Symlink,
        Directory
    };
    std::string path; // relative to the runtime folder, '/'-separated, UTF-8
    Type type = Type::File;
    std::uint64_t size = 0;
    std::string sha256; // files only
    std::string target; // symlinks only
    bool executable = false;
};

// Paths already claimed in one staging folder, shared by the artifacts of one
// runtime that extract in parallel: two artifacts may share folders but not files.
class StagingClaims
{
public:
    // True when `path` is free or already owned by `owner`.
    bool claim(const std::string& path, int owner);

private:
    std::mutex m_mutex;
    std::map<std::string, int> m_owners;
};

class EntryWriter
{
public:
    struct Options
    {
        std::filesystem::path root; // must exist
        std::string archiveName;    // for messages
        int stripComponents = 0;
        std::uint64_t maxExtractedBytes = 0; // 0 = no cap
        StagingClaims* claims = nullptr;
        int owner = 0;
    };

    explicit EntryWriter(Options options);

    // Writes the current entry of `a`, reading its data from `a`. Returns an error
    // naming the archive and the entry when the entry is refused or a write fails.
    Expected<void> writeEntry(archive* a, archive_entry* entry);

    // Writes one plain file from a byte stream (format "file").
    Expected<void> beginPlainFile(const std::string& name, bool executable);
    Expected<void> writePlain(const char* data, std::size_t size);
    Expected<void> endPlainFile();

    std::uint64_t extractedBytes() const { return m_extracted; }
    // Waits for the hashes of large files (hashed on a thread of their own) first.
    const std::vector<FileRecord>& records() const
    {
        settleHashes();
        return m_records;
    }
    const std::vector<std::string>& warnings() const { return m_warnings; }

    // Removes everything this writer created (restart of the stream).
    void removeWritten();

    // Lexical check and normalisation of an archive path: "./a//b/" -> "a/b".
    // Empty result with ok() means "nothing left after stripping".
    static Expected<std::string> sanitize(const std::string& raw, int strip);

private:
    // `cause`: a write refused by the system (causeFromErrno), a runtime error (exit 1);
    // Unknown for an entry the archive should not hold, invalid input (exit 3).
    Expected<void> fail(const std::string& entry, const std::string& why,
                        Cause cause = Cause::Unknown) const;
    Expected<void> ensureParents(const std::string& rel, const std::string& entryName);
    Expected<void> writeRegular(archive* a, const std::string& rel, const std::string& name,
                                unsigned mode, std::int64_t declaredSize);
    using HashFn = std::function<void(const void*, std::size_t)>;
    // Copies the entry's data into `fd`, sparse holes as zeros, hashing what it
    // writes; returns the file's size.
    Expected<std::uint64_t> copyData(archive* a, UniqueFd& fd, const std::string& name,
                                     const HashFn& hash);
    // Counts, writes and hashes one block of an entry's bytes.
    Expected<void> writeBlock(UniqueFd& fd, const void* data, std::size_t n,
                              const std::string& name, const HashFn& hash);
    void settleHashes() const; // fills in the digests of files hashed on the thread
    Expected<void> writeSymlink(const std::string& rel, const std::string& name,
                                const std::string& target);
    Expected<void> writeHardlink(const std::string& rel, const std::string& name,
                                 const std::string& rawTarget);
    Expected<void> claim(const std::string& rel, const std::string& name);
    // Claims `rel`, makes its parent folders, and removes an earlier entry of the same
    // name (never a folder): where the entry may now be created.
    Expected<std::filesystem::path> prepareEntry(const std::string& rel, const std::string& name);
    Expected<void> countBytes(std::uint64_t n, const std::string& name);
    void replaceRecord(FileRecord r);

    Options m_o;
    std::uint64_t m_extracted = 0;
    mutable std::vector<FileRecord> m_records; // mutable: settleHashes() fills digests in
    // Files at least this large are hashed on m_hasher's thread; m_pending maps
    // their paths to tickets until settleHashes().
    static constexpr std::int64_t kThreadHashBytes = std::int64_t{1} << 20;
    std::unique_ptr<FileHasher> m_hasher;
    mutable std::map<std::string, std::size_t> m_pending;
    std::map<std::string, std::size_t> m_index; // path -> position in m_records
    std::set<std::string> m_dirs;               // folders we created or verified
    std::vector<std::string> m_warnings;
    // format "file"
    struct Plain;
    std::shared_ptr<Plain> m_plain;
};

// Every symlink under `root` must resolve (through the real tree) to a place
// inside it. Run once every artifact is unpacked: a later link can change what an
// earlier link's target means.
Expected<void> checkSymlinksInside(const std::filesystem::path& root,
                                   const std::vector<FileRecord>& records);

} // namespace sp
