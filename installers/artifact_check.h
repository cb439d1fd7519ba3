#pragma once
// `stackpilot-cli catalog check`: is every artifact of a catalog still where the catalog
// says, and what the catalog says (docs/FEED.md, "Checking a catalog"). One result per
// artifact, in the catalog's order:
//   - a download URL answers a HEAD (or a one-byte GET where HEAD is refused: 403, 405,
//     501) with 2xx
//     and, when the server declares a length, the catalog's size (an unverified one too;
//     where the catalog has none, the line says what the server declares); with `deep` it
//     is downloaded (never kept) and its size and SHA-256 compared as the installer
//     would, and a download the catalog gives no size for fails with the size to record;
//   - a git URL is listed (git ls-remote over libgit2): the pinned commit is a branch or
//     tag tip, and the catalog's tag, when the server has it, points at that commit;
//     with `deep` the history is fetched into a temporary repository and the commit
//     looked up there.
// Nothing is installed or cached; the proxy and CA file are the downloader's.

#include "core/catalog/model_types.h"
#include "core/catalog/types.h"
#include "installers/downloader.h"

#include <chrono>
#include <string>

namespace sp {

struct ArtifactCheckOptions
{
    bool deep = false;
    DownloaderOptions downloader; // proxy, CA file, timeouts; the cache is a temporary one
    // How long one git artifact's check may take (libgit2 has no timeout of its own, so
    // it runs in a child process that is killed then). 0: 120 s, 900 s with `deep`.
    std::chrono::seconds gitDeadline{0};
};

enum class CheckVerdict
{
    Ok,
    Failed,
    Unchecked // reachable, but what the catalog claims could not be told without --deep
};
const char* toString(CheckVerdict v); // "ok" | "FAILED" | "unchecked"

struct ArtifactCheck
{
    std::string runtime; // the runtime that lists the artifact
    std::string url;
    CheckVerdict verdict = CheckVerdict::Ok;
    std::string detail;       // one line: what was seen ("HTTP 404", "sha256 abc... is not ...")
    std::string line() const; // "FAILED  runtime  url: detail"
};

ArtifactCheck checkArtifact(const std::string& runtime, const Artifact& artifact,
                            const ArtifactCheckOptions& options);

// One download for a deep check: a temporary cache, one try, nothing kept; the
// downloader compares size and SHA-256 exactly as an install would.
Expected<DownloadResult> fetchOnceForCheck(const DownloadRequest& request,
                                           const ArtifactCheckOptions& options, ByteSink& sink);

// A model's file (model_check.cpp), named by its model's id: the same checks, and with
// `deep` each piece of a file with `chunks` compared to the catalog's piece digests.
ArtifactCheck checkModelFile(const std::string& model, const ModelFile& file,
                             const ArtifactCheckOptions& options);

// The git part (git_remote_check.cpp): ls-remote, and with `deep` a fetch.
ArtifactCheck checkGitArtifact(const std::string& runtime, const Artifact& artifact,
                               const ArtifactCheckOptions& options);

} // namespace sp
