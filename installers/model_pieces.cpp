#include "installers/model_pieces.h"

#include "core/paths.h"
#include "installers/curl_transfer.h"

#include <curl/curl.h>
#include <fstream>

namespace sp {

Expected<void> PieceChecker::begin(std::optional<std::uint64_t>)
{
    m_hash.reset();
    m_inPiece = 0;
    m_piece = 0;
    m_bad.clear();
    return {};
}

void PieceChecker::close()
{
    const std::string got = m_hash.hexDigest();
    if (m_piece >= m_chunks.sha256.size() || got != m_chunks.sha256[m_piece])
        m_bad.push_back(m_piece);
    m_hash.reset();
    m_inPiece = 0;
    ++m_piece;
}

Expected<void> PieceChecker::write(const char* data, std::size_t size)
{
    while (size > 0) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(size, m_chunks.size - m_inPiece));
        m_hash.update(data, n);
        m_inPiece += n;
        data += n;
        size -= n;
        if (m_inPiece == m_chunks.size)
            close();
    }
    return {};
}

Expected<void> PieceChecker::finish()
{
    if (m_inPiece > 0)
        close(); // the last, shorter piece
    return {};
}

namespace {

struct Body
{
    std::string bytes;
    std::uint64_t limit = 0;
};

size_t collect(char* p, size_t size, size_t n, void* out)
{
    auto* body = static_cast<Body*>(out);
    const std::size_t want = size * n;
    if (body->bytes.size() + want > body->limit)
        return 0; // more than the range asked for (a server that ignored it): stop
    body->bytes.append(p, want);
    return want;
}

} // namespace

Expected<std::string> fetchRange(const std::string& url, std::uint64_t offset, std::uint64_t length,
                                 const DownloaderOptions& options, const CancelToken& cancel)
{
    CURL* curl = curl_easy_init();
    if (!curl || length == 0)
        return Error::runtime("cannot create a curl handle");
    char errbuf[CURL_ERROR_SIZE] = {};
    const std::string ua = Downloader::userAgent();
    const std::string ca = paths::toUtf8(options.caFile);
    const std::string range = std::to_string(offset) + "-" + std::to_string(offset + length - 1);
    Body body{{}, length};
    body.bytes.reserve(std::size_t(length));
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    transfer::setTransportOptions(curl, options, true, errbuf, ua, ca); // the piece is pinned
    curl_easy_setopt(curl, CURLOPT_RANGE, range.c_str());
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, options.lowSpeedLimit);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, long(options.lowSpeedTime.count()));
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    transfer::abortWhenCancelled(curl, cancel);
    const CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(curl);
    if (cancel.cancelled())
        return Error::cancelled();
    if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && status == 200))
        return Error::runtime(url + ": bytes " + range + ": " +
                              (errbuf[0] ? errbuf : curl_easy_strerror(rc)))
            .withCause(Cause::Network);
    if (status != 206)
        return Error::runtime(url + ": the server did not answer the range request (HTTP " +
                              std::to_string(status) + ")");
    if (body.bytes.size() != length)
        return Error::runtime(url + ": bytes " + range + ": got " +
                              std::to_string(body.bytes.size()))
            .withCause(Cause::Size);
    return std::move(body.bytes);
}

Expected<int> repairPieces(const std::filesystem::path& file, const ModelFile& model,
                           const std::vector<std::size_t>& bad,
                           const std::vector<std::string>& urls, const DownloaderOptions& options,
                           const CancelToken& cancel)
{
    std::fstream out(file, std::ios::in | std::ios::out | std::ios::binary);
    if (!out)
        return Error::runtime("cannot open " + paths::toUtf8(file) + " to repair it");
    const ModelChunks& c = *model.chunks;
    int fetched = 0;
    for (const std::size_t piece : bad) {
        const std::uint64_t offset = piece * c.size;
        const std::uint64_t length = std::min(c.size, model.size - offset);
        std::optional<std::string> good;
        std::string why;
        for (const std::string& url : urls) {
            auto bytes = fetchRange(url, offset, length, options, cancel);
            ++fetched;
            if (bytes && Sha256::ofBytes(bytes->data(), bytes->size()) == c.sha256[piece]) {
                good = std::move(*bytes);
                break;
            }
            why = bytes ? url + ": piece " + std::to_string(piece + 1) + " was wrong again"
                        : bytes.error().message;
            if (cancel.cancelled())
                return Error::cancelled();
        }
        if (!good)
            return Error::runtime(model.displayName() + ": piece " + std::to_string(piece + 1) +
                                  " could not be fetched right: " + why)
                .withCause(Cause::Checksum);
        out.seekp(std::streamoff(offset));
        out.write(good->data(), std::streamsize(good->size()));
    }
    out.flush();
    if (!out)
        return Error::runtime("cannot write the repaired pieces into " + paths::toUtf8(file));
    return fetched;
}

} // namespace sp
