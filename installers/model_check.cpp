// `catalog check` over a catalog's models: each model file is held to the same rule as
// a runtime's artifact (installers/artifact_check.h), and with `deep` a file with
// per-piece digests has every piece compared too, so a catalog whose `chunks` are wrong
// fails before a user's pull would fetch good pieces again and again.

#include "installers/artifact_check.h"
#include "installers/model_pieces.h"

namespace sp {

namespace {

// The model file as the artifact check reads one: a plain, pinned, sized download.
Artifact asArtifact(const ModelFile& f)
{
    Artifact a;
    a.url = f.url;
    a.mirrors = f.mirrors;
    a.sha256 = f.sha256;
    a.size = f.size;
    a.format = "file";
    a.fileName = f.displayName();
    a.urlEvidence = f.urlEvidence;
    return a;
}

std::string pieceList(const std::vector<std::size_t>& bad, std::size_t total)
{
    std::string s;
    for (std::size_t i = 0; i < bad.size() && i < 8; ++i)
        s += (i ? ", " : "") + std::to_string(bad[i] + 1);
    if (bad.size() > 8)
        s += ", …";
    return s + " of " + std::to_string(total);
}

// Downloads the file once (never kept), comparing size, SHA-256 and every piece.
void checkModelDeep(const ModelFile& f, const ArtifactCheckOptions& o, ArtifactCheck& out)
{
    DownloadRequest rq;
    rq.urls = {f.url};
    rq.sha256 = f.sha256;
    rq.size = f.size;
    PieceChecker pieces(f.chunks.value_or(ModelChunks{}));
    DiscardSink discard; // a PieceChecker needs pieces to count in
    auto r = fetchOnceForCheck(rq, o, f.chunks ? static_cast<ByteSink&>(pieces) : discard);
    const std::size_t total = f.chunks ? f.chunks->sha256.size() : 0;
    const bool piecesBad = f.chunks && !pieces.bad().empty();
    if (!r) {
        out.verdict = CheckVerdict::Failed;
        out.detail = r.error().message;
        if (piecesBad)
            out.detail += "; wrong piece(s) " + pieceList(pieces.bad(), total);
        return;
    }
    out.detail = std::to_string(r->size) + " bytes, sha256 " + r->sha256 + " as the catalog says";
    if (piecesBad) { // the file is right, so the catalog's piece digests are not
        out.verdict = CheckVerdict::Failed;
        out.detail += "; but the catalog's digest of piece(s) " + pieceList(pieces.bad(), total) +
                      " is wrong";
        return;
    }
    if (f.chunks)
        out.detail += ", " + std::to_string(total) + " piece(s) as the catalog says";
    out.verdict = CheckVerdict::Ok;
}

} // namespace

ArtifactCheck checkModelFile(const std::string& model, const ModelFile& file,
                             const ArtifactCheckOptions& options)
{
    if (!options.deep)
        return checkArtifact(model, asArtifact(file), options);
    ArtifactCheck out;
    out.runtime = model;
    out.url = file.url;
    checkModelDeep(file, options, out);
    return out;
}

} // namespace sp
