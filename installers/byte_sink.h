#pragma once
// Where downloaded bytes go while they arrive: a hasher, an extractor, a file, or a
// tee of several. The downloader owns the partial file and resume; a sink only
// sees one ordered stream of bytes from offset 0.

#include "core/expected.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace sp {

class ByteSink
{
public:
    virtual ~ByteSink() = default;
    // Called once before the first byte and again after restart(); `total` is the
    // full artifact size when the server or the catalog says so.
    virtual Expected<void> begin(std::optional<std::uint64_t> total) = 0;
    // Bytes in order. An error stops the download (e.g. a hostile archive entry).
    virtual Expected<void> write(const char* data, std::size_t size) = 0;
    // All bytes delivered; the sink may now finish extraction and checks.
    virtual Expected<void> finish() = 0;
    // The stream starts over from byte 0 (a server ignored Range): drop what was
    // received so far. begin() follows.
    virtual Expected<void> restart() = 0;
    // The download failed or was cancelled; release resources, keep nothing.
    virtual void abort() {}
};

// Calls sink.abort() when it goes out of scope unless release() was called, so a
// function that feeds a sink aborts it once on every way out but success. Release
// it after a successful finish(), or when another function takes the sink over.
class SinkAbortGuard
{
public:
    explicit SinkAbortGuard(ByteSink& sink) : m_sink(sink) {}
    ~SinkAbortGuard()
    {
        if (m_armed)
            m_sink.abort();
    }
    SinkAbortGuard(const SinkAbortGuard&) = delete;
    SinkAbortGuard& operator=(const SinkAbortGuard&) = delete;

    void release() { m_armed = false; }

private:
    ByteSink& m_sink;
    bool m_armed = true;
};

// Keeps nothing: what `catalog check --deep` downloads only to let the downloader
// compare its size and digest.
class DiscardSink : public ByteSink
{
public:
    Expected<void> begin(std::optional<std::uint64_t>) override { return {}; }
    Expected<void> write(const char*, std::size_t) override { return {}; }
    Expected<void> finish() override { return {}; }
    Expected<void> restart() override { return {}; }
};

} // namespace sp
