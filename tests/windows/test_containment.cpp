// Checks stackpilot-run.exe's containment under Wine (or Windows): the workload's
// tree dies with the helper (killed by the test or by the workload itself), with a
// terminated launcher, on "stop", on EOF, not before the tree is empty, and the
// exit status and status file say how the first process ended.
// Expects stackpilot-run.exe and tree_child.exe next to itself. One line per check;
// exits non-zero when any check fails.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <windows.h>

namespace {

int failures = 0;

void check(bool ok, const std::string& what)
{
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    std::fflush(stdout);
    if (!ok)
        ++failures;
}

std::wstring folder()
{
    wchar_t self[MAX_PATH];
    const DWORD n = GetModuleFileNameW(nullptr, self, MAX_PATH);
    std::wstring path(self, n);
    return path.substr(0, path.find_last_of(L"\\/") + 1);
}

const std::wstring dir = folder();

struct Helper
{
    PROCESS_INFORMATION pi{};
    HANDLE stdinWrite = nullptr;

    ~Helper()
    {
        if (pi.hProcess)
            TerminateProcess(pi.hProcess, 99);
        for (HANDLE h : {stdinWrite, pi.hThread, pi.hProcess})
            if (h)
                CloseHandle(h);
    }
    void closeStdin()
    {
        CloseHandle(stdinWrite);
        stdinWrite = nullptr;
    }
    bool send(const char* text)
    {
        DWORD n = 0;
        return WriteFile(stdinWrite, text, static_cast<DWORD>(std::strlen(text)), &n, nullptr);
    }
    // The exit status, or -1 while it still runs after `ms`.
    long long waitExit(DWORD ms)
    {
        DWORD code = 0;
        if (WaitForSingleObject(pi.hProcess, ms) != WAIT_OBJECT_0 ||
            !GetExitCodeProcess(pi.hProcess, &code))
            return -1;
        return code;
    }
};

// stackpilot-run.exe HELPER_ARGS -- tree_child.exe CHILD_ARGS, with a pipe as stdin.
bool startHelper(Helper& h, const std::wstring& helperArgs, const std::wstring& childArgs)
{
    SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, TRUE};
    HANDLE readEnd = nullptr;
    if (!CreatePipe(&readEnd, &h.stdinWrite, &sa, 0))
        return false;
    SetHandleInformation(h.stdinWrite, HANDLE_FLAG_INHERIT, 0);
    std::wstring line = L"\"" + dir + L"stackpilot-run.exe\" " + helperArgs + L" -- \"" + dir +
                        L"tree_child.exe\" " + childArgs;
    STARTUPINFOW si{};
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = readEnd;
    si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    const bool ok = CreateProcessW(nullptr, line.data(), nullptr, nullptr, TRUE, 0, nullptr,
                                   nullptr, &si, &h.pi);
    CloseHandle(readEnd);
    return ok;
}

