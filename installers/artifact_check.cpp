#include "installers/artifact_check.h"

#include "core/paths.h"
#include "core/qt_text.h"
#include "installers/url_probe.h"

#include <QTemporaryDir>
#include <memory>

namespace sp {

namespace {

// Reachable, and the size the server declares is the catalog's. The probe is the
// preflight's (installers/url_probe.h): a HEAD, or the first byte where HEAD is refused.
void checkShallow(const Artifact& a, const ArtifactCheckOptions& o, ArtifactCheck& out)
{
    // A maintainer asks whether the file is there, over whatever transport it names.
    const UrlProbe p = probeUrl(a.url, o.downloader, true);
    if (p.state != UrlState::Present) {
        out.verdict = CheckVerdict::Failed;
        out.detail = p.reason;
        return;
    }
    out.detail = "HTTP " + std::to_string(p.httpStatus);
    const auto expected = a.expectedSize(); // an unverified size is held to the server too
    if (p.size && expected && *p.size != *expected) {
        out.verdict = CheckVerdict::Failed;
        out.detail += ", the server declares " + std::to_string(*p.size) +
                      " bytes, the catalog says " + std::to_string(*expected);
        return;
    }
    if (p.size)
        out.detail += ", " + std::to_string(*p.size) + " bytes";
    if (!expected)
        out.detail += p.size ? " (the catalog has no size: the server's is the one to record)"
                             : "; no size in the catalog, none declared by the server";
    out.verdict = a.sha256 ? CheckVerdict::Ok : CheckVerdict::Unchecked;
    if (!a.sha256)
        out.detail += "; not pinned (no sha256 in the catalog)";
}

// Downloads the artifact (a temporary cache, one try) and lets the downloader compare
// size and SHA-256 exactly as an install would.
void checkDeep(const Artifact& a, const ArtifactCheckOptions& o, ArtifactCheck& out)
{
    DownloadRequest rq;
    rq.urls = {a.url};
    rq.sha256 = a.sha256;
    rq.size = a.expectedSize(); // a wrong size fails here, an unverified one included
    DiscardSink sink;
    auto r = fetchOnceForCheck(rq, o, sink);
    if (!r) {
        out.verdict = CheckVerdict::Failed;
        out.detail = r.error().message;
        return;
    }
    out.detail = std::to_string(r->size) + " bytes, sha256 " + r->sha256;
    out.verdict = a.sha256 ? CheckVerdict::Ok : CheckVerdict::Unchecked;
    if (!a.sha256)
        out.detail += "; not pinned (no sha256 in the catalog)";
    else
        out.detail += " as the catalog says";
    // The bytes are here, so a missing size is a gap the maintainer can close now.
    if (!a.expectedSize()) {
        out.verdict = CheckVerdict::Failed;
        out.detail += std::string("; the catalog has no size") +
                      (a.sizeUnknown ? " (marked size_unknown)" : "") + ": record " +
                      std::to_string(r->size);
    }
}

} // namespace

Expected<DownloadResult> fetchOnceForCheck(const DownloadRequest& request,
                                           const ArtifactCheckOptions& options, ByteSink& sink)
{
    QTemporaryDir tmp;
    if (!tmp.isValid())
        return Error::runtime("no temporary folder: " + tmp.errorString().toStdString());
    DownloaderOptions d = options.downloader;
    d.cacheDir = toPath(tmp.path());
    d.maxTriesPerUrl = 1;
    return Downloader(d).fetch(request, sink);
}

const char* toString(CheckVerdict v)
{
    switch (v) {
    case CheckVerdict::Ok:
        return "ok";
    case CheckVerdict::Failed:
        return "FAILED";
    case CheckVerdict::Unchecked:
        return "unchecked";
    }
    return "FAILED";
}

std::string ArtifactCheck::line() const
{
    std::string v = toString(verdict);
    v.resize(10, ' ');
    return v + runtime + " " + url + ": " + detail;
}

ArtifactCheck checkArtifact(const std::string& runtime, const Artifact& artifact,
                            const ArtifactCheckOptions& options)
{
    if (artifact.isGit())
        return checkGitArtifact(runtime, artifact, options);
    ArtifactCheck out;
    out.runtime = runtime;
    out.url = artifact.url;
    if (options.deep)
        checkDeep(artifact, options, out);
    else
        checkShallow(artifact, options, out);
    return out;
}

} // namespace sp
