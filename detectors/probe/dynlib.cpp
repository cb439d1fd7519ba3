#include "dynlib.h"

#include <cstdlib>

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#include <link.h>
#endif

namespace probe {

#ifdef _WIN32
namespace {
std::wstring widen(const std::string& s)
{
    if (s.empty())
        return {};
    const int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
    std::wstring w(static_cast<size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
    return w;
}

std::string narrow(const std::wstring& w)
{
    if (w.empty())
        return {};
    const int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), nullptr, 0,
                                      nullptr, nullptr);
    std::string s(static_cast<size_t>(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), s.data(), n, nullptr,
                        nullptr);
    return s;
}
} // namespace
#endif

DynLib::~DynLib()
{
    // Deliberately not unloaded: some vendor runtimes crash in their unload
    // handlers, and the probe process exits right after anyway.
}

bool DynLib::open(const std::vector<std::string>& candidates)
{
    std::string firstError;
    for (const auto& c : candidates) {
#ifdef _WIN32
        // An old driver must not pop up a "missing DLL" dialog in a helper process.
        SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
        // Absolute paths search the DLL's own folder for its dependencies.
        const bool absolute = c.find('\\') != std::string::npos || c.find('/') != std::string::npos;
        HMODULE h =
            LoadLibraryExW(widen(c).c_str(), nullptr, absolute ? LOAD_WITH_ALTERED_SEARCH_PATH : 0);
        if (h) {
            m_handle = reinterpret_cast<void*>(h);
            wchar_t buf[MAX_PATH * 2] = {};
            const DWORD n = GetModuleFileNameW(h, buf, MAX_PATH * 2);
            m_path = n ? narrow(std::wstring(buf, n)) : c;
            return true;
        }
        m_error = c + ": LoadLibraryExW error " + std::to_string(GetLastError());
        if (firstError.empty())
            firstError = m_error;
#else
        void* h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (h) {
            m_handle = h;
            m_path = c;
            // Report the file that was really loaded, not the soname asked for.
            link_map* map = nullptr;
            if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && map->l_name[0])
                m_path = map->l_name;
            return true;
        }
        const char* e = dlerror();
        m_error = e ? e : (c + ": dlopen failed");
        if (firstError.empty())
            firstError = m_error;
#endif
    }
    // The first candidate is the preferred name (or the user's override); say so
    // and how many others were tried.
    if (candidates.size() > 1)
        m_error = firstError + " (and " + std::to_string(candidates.size() - 1) + " other names)";
    return false;
}

void* DynLib::symbol(const char* name) const
{
    if (!m_handle)
        return nullptr;
#ifdef _WIN32
    return reinterpret_cast<void*>(GetProcAddress(reinterpret_cast<HMODULE>(m_handle), name));
#else
    return dlsym(m_handle, name);
#endif
}

std::string envValue(const char* name)
{
#ifdef _WIN32
    const std::wstring wname = widen(name);
    const DWORD n = GetEnvironmentVariableW(wname.c_str(), nullptr, 0);
    if (n == 0)
        return {};
    std::wstring w(n, L'\0');
    const DWORD got = GetEnvironmentVariableW(wname.c_str(), w.data(), n);
    w.resize(got);
    return narrow(w);
#else
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
#endif
}

void unsetEnv(const char* name)
{
#ifdef _WIN32
    SetEnvironmentVariableW(widen(name).c_str(), nullptr);
    // The C runtime keeps its own copy of the environment.
    _putenv_s(name, "");
#else
    unsetenv(name);
#endif
}

#ifdef _WIN32
std::string systemDirectory()
{
    wchar_t buf[MAX_PATH] = {};
    const UINT n = GetSystemDirectoryW(buf, MAX_PATH);
    return narrow(std::wstring(buf, n));
}

std::vector<std::string> listDirectory(const std::string& dir)
{
    std::vector<std::string> names;
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(widen(dir + "\\*").c_str(), &fd);
    if (h == INVALID_HANDLE_VALUE)
        return names;
    do {
        names.push_back(narrow(fd.cFileName));
    } while (FindNextFileW(h, &fd));
    FindClose(h);
    return names;
}
#endif

} // namespace probe