std::string readText(const std::wstring& path)
{
    std::ifstream f(path.c_str(), std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

std::wstring tempPath(const std::wstring& name)
{
    const std::wstring p = dir + name;
    DeleteFileW(p.c_str());
    return p;
}

// The two PIDs tree_child wrote, waiting up to 10 s for the file.
bool readPids(const std::wstring& file, DWORD& child, DWORD& grandchild)
{
    for (int i = 0; i < 100; ++i) {
        std::istringstream s(readText(file));
        if (s >> child >> grandchild)
            return true;
        Sleep(100);
    }
    return false;
}

struct Tree
{
    HANDLE child = nullptr;
    HANDLE grandchild = nullptr;
    DWORD childPid = 0;
    DWORD grandchildPid = 0;
    ~Tree()
    {
        for (HANDLE h : {child, grandchild})
            if (h) {
                TerminateProcess(h, 98);
                CloseHandle(h);
            }
    }
};

// Wine's IsProcessInJob wants PROCESS_QUERY_INFORMATION, not just the limited right.
const DWORD kAccess = SYNCHRONIZE | PROCESS_QUERY_INFORMATION | PROCESS_TERMINATE;

bool alive(HANDLE h)
{
    return h && WaitForSingleObject(h, 0) == WAIT_TIMEOUT;
}

bool inJob(HANDLE h)
{
    BOOL result = FALSE;
    const BOOL ok = h && IsProcessInJob(h, nullptr, &result);
    if (!ok)
        std::printf("     IsProcessInJob failed: error %lu\n", GetLastError());
    return ok && result;
}

// Opens the tree a helper started; checks both are alive and inside a job.
bool openTree(const std::wstring& pidFile, Tree& t, const std::string& label)
{
    const bool pids = readPids(pidFile, t.childPid, t.grandchildPid);
    check(pids, label + ": tree_child wrote its and its grandchild's PID");
    if (!pids)
        return false;
    t.child = OpenProcess(kAccess, FALSE, t.childPid);
    t.grandchild = OpenProcess(kAccess, FALSE, t.grandchildPid);
    const bool up = alive(t.child) && alive(t.grandchild);
    check(up, label + ": child " + std::to_string(t.childPid) + " and grandchild " +
                  std::to_string(t.grandchildPid) + " alive");
    check(inJob(t.child) && inJob(t.grandchild), label + ": both are in a job object");
    return up;
}

// Both gone within `ms`; the time it took through `took`.
bool treeEnds(const Tree& t, DWORD ms, long long& took)
{
    const auto t0 = std::chrono::steady_clock::now();
    const HANDLE both[2] = {t.child, t.grandchild};
    const bool ended = WaitForMultipleObjects(2, both, TRUE, ms) == WAIT_OBJECT_0;
    took =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    return ended;
}

// Both gone within `ms`, and not before `atLeastMs` (a grace period honoured).
void checkTreeEnds(const Tree& t, DWORD ms, const std::string& label, long long atLeastMs = 0)
{
    long long took = 0;
    const bool ended = treeEnds(t, ms, took) && took >= atLeastMs;
    check(ended, label + ": child and grandchild gone after " + std::to_string(took) +
                     " ms (window " + std::to_string(atLeastMs) + ".." + std::to_string(ms) +
                     " ms)");
}

void helperKilled()
{
    const std::string label = "(a) helper killed";
    Helper h;
    Tree t;
    const std::wstring pids = tempPath(L"pids-a.txt");
    check(startHelper(h, L"", L"\"" + pids + L"\""), label + ": helper started");
    if (!openTree(pids, t, label))
        return;
    TerminateProcess(h.pi.hProcess, 9);
    checkTreeEnds(t, 2000, label);
}

// The workload terminates the helper, its parent: the helper held the only handle to
// the job, so the job closes and takes the tree with it.
void workloadKillsTheHelper()
{
    const std::string label = "(h) the workload kills the helper";
    Helper h;
    Tree t;
    const std::wstring pids = tempPath(L"pids-h.txt");
    const std::wstring go = tempPath(L"pids-h.txt.go");
    check(startHelper(h, L"--grace-ms 30000", L"\"" + pids + L"\" --kill-parent --ignore-break"),
          label + ": helper started");
    if (!openTree(pids, t, label))
        return;
    std::ofstream(go.c_str()) << "go\n";
    const long long code = h.waitExit(3000);
    check(code == 9, label + ": the helper was terminated by the workload (exit " +
                         std::to_string(code) + ")");
    checkTreeEnds(t, 2000, label);
}

// A stand-in launcher holding the helper's stdin is terminated (kill -9, Task Manager):
// the pipe closes and the helper stops the tree within 1 s, whatever the grace.
void launcherKilled()
{
    const std::string label = "(i) launcher terminated, grace 30000 ms, break ignored";
    const std::wstring pids = tempPath(L"pids-i.txt");
    std::wstring line = L"\"" + dir + L"tree_child.exe\" --launch \"" + pids + L"\" 30000";
    STARTUPINFOW si{};
    si.cb = sizeof si;
    PROCESS_INFORMATION launcher{};
    const bool started = CreateProcessW(nullptr, line.data(), nullptr, nullptr, FALSE, 0, nullptr,
                                        nullptr, &si, &launcher);
    check(started, label + ": launcher started");
    if (!started)
        return;
    Tree t;
    if (openTree(pids, t, label)) {
        TerminateProcess(launcher.hProcess, 9);
        checkTreeEnds(t, 3000, label);
    }
    TerminateProcess(launcher.hProcess, 9);
    CloseHandle(launcher.hThread);
    CloseHandle(launcher.hProcess);
}

// How one control-channel check drives the helper and what it expects.
struct Control
{
    std::string label;
    const wchar_t* graceMs;
    bool ignoreBreak;
    std::vector<const char*> lines; // written to the helper's stdin; nullptr: close it
    DWORD limitMs;                  // the tree must be gone within this
    long long atLeastMs;            // and not before this
    const char* stoppedBy;          // the status file's "stopped_by"
};

void controlled(const Control& c)
{
    Helper h;
    Tree t;
    const std::wstring pids = tempPath(L"pids-control.txt");
    const std::wstring status = tempPath(L"status-control.json");
    const std::wstring childArgs =
        L"\"" + pids + L"\"" + (c.ignoreBreak ? L" --ignore-break" : L"");
    check(startHelper(h,
                      L"--grace-ms " + std::wstring(c.graceMs) + L" --status \"" + status + L"\"",
                      childArgs),
          c.label + ": helper started");
    if (!openTree(pids, t, c.label))
        return;
    for (const char* line : c.lines)
        line ? (void)h.send(line) : h.closeStdin();
    checkTreeEnds(t, c.limitMs, c.label, c.atLeastMs);
    DWORD childCode = 0;
    GetExitCodeProcess(t.child, &childCode);
    std::printf("     child exit code 0x%lX (%s)\n", static_cast<unsigned long>(childCode),
                childCode == 0xC000013A ? "CTRL_BREAK" : "TerminateJobObject");
    const long long code = h.waitExit(3000);
    check(code >= 0, c.label + ": helper exited with " + std::to_string(code));
    const std::string json = readText(status);
    check(json.find("\"stopped_by\": \"" + std::string(c.stoppedBy) + "\"") != std::string::npos,
          c.label + ": status file " + json.substr(0, json.find('\n')));
}

void controlChannel()
{
    const std::vector<Control> checks = {
        {"(b) \"stop\", grace 300 ms", L"300", false, {"stop\n"}, 2300, 0, "stop"},
        // What ends the tree when CTRL_BREAK does not (Wine, or a workload ignoring it).
        {"(b) \"stop\", break ignored, grace 300 ms", L"300", true, {"stop\n"}, 2300, 250, "stop"},
        {"(b) \"kill\", grace 30000 ms", L"30000", true, {"kill\n"}, 1000, 0, "kill"},
        {"(c) stdin closed, grace 30000 ms, break ignored",
         L"30000",
         true,
         {nullptr},
         2000,
         900,
         "launcher-gone"},
        {"(c) \"stop\" then stdin closed, grace 30000 ms, break ignored",
         L"30000",
         true,
         {"stop\n", nullptr},
         2000,
         900,
         "stop"},
    };
    for (const Control& c : checks)
        controlled(c);
}

void firstExitsEarly()
{
    const std::string label = "(d) first process exits 7, grandchild lives";
    Helper h;
    Tree t;
    const std::wstring pids = tempPath(L"pids-h.txt");
    const std::wstring status = tempPath(L"status-d.json");
    check(startHelper(h, L"--status \"" + status + L"\"", L"\"" + pids + L"\" --exit-code 7"),
          label + ": helper started");
    DWORD childPid = 0;
    if (!readPids(pids, childPid, t.grandchildPid))
        return check(false, label + ": tree_child wrote its PIDs");
    t.grandchild = OpenProcess(kAccess, FALSE, t.grandchildPid);
    const HANDLE child = OpenProcess(kAccess, FALSE, childPid);
    const bool childGone = !child || WaitForSingleObject(child, 5000) == WAIT_OBJECT_0;
    if (child)
        CloseHandle(child);
    check(childGone, label + ": first process " + std::to_string(childPid) + " ended");
    check(alive(t.grandchild) && h.waitExit(1500) < 0,
          label + ": grandchild alive and helper still running 1.5 s later");
    TerminateProcess(t.grandchild, 0);
    const long long code = h.waitExit(3000);
    check(code == 7, label + ": helper ended with the tree, exit status " + std::to_string(code));
    const std::string json = readText(status);
    check(json.find("\"exit\": {\"code\": 7}") != std::string::npos &&
              json.find("\"stopped_by\": \"none\"") != std::string::npos,
          label + ": status file " + json.substr(0, json.find('\n')));
}

void firstCrashes()
{
    const std::string label = "(e) first process crashes";
    Helper h;
    const std::wstring status = tempPath(L"status-e.json");
    check(startHelper(h, L"--status \"" + status + L"\"", L"--crash"), label + ": helper started");
    const long long code = h.waitExit(15000);
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llX", code);
    check(code == 0xC0000005LL, label + ": helper exit status " + hex);
    const std::string json = readText(status);
    check(json.find("\"exit\": {\"ntstatus\": 3221225477}") != std::string::npos,
          label + ": status file " + json.substr(0, json.find('\n')));
}

void startFails()
{
    const std::string label = "(f) no such program";
    Helper h;
    const std::wstring status = tempPath(L"status-f.json");
    SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, TRUE};
    HANDLE readEnd = nullptr;
    CreatePipe(&readEnd, &h.stdinWrite, &sa, 0);
    std::wstring line = L"\"" + dir + L"stackpilot-run.exe\" --status \"" + status + L"\" -- \"" +
                        dir + L"no-such-program.exe\"";
    STARTUPINFOW si{};
    si.cb = sizeof si;
    CreateProcessW(nullptr, line.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr, &si, &h.pi);
    CloseHandle(readEnd);
    const long long code = h.waitExit(10000);
    check(code == 127, label + ": exit status " + std::to_string(code));
    const std::string json = readText(status);
    check(json.find("{\"error\": \"cannot start ") == 0,
          label + ": status file " + json.substr(0, json.find('\n')));
}

// Arguments with blanks, quotes, backslashes and non-ASCII arrive as they were.
void argumentsQuoted()
{
    const std::string label = "(g) arguments";
    Helper h;
    const std::wstring out = tempPath(L"args-g.txt");
    const std::wstring args = L"\"" + out + L"\" \"a b\" \"with\\\"quote\" \"trail\\\\\" " +
                              L"\"\" \"\\\\srv\\share\\\" x\" \x00FC\x65E5";
    startHelper(h, L"", L"--args-out " + args);
    const long long code = h.waitExit(10000);
    const std::string got = readText(out);
    const std::string want =
        "a b\nwith\"quote\ntrail\\\n\n\\\\srv\\share\" x\n\xC3\xBC\xE6\x97\xA5\n";
    check(code == 0 && got == want,
          label + ": passed through unchanged (exit " + std::to_string(code) + ")");
}

} // namespace

int main()
{
    helperKilled();
    workloadKillsTheHelper();
    launcherKilled();
    controlChannel();
    firstExitsEarly();
    firstCrashes();
    startFails();
    argumentsQuoted();
    std::printf("test_containment: %d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
