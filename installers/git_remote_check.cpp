// catalog check for git artifacts (installers/artifact_check.h): the remote's refs
// over libgit2 (what `git ls-remote` lists), and with --deep every branch and tag
// fetched into a temporary bare repository, since a plain git server cannot be asked
// about one commit by id.

#include "core/paths.h"
#include "installers/artifact_check.h"
#include "installers/git_checkout.h"

#include <QTemporaryDir>
#include <algorithm>
#include <git2.h>
#include <map>
#include <memory>

namespace sp {

namespace {

std::string gitError()
{
    const git_error* e = git_error_last();
    std::string m = e && e->message ? e->message : "unknown libgit2 error";
    std::replace(m.begin(), m.end(), '\n', ' ');
    return m;
}

struct RemoteFree
{
    void operator()(git_remote* r) const { git_remote_free(r); }
};
struct RepoFree
{
    void operator()(git_repository* r) const { git_repository_free(r); }
};

git_proxy_options proxyFor(const ArtifactCheckOptions& o)
{
    git_proxy_options p = GIT_PROXY_OPTIONS_INIT;
    p.type = GIT_PROXY_AUTO;
    if (o.downloader.proxy && !o.downloader.proxy->empty()) {
        p.type = GIT_PROXY_SPECIFIED;
        p.url = o.downloader.proxy->c_str();
    }
    return p;
}

// ref name -> the commit it names (an annotated tag's "^{}" entry wins: it is peeled).
Expected<std::map<std::string, std::string>> listRefs(const std::string& url,
                                                      const ArtifactCheckOptions& o)
{
    git_remote* raw = nullptr;
    if (git_remote_create_detached(&raw, url.c_str()) != 0)
        return Error::runtime(gitError());
    std::unique_ptr<git_remote, RemoteFree> remote(raw);
    git_remote_callbacks cb = GIT_REMOTE_CALLBACKS_INIT;
    const git_proxy_options proxy = proxyFor(o);
    if (git_remote_connect(remote.get(), GIT_DIRECTION_FETCH, &cb, &proxy, nullptr) != 0)
        return Error::runtime("cannot list " + url + ": " + gitError());
    const git_remote_head** heads = nullptr;
    size_t n = 0;
    if (git_remote_ls(&heads, &n, remote.get()) != 0)
        return Error::runtime("cannot list " + url + ": " + gitError());
    std::map<std::string, std::string> refs;
    for (size_t i = 0; i < n; ++i) {
        std::string name = heads[i]->name;
        char hex[GIT_OID_HEXSZ + 1] = {};
        git_oid_tostr(hex, sizeof hex, &heads[i]->oid);
        const bool peeled = name.size() > 3 && name.compare(name.size() - 3, 3, "^{}") == 0;
        if (peeled)
            name.erase(name.size() - 3);
        if (peeled || !refs.count(name))
            refs[name] = hex;
    }
    return refs;
}

// Fetches every branch and tag of `url` into a temporary bare repository and looks
// the commit up there.
Expected<bool> fetchHasCommit(const std::string& url, const std::string& commit,
                              const ArtifactCheckOptions& o)
{
    QTemporaryDir tmp;
    if (!tmp.isValid())
        return Error::runtime("no temporary folder: " + tmp.errorString().toStdString());
    git_repository* rawRepo = nullptr;
    if (git_repository_init(&rawRepo, tmp.path().toUtf8().constData(), 1) != 0)
        return Error::runtime(gitError());
    std::unique_ptr<git_repository, RepoFree> repo(rawRepo);
    git_remote* raw = nullptr;
    if (git_remote_create_anonymous(&raw, repo.get(), url.c_str()) != 0)
        return Error::runtime(gitError());
    std::unique_ptr<git_remote, RemoteFree> remote(raw);
    git_fetch_options opts = GIT_FETCH_OPTIONS_INIT;
    opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
    opts.proxy_opts = proxyFor(o);
    char heads[] = "+refs/heads/*:refs/heads/*";
    char tags[] = "+refs/tags/*:refs/tags/*";
    char* specs[] = {heads, tags};
    const git_strarray refspecs{specs, 2};
    if (git_remote_fetch(remote.get(), &refspecs, &opts, nullptr) != 0)
        return Error::runtime("cannot fetch " + url + ": " + gitError());
    git_oid oid;
    if (git_oid_fromstr(&oid, commit.c_str()) != 0)
        return false;
    git_commit* c = nullptr;
    if (git_commit_lookup(&c, repo.get(), &oid) != 0)
        return false;
    git_commit_free(c);
    return true;
}

} // namespace

ArtifactCheck checkGitArtifact(const std::string& runtime, const Artifact& a,
                               const ArtifactCheckOptions& o)
{
    ArtifactCheck out{runtime, a.url, CheckVerdict::Failed, {}};
    if (!a.commit) {
        out.detail = "no commit in the catalog";
        return out;
    }
    const std::string& commit = *a.commit;
    GitLibrary git;
    auto refs = listRefs(a.url, o);
    if (!refs) {
        out.detail = refs.error().message;
        return out;
    }
    if (!a.tag.empty())
        if (auto t = refs->find("refs/tags/" + a.tag); t != refs->end() && t->second != commit) {
            out.detail =
                "tag " + a.tag + " points at " + t->second + ", the catalog says " + commit;
            return out;
        }
    // Named the way a reader looks for it: the catalog's tag, a tag, a branch, HEAD.
    const std::string tagRef = "refs/tags/" + a.tag;
    for (const char* prefix : {tagRef.c_str(), "refs/tags/", "refs/heads/", ""})
        for (const auto& [name, oid] : *refs)
            if (oid == commit && name.rfind(prefix, 0) == 0) {
                out.verdict = CheckVerdict::Ok;
                out.detail = "commit " + commit + " is " + name;
                return out;
            }
    if (!o.deep) {
        out.verdict = CheckVerdict::Unchecked;
        out.detail = "reachable; commit " + commit +
                     " is no branch or tag tip (--deep fetches the history to look)";
        return out;
    }
    auto has = fetchHasCommit(a.url, commit, o);
    if (!has) {
        out.detail = has.error().message;
        return out;
    }
    out.verdict = *has ? CheckVerdict::Ok : CheckVerdict::Failed;
    out.detail = "commit " + commit + (*has ? " is in the history" : " is not in the repository");
    return out;
}

} // namespace sp
