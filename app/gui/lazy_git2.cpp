// The window's libgit2 (lazy_lib.h), loaded by the first catalog update or git
// checkout: with mbedTLS, Kerberos, libssh2 and PCRE it is a dozen shared libraries the
// first frame does not need. The functions of installers/git_checkout.cpp and
// git_remote_check.cpp, from the libgit2 these headers belong to.

#include "app/gui/lazy_lib.h"

#include <git2.h>

namespace {

void* git2()
{
    static void* const handle = dlopen("libgit2.so." LIBGIT2_SOVERSION, RTLD_NOW | RTLD_LOCAL);
    return handle;
}

char g_notLoaded[] = "libgit2.so." LIBGIT2_SOVERSION " could not be loaded";
const git_error g_notLoadedError = {g_notLoaded, GIT_ERROR_OS};

} // namespace

#define SP_LAZY_GIT(ret, name, params, args, fail) SP_LAZY(git2, ret, name, params, args, fail)

extern "C" {

SP_LAZY_GIT(int, git_libgit2_init, (void), (), -1)
SP_LAZY_GIT(int, git_libgit2_shutdown, (void), (), 0)
SP_LAZY_GIT(const git_error*, git_error_last, (void), (), &g_notLoadedError)
SP_LAZY_GIT(int, git_checkout_tree,
            (git_repository * repo, const git_object* treeish, const git_checkout_options* opts),
            (repo, treeish, opts), -1)
SP_LAZY_GIT(void, git_commit_free, (git_commit * commit), (commit), void())
SP_LAZY_GIT(int, git_commit_lookup, (git_commit * *commit, git_repository* repo, const git_oid* id),
            (commit, repo, id), -1)
SP_LAZY_GIT(int, git_oid_equal, (const git_oid* a, const git_oid* b), (a, b), 0)
SP_LAZY_GIT(int, git_oid_fromstr, (git_oid * out, const char* str), (out, str), -1)
SP_LAZY_GIT(char*, git_oid_tostr, (char* out, size_t n, const git_oid* id), (out, n, id), nullptr)
SP_LAZY_GIT(int, git_reference_name_to_id, (git_oid * out, git_repository* repo, const char* name),
            (out, repo, name), -1)
SP_LAZY_GIT(int, git_remote_connect,
            (git_remote * remote, git_direction direction, const git_remote_callbacks* callbacks,
             const git_proxy_options* proxy_opts, const git_strarray* custom_headers),
            (remote, direction, callbacks, proxy_opts, custom_headers), -1)
SP_LAZY_GIT(int, git_remote_create,
            (git_remote * *out, git_repository* repo, const char* name, const char* url),
            (out, repo, name, url), -1)
SP_LAZY_GIT(int, git_remote_create_anonymous,
            (git_remote * *out, git_repository* repo, const char* url), (out, repo, url), -1)
SP_LAZY_GIT(int, git_remote_create_detached, (git_remote * *out, const char* url), (out, url), -1)
SP_LAZY_GIT(int, git_remote_fetch,
            (git_remote * remote, const git_strarray* refspecs, const git_fetch_options* opts,
             const char* reflog_message),
            (remote, refspecs, opts, reflog_message), -1)
SP_LAZY_GIT(void, git_remote_free, (git_remote * remote), (remote), void())
SP_LAZY_GIT(int, git_remote_ls, (const git_remote_head*** out, size_t* size, git_remote* remote),
            (out, size, remote), -1)
SP_LAZY_GIT(void, git_repository_free, (git_repository * repo), (repo), void())
SP_LAZY_GIT(int, git_repository_init, (git_repository * *out, const char* path, unsigned is_bare),
            (out, path, is_bare), -1)
SP_LAZY_GIT(int, git_repository_set_head_detached,
            (git_repository * repo, const git_oid* committish), (repo, committish), -1)

} // extern "C"
