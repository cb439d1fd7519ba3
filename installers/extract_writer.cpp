#include "installers/extract_writer.h"

#include "core/paths.h"
#include "core/strings.h"
#include "installers/sha256.h"
#include "installers/unique_fd.h"

#include <archive.h>
#include <archive_entry.h>
#include <cerrno>
#include <cstring>
#include <optional>

namespace fs = std::filesystem;

namespace sp {

namespace {

std::vector<std::string> splitPath(const std::string& s)
{
    std::vector<std::string> parts;
    std::string cur;
    for (char c : s) {
#ifdef _WIN32
        const bool sep = c == '/' || c == '\\';
#else
        const bool sep = c == '/';
#endif
        if (sep) {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(cur);
    return parts;
}

std::string entryName(archive_entry* e)
{
    if (const char* p = archive_entry_pathname_utf8(e))
        return p;
    if (const char* p = archive_entry_pathname(e))
        return p;
    return "(unnamed entry)";
}

bool isWithin(const fs::path& p, const fs::path& root)
{
    auto r = root.begin();
    auto q = p.begin();
    for (; r != root.end(); ++r, ++q)
        if (q == p.end() || *q != *r)
            return false;
    return true;
}

} // namespace

bool StagingClaims::claim(const std::string& path, int owner)
{
    std::lock_guard lock(m_mutex);
    auto [it, inserted] = m_owners.emplace(path, owner);
    return inserted || it->second == owner;
}

EntryWriter::EntryWriter(Options options) : m_o(std::move(options)) {}

Expected<std::string> EntryWriter::sanitize(const std::string& raw, int strip)
{
    if (raw.empty())
        return Error::invalid("empty path");
    if (raw.front() == '/' || raw.front() == '\\')
        return Error::invalid("absolute path");
    if (raw.size() >= 2 && raw[1] == ':' && std::isalpha(static_cast<unsigned char>(raw[0])))
        return Error::invalid("path with a drive letter");
    std::vector<std::string> kept;
    for (const auto& part : splitPath(raw)) {
        if (part.empty() || part == ".")
            continue;
        if (part == "..")
            return Error::invalid("'..' component leaves the install folder");
#ifdef _WIN32
        if (part.find(':') != std::string::npos)
            return Error::invalid("':' in a path component");
#endif
        kept.push_back(part);
    }
    if (static_cast<int>(kept.size()) <= strip)
        return std::string();
    return join(kept, "/", static_cast<std::size_t>(strip));
}

Expected<void> EntryWriter::fail(const std::string& entry, const std::string& why,
                                 Cause cause) const
{
    // A write the system refused (a full or read-only disk) is no fault of the archive's.
    return Error{cause == Cause::Unknown ? ErrorCode::InvalidInput : ErrorCode::Runtime,
                 m_o.archiveName + ": entry '" + entry + "': " + why, cause};
}

Expected<void> EntryWriter::countBytes(std::uint64_t n, const std::string& name)
{
    m_extracted += n;
    if (m_o.maxExtractedBytes && m_extracted > m_o.maxExtractedBytes)
        return fail(name, "extracted size passes the limit of " +
                              std::to_string(m_o.maxExtractedBytes) +
                              " bytes (decompression bomb?)");
    return {};
}

Expected<void> EntryWriter::claim(const std::string& rel, const std::string& name)
{
    if (m_o.claims && !m_o.claims->claim(rel, m_o.owner))
        return fail(name, "another artifact of this runtime already wrote this path");
    return {};
}

Expected<void> EntryWriter::ensureParents(const std::string& rel, const std::string& name)
{
    const auto parts = splitPath(rel);
    std::string prefix;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        prefix += (prefix.empty() ? "" : "/") + parts[i];
        if (m_dirs.count(prefix))
            continue;
        const fs::path p = m_o.root / paths::fromUtf8(prefix);
        std::error_code ec;
        auto st = fs::symlink_status(p, ec);
        if (st.type() == fs::file_type::not_found) {
            fs::create_directory(p, ec);
            if (ec)
                return fail(name, "cannot create folder '" + prefix + "': " + ec.message(),
                            causeFromError(ec));
            st = fs::symlink_status(p, ec);
        }
        if (st.type() == fs::file_type::symlink)
            return fail(name, "path goes through the symlink '" + prefix + "'");
        if (st.type() != fs::file_type::directory)
            return fail(name, "'" + prefix + "' is not a folder");
        m_dirs.insert(prefix);
    }
    return {};
}

void EntryWriter::settleHashes() const
{
    if (m_pending.empty())
        return;
    m_hasher->wait();
    for (const auto& [rel, ticket] : m_pending)
        m_records[m_index.at(rel)].sha256 = m_hasher->digest(ticket);
    m_pending.clear();
}

void EntryWriter::replaceRecord(FileRecord r)
{
    m_pending.erase(r.path); // a later entry of the same path replaces the earlier one
    if (auto it = m_index.find(r.path); it != m_index.end()) {
        m_records[it->second] = std::move(r);
        return;
    }
    m_index[r.path] = m_records.size();
    m_records.push_back(std::move(r));
}

Expected<void> EntryWriter::writeEntry(archive* a, archive_entry* e)
{
    const std::string name = entryName(e);
    auto rel = sanitize(name, m_o.stripComponents);
    if (!rel)
        return fail(name, rel.error().message);
    if (rel->empty())
        return {}; // removed entirely by strip_components

    if (const char* hl = archive_entry_hardlink_utf8(e) ? archive_entry_hardlink_utf8(e)
                                                        : archive_entry_hardlink(e))
        return writeHardlink(*rel, name, hl);

    const auto type = archive_entry_filetype(e);
    unsigned mode = archive_entry_perm(e);
    if (type == AE_IFDIR) {
        if (auto r = ensureParents(*rel + "/.", name); !r)
            return r;
        replaceRecord({*rel, FileRecord::Type::Directory, 0, {}, {}, false});
        return {};
    }
    if (type == AE_IFLNK) {
        const char* t = archive_entry_symlink_utf8(e) ? archive_entry_symlink_utf8(e)
                                                      : archive_entry_symlink(e);
        return writeSymlink(*rel, name, t ? t : "");
    }
    if (type != AE_IFREG) {
        const char* kind = type == AE_IFCHR    ? "character device"
                           : type == AE_IFBLK  ? "block device"
                           : type == AE_IFIFO  ? "FIFO"
                           : type == AE_IFSOCK ? "socket"
                                               : "unknown entry type";
        return fail(name, std::string("refusing a ") + kind);
    }
    if (mode & 07000) {
        m_warnings.push_back(m_o.archiveName + ": entry '" + name +
                             "': setuid/setgid/sticky bits stripped");
        mode &= 0777;
    }
    return writeRegular(a, *rel, name, mode | 0600,
                        archive_entry_size_is_set(e) ? archive_entry_size(e) : 0);
}

Expected<fs::path> EntryWriter::prepareEntry(const std::string& rel, const std::string& name)
{
    if (auto r = claim(rel, name); !r)
        return r.error();
    if (auto r = ensureParents(rel, name); !r)
        return r.error();
    const fs::path p = m_o.root / paths::fromUtf8(rel);
    std::error_code ec;
    const auto st = fs::symlink_status(p, ec);
    if (st.type() == fs::file_type::directory)
        return fail(name, "a folder of that name exists").error();
    if (st.type() != fs::file_type::not_found)
        fs::remove(p, ec); // a later entry of the same archive replaces an earlier one
    return p;
}

Expected<void> EntryWriter::writeRegular(archive* a, const std::string& rel,
                                         const std::string& name, unsigned mode,
                                         std::int64_t declaredSize)
{
    auto place = prepareEntry(rel, name);
    if (!place)
        return place.error();
    UniqueFd fd = UniqueFd::createExclusive(*place);
    if (!fd.valid()) {
        const int err = errno;
        return fail(name, std::string("cannot create file: ") + std::strerror(err),
                    causeFromErrno(err));
    }
    Sha256 sha;
    std::optional<std::size_t> ticket;
    if (declaredSize >= kThreadHashBytes) {
        if (!m_hasher)
            m_hasher = std::make_unique<FileHasher>();
        ticket = m_hasher->begin();
    }
    // Every exit closes the hasher's file, so a failed entry cannot leak into the next.
    struct EndFile
    {
        FileHasher* h;
        ~EndFile()
        {
            if (h)
                h->end();
        }
    } endFile{ticket ? m_hasher.get() : nullptr};
    auto hash = [&](const void* bytes, std::size_t n) {
        if (ticket)
            m_hasher->update(bytes, n);
        else
            sha.update(bytes, n);
    };
    auto copied = copyData(a, fd, name, hash);
    if (!copied)
        return copied.error();
    const std::uint64_t size = *copied;
    fd.setMode(mode);
    if (fd.close() != 0) {
        const int err = errno;
        return fail(name, std::string("write failed: ") + std::strerror(err), causeFromErrno(err));
    }
    if (!ticket) {
        replaceRecord({rel, FileRecord::Type::File, size, sha.hexDigest(), {}, (mode & 0111) != 0});
        return {};
    }
    endFile.h = nullptr;
    m_hasher->end();
    replaceRecord({rel, FileRecord::Type::File, size, {}, {}, (mode & 0111) != 0});
    m_pending[rel] = *ticket;
    return {};
}

Expected<std::uint64_t> EntryWriter::copyData(archive* a, UniqueFd& fd, const std::string& name,
                                              const HashFn& hash)
{
    std::int64_t pos = 0;
    for (;;) {
        const void* buf = nullptr;
        size_t len = 0;
        la_int64_t offset = 0;
        const int rc = archive_read_data_block(a, &buf, &len, &offset);
        if (rc == ARCHIVE_EOF)
            break;
        if (rc != ARCHIVE_OK) { // a warning here is a failed CRC check
            return fail(name, std::string("corrupt or truncated data: ") +
                                  (archive_error_string(a) ? archive_error_string(a) : "?"))
                .error();
        }
        // A sparse hole: write it as zeros so the file hash is what a reader sees.
        static const char zeros[65536] = {};
        while (pos < offset) {
            const auto n =
                static_cast<std::size_t>(std::min<std::int64_t>(offset - pos, sizeof zeros));
            if (auto r = writeBlock(fd, zeros, n, name, hash); !r)
                return r.error();
            pos += static_cast<std::int64_t>(n);
        }
        if (auto r = writeBlock(fd, buf, len, name, hash); !r)
            return r.error();
        pos += static_cast<std::int64_t>(len);
    }
    return static_cast<std::uint64_t>(pos);
}

Expected<void> EntryWriter::writeBlock(UniqueFd& fd, const void* data, std::size_t n,
                                       const std::string& name, const HashFn& hash)
{
    if (auto r = countBytes(n, name); !r)
        return r;
    if (int err = fd.writeAll(static_cast<const char*>(data), n))
        return fail(name, std::string("write failed: ") + std::strerror(err), causeFromErrno(err));
    hash(data, n);
    return {};
}

Expected<void> EntryWriter::writeSymlink(const std::string& rel, const std::string& name,
                                         const std::string& target)
{
    if (target.empty())
        return fail(name, "symlink without a target");
    if (target.front() == '/' || target.front() == '\\' || (target.size() >= 2 && target[1] == ':'))
        return fail(name, "symlink to the absolute path '" + target + "'");
    // Resolve lexically from the link's folder; the installer re-checks every link
    // against the real tree once all entries exist (a later link can change what
    // an earlier target means).
    auto parts = splitPath(rel);
    parts.pop_back();
    for (const auto& t : splitPath(target)) {
        if (t.empty() || t == ".")
            continue;
        if (t == "..") {
            if (parts.empty())
                return fail(name, "symlink target '" + target + "' leaves the install folder");
            parts.pop_back();
        } else {
            parts.push_back(t);
        }
    }
    auto place = prepareEntry(rel, name);
    if (!place)
        return place.error();
    std::error_code ec;
    fs::create_symlink(paths::fromUtf8(target), *place, ec);
    if (ec)
        return fail(name, "cannot create symlink: " + ec.message(), causeFromError(ec));
    replaceRecord({rel, FileRecord::Type::Symlink, 0, {}, target, false});
    return {};
}

Expected<void> EntryWriter::writeHardlink(const std::string& rel, const std::string& name,
                                          const std::string& rawTarget)
{
    auto target = sanitize(rawTarget, m_o.stripComponents);
    if (!target)
        return fail(name, "hard link to '" + rawTarget + "': " + target.error().message);
    auto it = m_index.find(*target);
    if (target->empty() || it == m_index.end() ||
        m_records[it->second].type != FileRecord::Type::File)
        return fail(name,
                    "hard link to '" + rawTarget + "', which is not a file extracted before it");
    auto place = prepareEntry(rel, name);
    if (!place)
        return place.error();
    std::error_code ec;
    fs::create_hard_link(m_o.root / paths::fromUtf8(*target), *place, ec);
    if (ec)
        return fail(name, "cannot create hard link: " + ec.message(), causeFromError(ec));
    settleHashes(); // the target's digest may still be on the hasher's thread
    FileRecord r = m_records[it->second];
    r.path = rel;
    replaceRecord(std::move(r));
    return {};
}

void EntryWriter::removeWritten()
{
    m_plain.reset();
    settleHashes();
    std::error_code ec;
    for (auto it = m_records.rbegin(); it != m_records.rend(); ++it) {
        const fs::path p = m_o.root / paths::fromUtf8(it->path);
        if (it->type == FileRecord::Type::Directory)
            fs::remove(p, ec); // only when empty: another artifact may use it
        else
            fs::remove(p, ec);
    }
    m_records.clear();
    m_index.clear();
    m_extracted = 0;
}

Expected<void> checkSymlinksInside(const fs::path& root, const std::vector<FileRecord>& records)
{
    std::error_code ec;
    const auto canonRoot = fs::canonical(root, ec);
    if (ec)
        return Error::runtime(paths::toUtf8(root) + ": " + ec.message());
    for (const auto& r : records) {
        if (r.type != FileRecord::Type::Symlink)
            continue;
        // weakly_canonical leaves a dangling link unresolved, so follow each link
        // by hand (its target from its folder) until a non-link remains.
        fs::path p = root / paths::fromUtf8(r.path);
        fs::path resolved;
        for (int hops = 0;; ++hops) {
            if (hops > 40)
                return Error::invalid("symlink '" + r.path + "': too many levels of links");
            const auto target = fs::read_symlink(p, ec);
            if (ec)
                return Error::invalid("symlink '" + r.path + "' cannot be read: " + ec.message());
            resolved = fs::weakly_canonical(p.parent_path() / target, ec);
            if (ec)
                return Error::invalid("symlink '" + r.path + "' -> '" + r.target +
                                      "' cannot be resolved: " + ec.message());
            if (!isWithin(resolved, canonRoot) || !fs::is_symlink(fs::symlink_status(resolved, ec)))
                break;
            p = resolved;
        }
        if (!isWithin(resolved, canonRoot))
            return Error::invalid("symlink '" + r.path + "' -> '" + r.target +
                                  "' resolves outside the install folder");
    }
    return {};
}

} // namespace sp
