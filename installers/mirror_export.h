#pragma once
// `stackpilot-cli mirror export PROFILE... DIR` (docs/LAB.md): the artifacts of some
// profiles written into a folder that any static HTTP server can serve as the lab's
// artifact mirror, for the mirror rules that exist (core/settings.h): a rule rewrites
// "scheme://host[:port]" into a prefix and keeps the path, so every artifact is at
//   DIR/<host>[_<port>]/<the URL's path>       what a mirror rule reads
//   DIR/sha256/<digest>                        the same bytes, by digest
// (a hard link where the file system allows, else a copy). The rules to put into each
// machine's settings.json are written to DIR/mirrors.json. DIR also works as an
// `install --offline` folder, which finds files by digest.
// Bytes come through the Fetcher (offline folder, download cache, network with this
// machine's own mirror rules), so each is checked against its pinned SHA-256.
// Git artifacts are not exported (a static server cannot serve git to libgit2), nor
// are unpinned ones (a mirror's bytes are only accepted by digest); each is reported.

#include "core/catalog/types.h"
#include "core/expected.h"
#include "installers/fetcher.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace sp {

struct MirrorExportItem
{
    std::string runtime;
    std::string url;
    std::string path; // relative to DIR, '/'-separated; empty when skipped
    std::string note; // why it was skipped, or where the bytes came from
    bool exported = false;
};

struct MirrorExportResult
{
    std::vector<MirrorExportItem> items;
    // host[:port] of an original URL -> the folder under DIR that mirrors it
    std::map<std::string, std::string> folders;
};

// The folder a URL's path is kept under, and the path below it: "github.com" and
// "/a/b.zip" for https://github.com/a/b.zip; "127.0.0.1_8080" for a port. Fails, in one
// line naming the URL, for a host that is not a real host name or IP address, a URL
// without a file name, or a path part that is empty, "." or "..", or that holds a NUL,
// a control character or an encoded separator once decoded (mirror_place.cpp).
struct MirrorPlace
{
    std::string authority; // what a mirror rule is keyed by
    std::string folder;
    std::string path;                  // "/" + the decoded segments, joined by "/"
    std::vector<std::string> segments; // the decoded path parts, the file name last
};
Expected<MirrorPlace> mirrorPlaceOf(const std::string& url);

Expected<MirrorExportResult> exportMirror(const std::vector<const Runtime*>& runtimes,
                                          const std::filesystem::path& dir,
                                          const FetchOptions& options);

// The "mirrors" object for settings.json when DIR is served at `baseUrl`.
std::string mirrorRulesJson(const MirrorExportResult& result, const std::string& baseUrl);

} // namespace sp
