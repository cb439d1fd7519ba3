// stackpilot-run on Windows: the workload's tree lives in a job object that only this
// helper holds (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE), so the tree dies with the helper.
// See reaper.h for the contract.
#include "app/reaper/reaper.h"
#include "core/process/exit_status.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>
#include <windows.h>

namespace sp::reaper {

namespace {

// Completion keys on the job's port: the job's own messages, and the helper's.
constexpr ULONG_PTR kJobKey = 1;
constexpr ULONG_PTR kControlKey = 2; // message: the StopRequest
constexpr ULONG_PTR kMainExitKey = 3;
// How often the loop also asks the job for its process count (a lost message
// must not leave the helper waiting forever).
constexpr DWORD kPollMs = 1000;
constexpr int kLauncherGoneGraceMs = 1000;

using Clock = std::chrono::steady_clock;

long long msSince(Clock::time_point t0)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

std::wstring widen(const std::string& s)
{
    if (s.empty())
        return {};
    const int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
    std::wstring w(static_cast<std::size_t>(n > 0 ? n : 0), L'\0');
    if (n > 0)
        MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
    return w;
}

std::string narrow(const std::wstring& w)
{
    if (w.empty())
        return {};
    const int len = static_cast<int>(w.size());
    const int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), len, nullptr, 0, nullptr, nullptr);
    std::string s(static_cast<std::size_t>(n > 0 ? n : 0), '\0');
    if (n > 0)
        WideCharToMultiByte(CP_UTF8, 0, w.data(), len, s.data(), n, nullptr, nullptr);
    return s;
}

// The system's words for an error code, without the trailing ".\r\n".
std::string systemMessage(DWORD error)
{
    wchar_t* buf = nullptr;
    const DWORD flags =
        FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS;
    const DWORD n =
        FormatMessageW(flags, nullptr, error, 0, reinterpret_cast<wchar_t*>(&buf), 0, nullptr);
    std::wstring w = n > 0 && buf ? std::wstring(buf, n) : std::wstring();
    LocalFree(buf);
    while (!w.empty() && (w.back() == L'\n' || w.back() == L'\r' || w.back() == L'.'))
        w.pop_back();
    if (w.empty())
        return "error " + std::to_string(error);
    return narrow(w) + " (error " + std::to_string(error) + ")";
}

// One argument quoted so that CommandLineToArgvW and the MSVCRT give it back as is:
// backslashes are literal except before a quote, where they are doubled.
std::wstring quoteArgument(const std::wstring& arg)
{
    if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos)
        return arg;
    std::wstring out = L"\"";
    std::size_t backslashes = 0;
    for (wchar_t c : arg) {
        if (c == L'\\') {
            ++backslashes;
            continue;
        }
        out.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
        backslashes = 0;
        out += c;
    }
    out.append(backslashes * 2, L'\\');
    return out + L"\"";
}

// argv[0] is parsed by other rules (no escapes; a path holds no quotes): quote it
// whole when it has blanks.
std::wstring commandLine(const std::vector<std::string>& argv)
{
    const std::wstring program = widen(argv.front());
    std::wstring line = program.find_first_of(L" \t") == std::wstring::npos || program.empty()
                            ? program
                            : L"\"" + program + L"\"";
    for (std::size_t i = 1; i < argv.size(); ++i)
        line += L" " + quoteArgument(widen(argv[i]));
    return line;
}

struct Handles
{
    HANDLE job = nullptr;
    HANDLE port = nullptr;
    HANDLE nulIn = INVALID_HANDLE_VALUE;
    PROCESS_INFORMATION pi{};
    HANDLE mainWait = nullptr;

    ~Handles()
    {
        if (mainWait)
            UnregisterWaitEx(mainWait, INVALID_HANDLE_VALUE);
        for (HANDLE h : {pi.hThread, pi.hProcess, nulIn, port, job})
            if (h && h != INVALID_HANDLE_VALUE)
                CloseHandle(h);
    }
};

