// A workload for test_containment under Wine: a process that starts a grandchild.
//   tree_child PIDFILE [--exit-code N] [--ignore-break] [--kill-parent]
//       starts a grandchild (a copy of itself that sleeps), writes "PID GRANDCHILD_PID"
//       to PIDFILE, then sleeps, or exits with N at once (the grandchild stays).
//       --kill-parent: once PIDFILE.go exists, it kills its parent (the helper), as a
//       hostile workload would, then sleeps.
//   tree_child --launch PIDFILE GRACE_MS   a stand-in launcher: starts stackpilot-run
//       (next to itself) with a pipe as its stdin that only this process can write,
//       running "tree_child PIDFILE --ignore-break"; then sleeps.
//   tree_child --grandchild [--ignore-break]   sleeps ten minutes.
//   tree_child --crash                         dies of an access violation.
//   tree_child --args-out FILE ARGS...         writes its ARGS to FILE, one a line.
// --ignore-break: CTRL_BREAK_EVENT is ignored, so only the grace-period kill ends it.
// shellapi.h needs windows.h first.
// clang-format off
#include <windows.h>
#include <shellapi.h>
#include <tlhelp32.h>
// clang-format on

#include <cstdio>
#include <string>
#include <vector>

namespace {

std::string utf8(const wchar_t* w)
{
    const int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, nullptr, 0, nullptr, nullptr);
    std::string s(static_cast<std::size_t>(n > 1 ? n - 1 : 0), '\0');
    if (n > 1)
        WideCharToMultiByte(CP_UTF8, 0, w, -1, s.data(), n, nullptr, nullptr);
    return s;
}

std::vector<std::wstring> arguments()
{
    int n = 0;
    wchar_t** w = CommandLineToArgvW(GetCommandLineW(), &n);
    std::vector<std::wstring> out(w, w + (w ? n : 0));
    LocalFree(w);
    return out;
}

BOOL WINAPI ignoreBreak(DWORD)
{
    return TRUE;
}

DWORD startGrandchild(bool ignore)
{
    wchar_t self[MAX_PATH];
    GetModuleFileNameW(nullptr, self, MAX_PATH);
    std::wstring line = L"\"" + std::wstring(self) + L"\" --grandchild";
    if (ignore)
        line += L" --ignore-break";
    STARTUPINFOW si{};
    si.cb = sizeof si;
    PROCESS_INFORMATION pi{};
    if (!CreateProcessW(nullptr, line.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr, &si,
                        &pi))
        return 0;
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return pi.dwProcessId;
}

// Written whole under another name, then renamed: the test never reads half a file.
bool writeFile(const std::wstring& path, const std::string& text)
{
    const std::wstring tmp = path + L".tmp";
    FILE* f = _wfopen(tmp.c_str(), L"wb");
    if (!f)
        return false;
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    return MoveFileExW(tmp.c_str(), path.c_str(), MOVEFILE_REPLACE_EXISTING) != 0;
}

int crash()
{
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);
    volatile int* nowhere = nullptr;
    *nowhere = 1;
    return 0;
}

int argsOut(const std::vector<std::wstring>& args)
{
    std::string text;
    for (std::size_t i = 3; i < args.size(); ++i)
        text += utf8(args[i].c_str()) + "\n";
    return writeFile(args[2], text) ? 0 : 3;
}

std::wstring ownFolder()
{
    wchar_t self[MAX_PATH];
    const DWORD n = GetModuleFileNameW(nullptr, self, MAX_PATH);
    const std::wstring path(self, n);
    return path.substr(0, path.find_last_of(L"\\/") + 1);
}

// Waits for PIDFILE.go, then terminates this process's parent.
void killParent(const std::wstring& pidFile)
{
    const std::wstring go = pidFile + L".go";
    for (int i = 0; i < 200 && GetFileAttributesW(go.c_str()) == INVALID_FILE_ATTRIBUTES; ++i)
        Sleep(50);
    const HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    PROCESSENTRY32W e{};
    e.dwSize = sizeof e;
    DWORD parent = 0;
    for (BOOL more = Process32FirstW(snap, &e); more; more = Process32NextW(snap, &e))
        if (e.th32ProcessID == GetCurrentProcessId())
            parent = e.th32ParentProcessID;
    CloseHandle(snap);
    const HANDLE h = OpenProcess(PROCESS_TERMINATE, FALSE, parent);
    if (h) {
        TerminateProcess(h, 9);
        CloseHandle(h);
    }
}

// The stand-in launcher: the helper's stdin is a pipe whose write end only we hold.
int launch(const std::vector<std::wstring>& args)
{
    SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, TRUE};
    HANDLE readEnd = nullptr, writeEnd = nullptr;
    if (!CreatePipe(&readEnd, &writeEnd, &sa, 0))
        return 4;
    SetHandleInformation(writeEnd, HANDLE_FLAG_INHERIT, 0);
    const std::wstring dir = ownFolder();
    std::wstring line = L"\"" + dir + L"stackpilot-run.exe\" --grace-ms " + args[3] + L" -- \"" +
                        dir + L"tree_child.exe\" \"" + args[2] + L"\" --ignore-break";
    STARTUPINFOW si{};
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = readEnd;
    si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    PROCESS_INFORMATION pi{};
    if (!CreateProcessW(nullptr, line.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si,
                        &pi))
        return 5;
    CloseHandle(readEnd);
    Sleep(600000);
    return 0;
}

} // namespace

int main()
{
    const std::vector<std::wstring> args = arguments();
    bool ignore = false;
    int exitCode = -1;
    for (std::size_t i = 1; i < args.size(); ++i) {
        ignore = ignore || args[i] == L"--ignore-break";
        if (args[i] == L"--exit-code" && i + 1 < args.size())
            exitCode = _wtoi(args[i + 1].c_str());
    }
    if (ignore)
        SetConsoleCtrlHandler(ignoreBreak, TRUE);
    if (args.size() >= 2 && args[1] == L"--crash")
        return crash();
    if (args.size() >= 3 && args[1] == L"--args-out")
        return argsOut(args);
    if (args.size() >= 4 && args[1] == L"--launch")
        return launch(args);
    if (args.size() < 2 || args[1] != L"--grandchild") {
        if (args.size() < 2)
            return 2;
        const DWORD grandchild = startGrandchild(ignore);
        const std::string pids =
            std::to_string(GetCurrentProcessId()) + " " + std::to_string(grandchild) + "\n";
        if (grandchild == 0 || !writeFile(args[1], pids))
            return 3;
        if (exitCode >= 0)
            return exitCode;
        for (const std::wstring& a : args)
            if (a == L"--kill-parent")
                killParent(args[1]);
    }
    Sleep(600000);
    return 0;
}
