// The window's libcurl, loaded on its first use (the first download) rather than at
// start-up. libcurl brings about 25 shared libraries (TLS, Kerberos, LDAP, RTMP, SSH,
// IDN, HTTP/2...) whose loading and symbol binding cost more than everything else the
// window does before its first frame (docs/ARCHITECTURE.md, "Start-up"). These are the
// only curl functions StackPilot calls (installers/downloader.cpp, curl_transfer.cpp);
// defined here, in the executable, they leave the linker (--as-needed) nothing to take
// from libcurl.so, so it is not loaded until this file dlopens it. The CLI links libcurl
// as usual.

#define CURL_DISABLE_TYPECHECK // the type-checking macros would rename the definitions
#include <cstdarg>
#include <curl/curl.h>
#include <dlfcn.h>
#include <string>

namespace {

struct Curl
{
    void* handle = nullptr;
    std::string error;
    CURLcode (*globalInit)(long) = nullptr;
    CURL* (*easyInit)() = nullptr;
    CURLcode (*setopt)(CURL*, CURLoption, ...) = nullptr;
    CURLcode (*perform)(CURL*) = nullptr;
    CURLcode (*getinfo)(CURL*, CURLINFO, ...) = nullptr;
    const char* (*strerror)(CURLcode) = nullptr;
    void (*cleanup)(CURL*) = nullptr;
    curl_slist* (*slistAppend)(curl_slist*, const char*) = nullptr;
    void (*slistFreeAll)(curl_slist*) = nullptr;

    template <class F> void bind(F& f, const char* name)
    {
        f = reinterpret_cast<F>(dlsym(handle, name));
        if (!f && error.empty())
            error = std::string("libcurl.so.4 has no ") + name;
    }

    Curl()
    {
        handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* why = dlerror();
            error = why ? why : "libcurl.so.4 could not be loaded";
            return;
        }
        bind(globalInit, "curl_global_init");
        bind(easyInit, "curl_easy_init");
        bind(setopt, "curl_easy_setopt");
        bind(perform, "curl_easy_perform");
        bind(getinfo, "curl_easy_getinfo");
        bind(strerror, "curl_easy_strerror");
        bind(cleanup, "curl_easy_cleanup");
        bind(slistAppend, "curl_slist_append");
        bind(slistFreeAll, "curl_slist_free_all");
    }
    bool ok() const { return error.empty(); }
};

const Curl& curl()
{
    static const Curl loaded; // thread-safe, once
    return loaded;
}

} // namespace

extern "C" {

CURLcode curl_global_init(long flags)
{
    return curl().ok() ? curl().globalInit(flags) : CURLE_FAILED_INIT;
}

CURL* curl_easy_init()
{
    return curl().ok() ? curl().easyInit() : nullptr;
}

// Each option takes one argument whose type its number tells (curl.h: CURLOPTTYPE_*),
// read here as libcurl itself reads it.
CURLcode curl_easy_setopt(CURL* h, CURLoption option, ...)
{
    if (!curl().ok())
        return CURLE_FAILED_INIT;
    va_list ap;
    va_start(ap, option);
    CURLcode rc;
    if (option < CURLOPTTYPE_OBJECTPOINT)
        rc = curl().setopt(h, option, va_arg(ap, long));
    else if (option < CURLOPTTYPE_FUNCTIONPOINT)
        rc = curl().setopt(h, option, va_arg(ap, void*));
    else if (option < CURLOPTTYPE_OFF_T)
        rc = curl().setopt(h, option, va_arg(ap, void (*)()));
    else if (option < CURLOPTTYPE_BLOB)
        rc = curl().setopt(h, option, va_arg(ap, curl_off_t));
    else
        rc = curl().setopt(h, option, va_arg(ap, void*));
    va_end(ap);
    return rc;
}

CURLcode curl_easy_perform(CURL* h)
{
    return curl().ok() ? curl().perform(h) : CURLE_FAILED_INIT;
}

// Every CURLINFO_* takes a pointer to where the value goes.
CURLcode curl_easy_getinfo(CURL* h, CURLINFO info, ...)
{
    if (!curl().ok())
        return CURLE_FAILED_INIT;
    va_list ap;
    va_start(ap, info);
    void* out = va_arg(ap, void*);
    va_end(ap);
    return curl().getinfo(h, info, out);
}

const char* curl_easy_strerror(CURLcode code)
{
    return curl().ok() ? curl().strerror(code) : curl().error.c_str();
}

void curl_easy_cleanup(CURL* h)
{
    if (curl().ok())
        curl().cleanup(h);
}

// A request's own headers (a token for its host: DownloaderOptions::bearer).
curl_slist* curl_slist_append(curl_slist* list, const char* text)
{
    return curl().ok() ? curl().slistAppend(list, text) : nullptr;
}

void curl_slist_free_all(curl_slist* list)
{
    if (curl().ok() && list)
        curl().slistFreeAll(list);
}

} // extern "C"