// The job (kill on close, not inheritable) and its completion port.
bool createJob(Handles& h, std::string& error)
{
    h.job = CreateJobObjectW(nullptr, nullptr);
    h.port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, nullptr, 0, 1);
    if (!h.job || !h.port) {
        error = "cannot create the job object: " + systemMessage(GetLastError());
        return false;
    }
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    JOBOBJECT_ASSOCIATE_COMPLETION_PORT assoc{};
    assoc.CompletionKey = reinterpret_cast<PVOID>(kJobKey);
    assoc.CompletionPort = h.port;
    if (!SetInformationJobObject(h.job, JobObjectExtendedLimitInformation, &limits,
                                 sizeof limits) ||
        !SetInformationJobObject(h.job, JobObjectAssociateCompletionPortInformation, &assoc,
                                 sizeof assoc)) {
        error = "cannot set up the job object: " + systemMessage(GetLastError());
        return false;
    }
    return true;
}

// The helper's stdout/stderr, made inheritable, and the null device as stdin.
STARTUPINFOW startupInfo(Handles& h)
{
    SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, TRUE};
    h.nulIn = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa,
                          OPEN_EXISTING, 0, nullptr);
    STARTUPINFOW si{};
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = h.nulIn;
    si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    for (HANDLE std : {si.hStdOutput, si.hStdError})
        if (std && std != INVALID_HANDLE_VALUE)
            SetHandleInformation(std, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
    return si;
}

// Created suspended, put in the job, then resumed: no grandchild is born outside it.
bool startWorkload(const Options& options, Handles& h, std::string& error)
{
    std::wstring line = commandLine(options.argv);
    STARTUPINFOW si = startupInfo(h);
    const DWORD flags = CREATE_SUSPENDED | CREATE_NEW_PROCESS_GROUP | CREATE_UNICODE_ENVIRONMENT;
    if (!CreateProcessW(nullptr, line.data(), nullptr, nullptr, TRUE, flags, nullptr, nullptr, &si,
                        &h.pi)) {
        error = "cannot start " + options.argv.front() + ": " + systemMessage(GetLastError());
        return false;
    }
    if (!AssignProcessToJobObject(h.job, h.pi.hProcess)) {
        error = "cannot put " + options.argv.front() +
                " in the job object: " + systemMessage(GetLastError());
        TerminateProcess(h.pi.hProcess, 1);
        return false;
    }
    if (ResumeThread(h.pi.hThread) == static_cast<DWORD>(-1)) {
        error = "cannot resume " + options.argv.front() + ": " + systemMessage(GetLastError());
        TerminateJobObject(h.job, 1);
        return false;
    }
    return true;
}

// The control thread: stdin lines become StopRequests posted to the job's port.
DWORD WINAPI readControl(void* portHandle)
{
    const HANDLE port = static_cast<HANDLE>(portHandle);
    const HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    auto post = [port](StopRequest r) {
        PostQueuedCompletionStatus(port, static_cast<DWORD>(r), kControlKey, nullptr);
    };
    std::string line;
    char buf[256];
    DWORD got = 0;
    while (in && in != INVALID_HANDLE_VALUE && ReadFile(in, buf, sizeof buf, &got, nullptr) &&
           got > 0) {
        for (DWORD i = 0; i < got; ++i) {
            if (buf[i] != '\n') {
                line += buf[i];
                continue;
            }
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            if (line == "stop" || line == "kill")
                post(line == "stop" ? StopRequest::Stop : StopRequest::Kill);
            line.clear();
        }
    }
    post(StopRequest::LauncherGone);
    return 0;
}

VOID CALLBACK onMainExit(PVOID portHandle, BOOLEAN)
{
    PostQueuedCompletionStatus(static_cast<HANDLE>(portHandle), 0, kMainExitKey, nullptr);
}

// What the loop in waitForTree() keeps track of.
struct TreeState
{
    Clock::time_point t0;
    StopRequest stoppedBy = StopRequest::None;
    bool killed = false;
    bool hasDeadline = false;
    Clock::time_point deadline;
    long long mainEndedMs = -1;
};

