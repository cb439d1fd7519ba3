#pragma once
// A source runtime pinned to a commit (catalog format "git"), checked out with
// libgit2 into an installer's staging folder. The folder already holds the owner
// marker, so the repository is initialised in place and fetched rather than cloned
// (a clone needs an empty folder). Every branch and tag is fetched, because a plain
// git server cannot be asked for one commit by id; the pinned commit is then checked
// out detached and HEAD is compared with it. `.git` stays: SD.Next expects a work tree.
// The whole history is fetched: libgit2 1.5 (Debian 12) cannot fetch shallow.

#include "core/cancel_token.h"
#include "core/expected.h"
#include "installers/downloader.h"
#include "installers/extract_writer.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace sp {

// git_libgit2_init / git_libgit2_shutdown for the lifetime of one object. libgit2
// counts the calls, so nested guards are fine.
class GitLibrary
{
public:
    GitLibrary();
    ~GitLibrary();
    GitLibrary(const GitLibrary&) = delete;
    GitLibrary& operator=(const GitLibrary&) = delete;
};

struct GitCheckoutRequest
{
    std::vector<std::string> urls; // tried in order (mirrors, then the catalog URL)
    std::string remoteUrl;         // what `origin` names in the work tree's config
    std::string commit;            // 40 lower-case hex digits
    std::filesystem::path dir;     // an existing folder; .git goes inside it
    std::string proxy;             // empty: git's own configuration and the environment
    ProgressFn progress;           // transfer progress, from the fetching thread
    CancelToken cancel;            // polled by libgit2's progress callbacks
};

struct GitCheckoutResult
{
    std::string url;    // the URL that served the commit
    std::string commit; // HEAD after the checkout: equals the request's commit
    std::uint64_t receivedBytes = 0;
};

Expected<GitCheckoutResult> gitCheckout(const GitCheckoutRequest& request);

// What a receipt records of a checked-out work tree: files, symlinks and folders,
// '/'-separated and sorted, without `.git/` (git's own bookkeeping changes whenever
// git runs, so hashing it would make `verify` fail for no reason) and without the
// owner marker.
Expected<std::vector<FileRecord>> workTreeRecords(const std::filesystem::path& dir);

} // namespace sp
