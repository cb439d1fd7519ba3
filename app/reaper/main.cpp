// stackpilot-run: see reaper.h.
#include "app/reaper/reaper.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#ifdef _WIN32
#include <windows.h>
// shellapi.h needs windows.h first.
#include <shellapi.h>

namespace {
// Arguments as UTF-8: the narrow argv of a Windows program is in the ANSI code page.
std::vector<std::string> utf8Arguments()
{
    std::vector<std::string> out;
    int n = 0;
    wchar_t** w = CommandLineToArgvW(GetCommandLineW(), &n);
    for (int i = 1; w && i < n; ++i) {
        const int len = WideCharToMultiByte(CP_UTF8, 0, w[i], -1, nullptr, 0, nullptr, nullptr);
        std::string s(static_cast<std::size_t>(len > 0 ? len - 1 : 0), '\0');
        if (len > 1)
            WideCharToMultiByte(CP_UTF8, 0, w[i], -1, s.data(), len, nullptr, nullptr);
        out.push_back(std::move(s));
    }
    LocalFree(w);
    return out;
}
} // namespace
#endif

int main(int argc, char** argv)
{
#ifdef _WIN32
    (void)argc;
    (void)argv;
    const std::vector<std::string> args = utf8Arguments();
#else
    const std::vector<std::string> args(argv + 1, argv + argc);
#endif
    sp::reaper::Options options;
    std::string error;
    if (!sp::reaper::parseOptions(args, options, error)) {
        std::fprintf(stderr, "stackpilot-run: %s\n", error.c_str());
        return 2;
    }
#ifndef _WIN32
    // Before any thread or child: the workload inherits them byte for byte.
    for (const auto& [name, value] : options.rawEnv)
        ::setenv(name.c_str(), value.c_str(), 1);
#endif
    return sp::reaper::runContained(options);
}