// "stop" and EOF: CTRL_BREAK_EVENT to the workload's process group, then the job is
// terminated when the grace period is over. "kill": terminated now. EOF during a
// stop shortens what is left of the grace period to 1 s (no one will say "kill").
void applyRequest(StopRequest r, const Options& options, const Handles& h, TreeState& s)
{
    if (s.killed)
        return;
    if (r == StopRequest::Kill) {
        s.stoppedBy = r;
        TerminateJobObject(h.job, 1);
        s.killed = true;
        return;
    }
    const auto now = Clock::now();
    const int grace = r == StopRequest::LauncherGone && options.graceMs > kLauncherGoneGraceMs
                          ? kLauncherGoneGraceMs
                          : options.graceMs;
    const auto deadline = now + std::chrono::milliseconds(grace);
    if (s.hasDeadline) { // a stop is under way already
        s.deadline = deadline < s.deadline ? deadline : s.deadline;
        return;
    }
    s.stoppedBy = r;
    GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, h.pi.dwProcessId);
    s.hasDeadline = true;
    s.deadline = deadline;
}

bool treeIsEmpty(HANDLE job)
{
    JOBOBJECT_BASIC_ACCOUNTING_INFORMATION info{};
    return QueryInformationJobObject(job, JobObjectBasicAccountingInformation, &info, sizeof info,
                                     nullptr) &&
           info.ActiveProcesses == 0;
}

DWORD nextTimeout(const TreeState& s)
{
    if (!s.hasDeadline || s.killed)
        return kPollMs;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(s.deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<DWORD>(left < kPollMs ? left : kPollMs);
}

// Until the job has no process left; stop requests and the grace period on the way.
void waitForTree(const Options& options, const Handles& h, TreeState& s)
{
    for (;;) {
        DWORD message = 0;
        ULONG_PTR key = 0;
        OVERLAPPED* ov = nullptr;
        const bool got = GetQueuedCompletionStatus(h.port, &message, &key, &ov, nextTimeout(s));
        if (got && key == kJobKey && message == JOB_OBJECT_MSG_ACTIVE_PROCESS_ZERO)
            return;
        if (got && key == kMainExitKey && s.mainEndedMs < 0)
            s.mainEndedMs = msSince(s.t0);
        if (got && key == kControlKey)
            applyRequest(static_cast<StopRequest>(message), options, h, s);
        if (s.hasDeadline && !s.killed && Clock::now() >= s.deadline) {
            TerminateJobObject(h.job, 1);
            s.killed = true;
        }
        if (!got && treeIsEmpty(h.job))
            return;
    }
}

ExitInfo exitInfoOf(DWORD code)
{
    ExitInfo info;
    info.kind = isNtStatusError(code) ? ExitInfo::NtStatus : ExitInfo::Code;
    info.value = static_cast<long long>(code);
    return info;
}

int startFailed(const Options& options, const std::string& error)
{
    std::fprintf(stderr, "stackpilot-run: %s\n", error.c_str());
    writeStatusFile(options.statusFile, errorJson(error));
    return 127;
}

} // namespace

int runContained(const Options& options)
{
    TreeState state;
    state.t0 = Clock::now();
    Handles h;
    std::string error;
    if (!createJob(h, error) || !startWorkload(options, h, error))
        return startFailed(options, error);
    const long long mainPid = h.pi.dwProcessId;
    writeStatusFile(options.statusFile, startedJson(mainPid));
    RegisterWaitForSingleObject(&h.mainWait, h.pi.hProcess, onMainExit, h.port, INFINITE,
                                WT_EXECUTEONLYONCE);
    // Left to run: it blocks in ReadFile on stdin, and ends with the helper.
    const HANDLE control = CreateThread(nullptr, 0, readControl, h.port, 0, nullptr);
    if (control)
        CloseHandle(control);
    waitForTree(options, h, state);
    const long long treeEndedMs = msSince(state.t0);
    WaitForSingleObject(h.pi.hProcess, INFINITE);
    DWORD code = 0;
    GetExitCodeProcess(h.pi.hProcess, &code);
    const long long mainEndedMs = state.mainEndedMs >= 0 ? state.mainEndedMs : treeEndedMs;
    writeStatusFile(options.statusFile, statusJson(mainPid, exitInfoOf(code), mainEndedMs,
                                                   treeEndedMs, state.stoppedBy));
    return static_cast<int>(code);
}

} // namespace sp::reaper
