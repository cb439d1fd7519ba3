// catalog check for git artifacts (installers/artifact_check.h): the remote's refs
// over libgit2 (what `git ls-remote` lists), and with --deep every branch and tag
// fetched into a temporary bare repository, since a plain git server cannot be asked
// about one commit by id. libgit2 (1.5) has no timeout and cannot be interrupted, so on
// POSIX the check runs in a forked child with a deadline: a host that accepts and never
// answers costs the deadline, and Ctrl-C stops the child and then this process.

#include "core/catalog/feed/held_folder.h"
#include "core/ownership.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "installers/artifact_check.h"
#include "installers/git_checkout.h"

#include <QDir>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <functional>
#include <git2.h>
#include <map>
#include <memory>

#ifndef _WIN32
#include <cerrno>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#endif

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
    // A held folder (core/catalog/feed/held_folder.h): when the deadline kills this
    // child mid-fetch, the next run removes what it left.
    feed::removeAbandonedFeedTemps();
    auto tmp = feed::createHeldFolderIn(toPath(QDir::tempPath()), feed::kFeedTempPrefix,
                                        "a git history being checked");
    if (!tmp)
        return tmp.error();
    struct Remove
    {
        const std::filesystem::path& dir;
        ~Remove() { (void)ownership::removeOwned(dir); }
    } remove{*tmp};
    git_repository* rawRepo = nullptr;
    if (git_repository_init(&rawRepo, paths::toUtf8(*tmp / "repo.git").c_str(), 1) != 0)
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

namespace {

ArtifactCheck checkHere(const std::string& runtime, const Artifact& a,
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

#ifndef _WIN32

volatile std::sig_atomic_t g_interrupted = 0;

void onGitCheckInterrupt(int sig)
{
    g_interrupted = sig;
}

// SIGINT and SIGTERM set g_interrupted while the child runs (unless they were ignored,
// as in a background job); the previous handlers come back on destruction.
class InterruptGuard
{
public:
    InterruptGuard()
    {
        g_interrupted = 0;
        struct sigaction act
        {};
        act.sa_handler = onGitCheckInterrupt;
        sigemptyset(&act.sa_mask);
        for (int i = 0; i < 2; ++i) {
            sigaction(kSignals[i], nullptr, &m_old[i]);
            if (m_old[i].sa_handler != SIG_IGN)
                sigaction(kSignals[i], &act, nullptr);
        }
    }
    ~InterruptGuard()
    {
        for (int i = 0; i < 2; ++i)
            sigaction(kSignals[i], &m_old[i], nullptr);
    }
    static constexpr int kSignals[2] = {SIGINT, SIGTERM};

private:
    struct sigaction m_old[2]{};
};

// In the child: the check, written to `fd` as one verdict byte and the detail.
[[noreturn]] void runChild(int fd, pid_t parent, const std::function<ArtifactCheck()>& work)
{
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); // never outlives the CLI, however it ends
#endif
    if (getppid() != parent)
        _exit(1);
    const ArtifactCheck c = work();
    std::string bytes(1, static_cast<char>('0' + static_cast<int>(c.verdict)));
    bytes += c.detail;
    for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
        if (n <= 0)
            _exit(1);
        at += static_cast<std::size_t>(n);
    }
    _exit(0);
}

// Reads the child's answer until it closes the pipe, the deadline passes or a signal
// came. An empty string: no answer.
std::string readAnswer(int fd, std::chrono::steady_clock::time_point until)
{
    std::string answer;
    char buf[4096];
    while (!g_interrupted && std::chrono::steady_clock::now() < until) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0)
            continue;
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n == 0)
            return answer.empty() ? std::string("\x01") : answer;
        if (n < 0 && errno != EINTR)
            break;
        if (n > 0 && answer.size() < (1u << 16))
            answer.append(buf, static_cast<std::size_t>(n));
    }
    return {};
}

ArtifactCheck inChild(ArtifactCheck out, std::chrono::seconds deadline,
                      const std::function<ArtifactCheck()>& work)
{
    int fds[2];
    if (::pipe(fds) != 0) {
        out.detail = std::string("cannot start the git check: ") + std::strerror(errno);
        return out;
    }
    const InterruptGuard guard;
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0) {
        ::close(fds[0]);
        runChild(fds[1], parent, work);
    }
    ::close(fds[1]);
    const std::string answer =
        pid > 0 ? readAnswer(fds[0], std::chrono::steady_clock::now() + deadline) : std::string();
    ::close(fds[0]);
    if (pid > 0) {
        ::kill(pid, SIGKILL); // gone already when it answered
        while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    if (const int sig = g_interrupted) { // Ctrl-C: stop here, as the signal means
        std::signal(sig, SIG_DFL);
        ::raise(sig);
    }
    if (answer.size() >= 1 && answer[0] >= '0' && answer[0] <= '2') {
        out.verdict = static_cast<CheckVerdict>(answer[0] - '0');
        out.detail = answer.substr(1);
    } else {
        out.detail = pid < 0 ? std::string("cannot start the git check: ") + std::strerror(errno)
                     : answer.empty() ? "no answer within " + std::to_string(deadline.count()) +
                                            " s; stopped (--timeout S gives it longer)"
                                      : std::string("the git check ended without an answer");
    }
    return out;
}

#endif

} // namespace

ArtifactCheck checkGitArtifact(const std::string& runtime, const Artifact& a,
                               const ArtifactCheckOptions& o)
{
#ifdef _WIN32
    return checkHere(runtime, a, o); // no fork; the CLI's Ctrl-C still ends the process
#else
    const auto deadline =
        o.gitDeadline.count() > 0 ? o.gitDeadline : std::chrono::seconds(o.deep ? 900 : 120);
    return inChild({runtime, a.url, CheckVerdict::Failed, {}}, deadline,
                   [&] { return checkHere(runtime, a, o); });
#endif
}

} // namespace sp
