#pragma once
// UTF-16 <-> UTF-8 for the Windows detectors. Windows only.

#include <cstdio>
#include <string>
#include <string_view>
#include <windows.h>

namespace sp::win {

inline std::string toUtf8(std::wstring_view w)
{
    if (w.empty())
        return {};
    const int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), nullptr, 0,
                                      nullptr, nullptr);
    if (n <= 0)
        return {};
    std::string out(static_cast<std::size_t>(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), out.data(), n, nullptr,
                        nullptr);
    return out;
}

// Registry and SetupAPI strings may or may not carry their terminator.
inline std::string toUtf8Terminated(const wchar_t* w, std::size_t maxChars)
{
    std::size_t n = 0;
    while (n < maxChars && w[n] != L'\0')
        ++n;
    return toUtf8(std::wstring_view(w, n));
}

inline std::string hresultText(long hr)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08lX", static_cast<unsigned long>(hr));
    return buf;
}

} // namespace sp::win
