#include "installers/git_checkout.h"

#include "core/ownership.h"
#include "core/paths.h"
#include "installers/sha256.h"

#include <algorithm>
#include <git2.h>
#include <memory>

namespace fs = std::filesystem;

namespace sp {

namespace {

template <typename T, void (*Free)(T*)> struct GitFree
{
    void operator()(T* p) const { Free(p); }
};
using RepoPtr = std::unique_ptr<git_repository, GitFree<git_repository, git_repository_free>>;
using RemotePtr = std::unique_ptr<git_remote, GitFree<git_remote, git_remote_free>>;
using CommitPtr = std::unique_ptr<git_commit, GitFree<git_commit, git_commit_free>>;

std::string lastGitError()
{
    const git_error* e = git_error_last();
    std::string m = e && e->message ? e->message : "unknown libgit2 error";
    // libgit2 messages may carry a newline; the installer's errors are one line.
    std::replace(m.begin(), m.end(), '\n', ' ');
    return m;
}

// What kind of failure libgit2 reported last: its network and TLS classes.
Cause lastGitCause()
{
    const git_error* e = git_error_last();
    if (e && e->klass == GIT_ERROR_NET)
        return Cause::Network;
    if (e && e->klass == GIT_ERROR_SSL)
        return Cause::Tls;
    return Cause::Unknown;
}

struct FetchContext
{
    const GitCheckoutRequest* request = nullptr;
    std::string url;
    std::uint64_t receivedBytes = 0;
};

// Both callbacks poll the cancel token: returning non-zero makes libgit2 stop the
// fetch and return that value.
int onTransfer(const git_indexer_progress* stats, void* payload)
{
    auto* ctx = static_cast<FetchContext*>(payload);
    if (ctx->request->cancel.cancelled())
        return GIT_EUSER;
    ctx->receivedBytes = stats->received_bytes;
    if (ctx->request->progress) {
        DownloadProgress p;
        p.url = ctx->url;
        p.received = stats->received_bytes;
        ctx->request->progress(p);
    }
    return ctx->request->cancel.cancelled() ? GIT_EUSER : 0;
}

int onSideband(const char*, int, void* payload)
{
    return static_cast<FetchContext*>(payload)->request->cancel.cancelled() ? GIT_EUSER : 0;
}

// Fetches every branch and tag of `url` into `repo`.
Expected<void> fetchFrom(git_repository* repo, FetchContext& ctx)
{
    git_remote* raw = nullptr;
    if (git_remote_create_anonymous(&raw, repo, ctx.url.c_str()) != 0)
        return Error::runtime(ctx.url + ": " + lastGitError());
    RemotePtr remote(raw);
    git_fetch_options opts = GIT_FETCH_OPTIONS_INIT;
    opts.callbacks.transfer_progress = onTransfer;
    opts.callbacks.sideband_progress = onSideband;
    opts.callbacks.payload = &ctx;
    opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
    opts.proxy_opts.type = GIT_PROXY_AUTO;
    if (!ctx.request->proxy.empty()) {
        opts.proxy_opts.type = GIT_PROXY_SPECIFIED;
        opts.proxy_opts.url = ctx.request->proxy.c_str();
    }
    char heads[] = "+refs/heads/*:refs/remotes/origin/*";
    char tags[] = "+refs/tags/*:refs/tags/*";
    char* specs[] = {heads, tags};
    const git_strarray refspecs{specs, 2};
    const int rc = git_remote_fetch(remote.get(), &refspecs, &opts, nullptr);
    if (ctx.request->cancel.cancelled())
        return Error::cancelled("fetching " + ctx.url + " cancelled");
    if (rc != 0)
        return Error::runtime("cannot fetch " + ctx.url + ": " + lastGitError())
            .withCause(lastGitCause());
    return {};
}

// Checks `oid` out detached, then proves HEAD is that commit.
Expected<void> checkoutDetached(git_repository* repo, const git_oid& oid, const std::string& commit)
{
    git_commit* raw = nullptr;
    if (git_commit_lookup(&raw, repo, &oid) != 0)
        return Error::runtime("commit " + commit + " is not in the fetched repository");
    CommitPtr c(raw);
    git_checkout_options opts = GIT_CHECKOUT_OPTIONS_INIT;
    opts.checkout_strategy = GIT_CHECKOUT_FORCE;
    if (git_checkout_tree(repo, reinterpret_cast<const git_object*>(c.get()), &opts) != 0 ||
        git_repository_set_head_detached(repo, &oid) != 0)
        return Error::runtime("cannot check out commit " + commit + ": " + lastGitError());
    git_oid head;
    if (git_reference_name_to_id(&head, repo, "HEAD") != 0 || git_oid_equal(&head, &oid) == 0)
        return Error::runtime("HEAD is not commit " + commit + " after the checkout");
    return {};
}

bool hasCommit(git_repository* repo, const git_oid& oid)
{
    git_commit* raw = nullptr;
    if (git_commit_lookup(&raw, repo, &oid) != 0)
        return false;
    git_commit_free(raw);
    return true;
}

// Tries each URL until one has the commit; every reason joined on one line.
Expected<std::string> fetchCommit(git_repository* repo, const GitCheckoutRequest& rq,
                                  const git_oid& oid, std::uint64_t& receivedBytes)
{
    std::string reasons;
    Cause cause = Cause::Unknown; // a URL without the commit says more than one unreachable
    for (const auto& url : rq.urls) {
        FetchContext ctx{&rq, url, 0};
        auto r = fetchFrom(repo, ctx);
        receivedBytes += ctx.receivedBytes;
        if (!r && r.error().code == ErrorCode::Cancelled)
            return r.error();
        if (r && hasCommit(repo, oid))
            return url;
        reasons += (reasons.empty() ? "" : "; ") +
                   (r ? "commit " + rq.commit + " not found in " + url : r.error().message);
        if (cause != Cause::NotFound)
            cause = r ? Cause::NotFound : r.error().cause;
    }
    return Error::runtime(reasons.empty() ? std::string("no URL to fetch from") : reasons)
        .withCause(cause);
}

} // namespace

GitLibrary::GitLibrary()
{
    git_libgit2_init();
}

GitLibrary::~GitLibrary()
{
    git_libgit2_shutdown();
}

Expected<GitCheckoutResult> gitCheckout(const GitCheckoutRequest& rq)
{
    GitLibrary library;
    git_oid oid;
    if (rq.commit.size() != GIT_OID_HEXSZ || git_oid_fromstr(&oid, rq.commit.c_str()) != 0)
        return Error::invalid("'" + rq.commit + "' is not a 40-hex commit id");
    git_repository* raw = nullptr;
    if (git_repository_init(&raw, paths::toUtf8(rq.dir).c_str(), 0) != 0)
        return Error::runtime("cannot create a git repository in " + paths::toUtf8(rq.dir) + ": " +
                              lastGitError());
    RepoPtr repo(raw);
    GitCheckoutResult result;
    auto url = fetchCommit(repo.get(), rq, oid, result.receivedBytes);
    if (!url)
        return url.error();
    result.url = *url;
    if (auto r = checkoutDetached(repo.get(), oid, rq.commit); !r)
        return r.error();
    // `origin` names the catalog URL, so `git pull` in the work tree (SD.Next's
    // updater) goes where the pin came from, not to a mirror.
    git_remote* origin = nullptr;
    if (git_remote_create(&origin, repo.get(), "origin", rq.remoteUrl.c_str()) == 0)
        git_remote_free(origin);
    result.commit = rq.commit;
    return result;
}

Expected<std::vector<FileRecord>> workTreeRecords(const fs::path& dir)
{
    std::vector<FileRecord> records;
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const fs::path rel = it->path().lexically_relative(dir);
        const std::string name = paths::toUtf8(rel.generic_u8string());
        if (it.depth() == 0 && (name == ".git" || name == ownership::markerName())) {
            it.disable_recursion_pending();
            continue;
        }
        FileRecord rec;
        rec.path = name;
        const auto st = it->symlink_status(ec);
        if (fs::is_symlink(st)) {
            rec.type = FileRecord::Type::Symlink;
            rec.target = paths::toUtf8(fs::read_symlink(it->path(), ec));
        } else if (fs::is_directory(st)) {
            rec.type = FileRecord::Type::Directory;
        } else {
            auto sha = Sha256::ofFile(it->path());
            if (!sha)
                return sha.error();
            rec.sha256 = *sha;
            rec.size = fs::file_size(it->path(), ec);
            rec.executable = (st.permissions() & fs::perms::owner_exec) != fs::perms::none;
        }
        records.push_back(std::move(rec));
    }
    if (ec)
        return Error::runtime("cannot list " + paths::toUtf8(dir) + ": " + ec.message());
    std::sort(records.begin(), records.end(),
              [](const FileRecord& a, const FileRecord& b) { return a.path < b.path; });
    return records;
}

} // namespace sp
