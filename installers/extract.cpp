#include "installers/extract.h"

#include "core/paths.h"
#include "installers/sfx_archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>

#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace fs = std::filesystem;

namespace sp {

namespace {

struct ArchiveDeleter
{
    void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveDeleter>;

la_ssize_t readTrampoline(archive*, void* self, const void** buffer)
{
    return static_cast<ExtractSink*>(self)->readChunk(buffer);
}

std::string archiveError(archive* a)
{
    const char* s = archive_error_string(a);
    return s ? s : "unknown libarchive error";
}

// Reads the current member of an outer archive (a .deb's data.tar.*) as the input
// of an inner one, without copying it anywhere.
struct NestedReader
{
    archive* outer = nullptr;
    static la_ssize_t read(archive* inner, void* self, const void** buffer)
    {
        auto* r = static_cast<NestedReader*>(self);
        size_t len = 0;
        la_int64_t offset = 0;
        const int rc = archive_read_data_block(r->outer, buffer, &len, &offset);
        if (rc == ARCHIVE_EOF)
            return 0;
        if (rc < ARCHIVE_WARN) {
            archive_set_error(inner, EIO, "%s", archive_error_string(r->outer));
            return -1;
        }
        return static_cast<la_ssize_t>(len);
    }
};

void enableTarFormats(archive* a)
{
    archive_read_support_filter_gzip(a);
    archive_read_support_filter_xz(a);
    archive_read_support_filter_zstd(a);
    archive_read_support_filter_bzip2(a);
    archive_read_support_format_tar(a);
}

#ifdef _WIN32
int openSpool(const fs::path& p)
{
    return _wopen(p.c_str(), _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY, _S_IREAD | _S_IWRITE);
}
int spoolWrite(int fd, const char* d, std::size_t n)
{
    return _write(fd, d, static_cast<unsigned>(n));
}
void spoolClose(int fd)
{
    _close(fd);
}
#else
int openSpool(const fs::path& p)
{
    return ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
}
ssize_t spoolWrite(int fd, const char* d, std::size_t n)
{
    return ::write(fd, d, n);
}
void spoolClose(int fd)
{
    ::close(fd);
}
#endif

} // namespace

bool ExtractSink::isStreamFormat(const std::string& f)
{
    return f == "tar.gz" || f == "tgz" || f == "tar.xz" || f == "tar.zst" || f == "tar.bz2" ||
           f == "tar" || f == "deb" || f == "zip" || f == "7z" || f == "file";
}

Expected<std::unique_ptr<ExtractSink>> ExtractSink::create(Options options)
{
    if (!isStreamFormat(options.format))
        return Error::invalid(options.archiveName + ": unsupported artifact format '" +
                              options.format + "'");
    if (options.format == "file" && options.fileName.empty())
        return Error::invalid(options.archiveName + ": format 'file' needs a file name");
    return std::unique_ptr<ExtractSink>(new ExtractSink(std::move(options)));
}

ExtractSink::ExtractSink(Options options)
    : m_o(std::move(options)), m_writer({m_o.root, m_o.archiveName, m_o.stripComponents,
                                         m_o.maxExtractedBytes, m_o.claims, m_o.owner})
{
    // zip and 7z keep their index at the end: they are spooled, then extracted.
    m_zip = m_o.format == "zip" || m_o.format == "7z";
    m_threaded = !m_zip && m_o.format != "file";
    m_o.chunkBytes = std::max<std::size_t>(m_o.chunkBytes, 4096);
    m_o.queueChunks = std::max<std::size_t>(m_o.queueChunks, 1);
}

ExtractSink::~ExtractSink()
{
    abort();
}

fs::path ExtractSink::spoolPath() const
{
    // Starts with the staging folder's name so start-up recovery removes a leftover.
    fs::path p = m_o.root;
    p += ".spool" + std::to_string(m_o.owner);
    return p;
}

Expected<void> ExtractSink::begin(std::optional<std::uint64_t>)
{
    if (m_begun)
        return {};
    m_begun = true;
    if (m_o.format == "file")
        return m_writer.beginPlainFile(m_o.fileName, true);
    if (m_zip) {
        m_spoolFd = openSpool(spoolPath());
        if (m_spoolFd < 0) {
            const int err = errno;
            return Error::runtime(m_o.archiveName +
                                  ": cannot create spool file: " + std::strerror(err))
                .withCause(causeFromErrno(err));
        }
        return {};
    }
    {
        std::lock_guard lock(m_mutex);
        m_queue.clear();
        m_eof = m_stop = m_workerDone = false;
        m_workerError.reset();
        m_filling.clear();
    }
    m_worker = std::thread([this] { runWorker(); });
    return {};
}

Expected<void> ExtractSink::pushChunk()
{
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [&] { return m_queue.size() < m_o.queueChunks || m_workerDone; });
    if (m_workerDone) {
        m_filling.clear();
        if (m_workerError)
            return *m_workerError;
        return {}; // the archive ended; trailing bytes (padding) are not needed
    }
    m_queue.push_back(std::move(m_filling));
    if (!m_free.empty()) {
        m_filling = std::move(m_free.back());
        m_free.pop_back();
    } else {
        m_filling = {};
    }
    m_filling.clear();
    m_cv.notify_all();
    return {};
}

Expected<void> ExtractSink::write(const char* data, std::size_t size)
{
    if (!m_begun)
        if (auto r = begin(std::nullopt); !r)
            return r;
    if (m_o.format == "file")
        return m_writer.writePlain(data, size);
    if (m_zip) {
        while (size > 0) {
            const auto w = spoolWrite(m_spoolFd, data, size);
            if (w < 0) {
                const int err = errno;
                if (err == EINTR)
                    continue;
                return Error::runtime(m_o.archiveName +
                                      ": cannot write spool file: " + std::strerror(err))
                    .withCause(causeFromErrno(err));
            }
            data += w;
            size -= static_cast<std::size_t>(w);
        }
        return {};
    }
    while (size > 0) {
        if (m_filling.capacity() < m_o.chunkBytes)
            m_filling.reserve(m_o.chunkBytes);
        const std::size_t n = std::min(size, m_o.chunkBytes - m_filling.size());
        m_filling.insert(m_filling.end(), data, data + n);
        data += n;
        size -= n;
        if (m_filling.size() == m_o.chunkBytes)
            if (auto r = pushChunk(); !r)
                return r;
    }
    return {};
}

long ExtractSink::readChunk(const void** buffer)
{
    std::unique_lock lock(m_mutex);
    if (!m_reading.empty() || m_reading.capacity()) {
        m_free.push_back(std::move(m_reading));
        m_reading = {};
    }
    m_cv.wait(lock, [&] { return !m_queue.empty() || m_eof || m_stop; });
    if (m_stop)
        return -1;
    if (m_queue.empty())
        return 0; // end of the stream
    m_reading = std::move(m_queue.front());
    m_queue.pop_front();
    m_cv.notify_all();
    *buffer = m_reading.data();
    return static_cast<long>(m_reading.size());
}

void ExtractSink::runWorker()
{
    auto r = m_o.format == "deb" ? extractDeb() : extractStream();
    std::lock_guard lock(m_mutex);
    if (!r)
        m_workerError = r.error();
    m_workerDone = true;
    m_cv.notify_all();
}

Expected<void> ExtractSink::extractStream()
{
    ArchivePtr a(archive_read_new());
    enableTarFormats(a.get());
    if (archive_read_open(a.get(), this, nullptr, readTrampoline, nullptr) != ARCHIVE_OK)
        return Error::invalid(m_o.archiveName + ": not a readable " + m_o.format +
                              " archive: " + archiveError(a.get()));
    for (;;) {
        archive_entry* e = nullptr;
        const int rc = archive_read_next_header(a.get(), &e);
        if (rc == ARCHIVE_EOF)
            return {};
        if (rc < ARCHIVE_WARN)
            return Error::invalid(m_o.archiveName +
                                  ": corrupt or truncated archive: " + archiveError(a.get()));
        if (auto w = m_writer.writeEntry(a.get(), e); !w)
            return w;
    }
}

Expected<void> ExtractSink::extractDeb()
{
    ArchivePtr outer(archive_read_new());
    archive_read_support_format_ar(outer.get());
    if (archive_read_open(outer.get(), this, nullptr, readTrampoline, nullptr) != ARCHIVE_OK)
        return Error::invalid(m_o.archiveName +
                              ": not a .deb (ar) archive: " + archiveError(outer.get()));
    for (;;) {
        archive_entry* e = nullptr;
        const int rc = archive_read_next_header(outer.get(), &e);
        if (rc == ARCHIVE_EOF)
            return Error::invalid(m_o.archiveName + ": no data.tar member in this .deb");
        if (rc < ARCHIVE_WARN)
            return Error::invalid(m_o.archiveName +
                                  ": corrupt or truncated .deb: " + archiveError(outer.get()));
        const std::string member = archive_entry_pathname(e) ? archive_entry_pathname(e) : "";
        if (member.rfind("data.tar", 0) != 0)
            continue;
        NestedReader reader{outer.get()};
        ArchivePtr inner(archive_read_new());
        enableTarFormats(inner.get());
        const std::string name = m_o.archiveName + "!" + member;
        if (archive_read_open(inner.get(), &reader, nullptr, &NestedReader::read, nullptr) !=
            ARCHIVE_OK)
            return Error::invalid(name + ": not a readable tar: " + archiveError(inner.get()));
        for (;;) {
            archive_entry* ie = nullptr;
            const int irc = archive_read_next_header(inner.get(), &ie);
            if (irc == ARCHIVE_EOF)
                return {};
            if (irc < ARCHIVE_WARN)
                return Error::invalid(
                    name + ": corrupt or truncated archive: " + archiveError(inner.get()));
            if (auto w = m_writer.writeEntry(inner.get(), ie); !w)
                return w;
        }
    }
}

Expected<void> ExtractSink::extractZipSpool()
{
    ArchivePtr a(archive_read_new());
    archive_read_support_format_zip(a.get());
    archive_read_support_format_7zip(a.get());
    const auto spool = spoolPath();
    // A 7z behind a self-extractor stub (PortableGit) opens from its signature on.
    OffsetSource sfx;
    const auto start = m_o.format == "7z" ? find7zStart(spool) : std::nullopt;
    int orc = ARCHIVE_OK;
    if (start && *start > 0)
        orc = sfx.open(a.get(), spool, *start);
    else
#ifdef _WIN32
        orc = archive_read_open_filename_w(a.get(), spool.c_str(), 1 << 16);
#else
        orc = archive_read_open_filename(a.get(), spool.c_str(), 1 << 16);
#endif
    if (orc != ARCHIVE_OK)
        return Error::invalid(m_o.archiveName + ": not a readable " + m_o.format + ": " +
                              archiveError(a.get()));
    for (;;) {
        archive_entry* e = nullptr;
        const int rc = archive_read_next_header(a.get(), &e);
        if (rc == ARCHIVE_EOF)
            return {};
        if (rc < ARCHIVE_WARN)
            return Error::invalid(m_o.archiveName + ": corrupt or truncated " + m_o.format + ": " +
                                  archiveError(a.get()));
        if (auto w = m_writer.writeEntry(a.get(), e); !w)
            return w;
    }
}

Expected<void> ExtractSink::finish()
{
    if (!m_begun)
        if (auto r = begin(std::nullopt); !r)
            return r;
    if (m_o.format == "file")
        return m_writer.endPlainFile();
    if (m_zip) {
        spoolClose(m_spoolFd);
        m_spoolFd = -1;
        auto r = extractZipSpool();
        std::error_code ec;
        fs::remove(spoolPath(), ec);
        return r;
    }
    if (!m_filling.empty())
        if (auto r = pushChunk(); !r) {
            stopWorker();
            return r;
        }
    {
        std::lock_guard lock(m_mutex);
        m_eof = true;
        m_cv.notify_all();
    }
    if (m_worker.joinable())
        m_worker.join();
    m_begun = false;
    if (m_workerError)
        return *m_workerError;
    return {};
}

void ExtractSink::stopWorker()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_cv.notify_all();
    }
    if (m_worker.joinable())
        m_worker.join();
}

Expected<void> ExtractSink::restart()
{
    abort();
    m_writer.removeWritten();
    return {};
}

void ExtractSink::abort()
{
    stopWorker();
    if (m_spoolFd >= 0) {
        spoolClose(m_spoolFd);
        m_spoolFd = -1;
        std::error_code ec;
        fs::remove(spoolPath(), ec);
    }
    m_begun = false;
}

} // namespace sp
