#pragma once
// A model file with per-piece digests (ModelChunks): each piece is hashed as it arrives,
// and a piece that is wrong is fetched again alone with an HTTP range request and
// written over the bad bytes, instead of downloading gigabytes again.

#include "core/cancel_token.h"
#include "core/catalog/model_types.h"
#include "core/expected.h"
#include "installers/byte_sink.h"
#include "installers/downloader.h"
#include "installers/sha256.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace sp {

// Hashes the stream piece by piece and remembers which pieces do not match.
class PieceChecker : public ByteSink
{
public:
    explicit PieceChecker(ModelChunks chunks) : m_chunks(std::move(chunks)) {}
    Expected<void> begin(std::optional<std::uint64_t>) override;
    Expected<void> write(const char* data, std::size_t size) override;
    Expected<void> finish() override;
    Expected<void> restart() override { return begin(std::nullopt); }

    const std::vector<std::size_t>& bad() const { return m_bad; }

private:
    void close(); // the current piece is complete: check it
    ModelChunks m_chunks;
    Sha256 m_hash;
    std::uint64_t m_inPiece = 0;
    std::size_t m_piece = 0;
    std::vector<std::size_t> m_bad;
};

// Fetches bytes [offset, offset + length) of `url` (a range request; a server that
// ignores Range is an error, not a whole download).
Expected<std::string> fetchRange(const std::string& url, std::uint64_t offset, std::uint64_t length,
                                 const DownloaderOptions& options, const CancelToken& cancel);

// Fetches each piece in `bad` from the first of `urls` that gives bytes with the
// piece's digest and writes it into `file` at its place. Returns the pieces fetched.
Expected<int> repairPieces(const std::filesystem::path& file, const ModelFile& model,
                           const std::vector<std::size_t>& bad,
                           const std::vector<std::string>& urls, const DownloaderOptions& options,
                           const CancelToken& cancel);

} // namespace sp
