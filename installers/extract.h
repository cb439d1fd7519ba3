#pragma once
// A ByteSink that unpacks an artifact while it downloads. Bytes go into a bounded
// queue of chunks (default 4 x 1 MiB); a worker thread runs libarchive over that
// queue through archive_read_open callbacks and hands each entry to an
// EntryWriter, so memory stays flat whatever the artifact's size and extraction
// overlaps the transfer. A full queue makes write() wait, which slows the
// download to the disk's pace instead of buffering.
//
// Formats: tar.gz, tar.xz, tar.zst, tar.bz2, tar (streamed); deb (an ar archive:
// its data.tar.* member is read as a nested stream straight out of the outer
// archive); zip (needs its central directory, so it is spooled to a file beside
// the staging folder and unpacked in finish()); file (one file, written as it
// arrives). exe-installer is not a stream format: see installer.h.

#include "installers/byte_sink.h"
#include "installers/extract_writer.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sp {

class ExtractSink : public ByteSink
{
public:
    struct Options
    {
        std::filesystem::path root; // the staging folder; must exist
        std::string format;
        std::string archiveName; // for messages (usually the URL's last segment)
        int stripComponents = 0;
        std::uint64_t maxExtractedBytes = 0; // 0 = no cap
        std::string fileName;                // format "file"
        StagingClaims* claims = nullptr;
        int owner = 0;
        std::size_t chunkBytes = 1 << 20;
        std::size_t queueChunks = 4;
    };

    // Fails for formats that cannot be streamed here (exe-installer, unknown).
    static Expected<std::unique_ptr<ExtractSink>> create(Options options);
    static bool isStreamFormat(const std::string& format);

    ~ExtractSink() override;

    Expected<void> begin(std::optional<std::uint64_t> total) override;
    Expected<void> write(const char* data, std::size_t size) override;
    Expected<void> finish() override;
    Expected<void> restart() override;
    void abort() override;

    const std::vector<FileRecord>& records() const { return m_writer.records(); }
    const std::vector<std::string>& warnings() const { return m_writer.warnings(); }
    std::uint64_t extractedBytes() const { return m_writer.extractedBytes(); }

    // libarchive's read callback (public for the C trampoline).
    long readChunk(const void** buffer);

private:
    explicit ExtractSink(Options options);
    void stopWorker();
    void runWorker();
    Expected<void> extractStream();
    Expected<void> extractDeb();
    Expected<void> extractZipSpool();
    Expected<void> pushChunk();
    std::filesystem::path spoolPath() const;

    Options m_o;
    EntryWriter m_writer;
    bool m_threaded = false;
    bool m_zip = false;
    bool m_begun = false;

    // queue shared with the worker
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::vector<char>> m_queue;
    std::vector<std::vector<char>> m_free;
    std::vector<char> m_filling; // producer side
    std::vector<char> m_reading; // consumer side, alive until the next read
    bool m_eof = false;
    bool m_stop = false;
    bool m_workerDone = false;
    std::optional<Error> m_workerError;
    std::thread m_worker;

    int m_spoolFd = -1;
};

} // namespace sp
