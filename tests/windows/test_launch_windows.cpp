// The Windows halves of launch decoding under Wine (or Windows): NTSTATUS words,
// TextDecoder through MultiByteToWideChar, checkPort through Winsock and the TCP
// listener tables. One line per check; exits non-zero when any check fails.
#include "core/atomic_file.h"
#include "core/launch/launch_lock.h"
#include "core/launch/port_check.h"
#include "core/launch/text_decoder.h"
#include "core/process/exit_status.h"

// Winsock before windows.h.
// clang-format off
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
// clang-format on

#include <cstdio>
#include <filesystem>
#include <string>

namespace {

int failures = 0;

void check(bool ok, const std::string& what)
{
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    if (!ok)
        ++failures;
}

void ntStatus()
{
    const struct
    {
        std::uint32_t code;
        const char* want;
    } cases[] = {
        {0xC0000005u, "0xC0000005 access violation"},
        {0xC0000409u, "0xC0000409 stack buffer overrun (fail fast)"},
        {0xC0000135u, "0xC0000135 a DLL was not found"},
    };
    for (const auto& c : cases) {
        const std::string got = sp::describeNtStatus(c.code);
        check(got == c.want && sp::isNtStatusError(c.code), "describeNtStatus: " + got);
    }
    check(!sp::isNtStatusError(1) && !sp::isNtStatusError(0x80000003u),
          "isNtStatusError: 1 and 0x80000003 are not NTSTATUS errors");
}

std::string hexBytes(const std::string& s)
{
    std::string out;
    char b[4];
    for (unsigned char c : s) {
        std::snprintf(b, sizeof b, "%02X", c);
        out += b;
    }
    return out;
}

void textDecoder()
{
    const std::string gbk = "\xCF\xD4\xB4\xE6\xB2\xBB\xD7\xE3";
    const std::string utf8 = "\xE6\x98\xBE\xE5\xAD\x98\xE4\xB8\x8D\xE8\xB6\xB3"; // 显存不足
    const sp::TextDecoder cp936(936);
    const std::string got = cp936.decode(gbk);
    check(cp936.canConvert() && got == utf8,
          "TextDecoder(936): GBK 显存不足 -> UTF-8 " + hexBytes(got));
    const std::string mixed = "CUDA out of memory \xE2\x80\x94 \xE6\x98\xBE\xE5\xAD\x98";
    check(cp936.decode(mixed) == mixed, "TextDecoder(936): valid UTF-8 passes through unchanged");
    const sp::TextDecoder none(0);
    const std::string replaced = none.decode("ab\xFF\xC3z");
    check(!none.canConvert() && replaced == "ab\xEF\xBF\xBD\xEF\xBF\xBDz",
          "TextDecoder(0): bad bytes -> U+FFFD: " + hexBytes(replaced));
    const sp::TextDecoder cp1252(1252);
    check(cp1252.decode("caf\xE9") == "caf\xC3\xA9", "TextDecoder(1252): caf\\xE9 -> café");
    const unsigned cp = sp::defaultConsoleCodePage();
    check(cp != 0, "defaultConsoleCodePage: " + std::to_string(cp));
}

std::string ownExeName()
{
    wchar_t self[MAX_PATH];
    const DWORD n = GetModuleFileNameW(nullptr, self, MAX_PATH);
    std::wstring path(self, n);
    path.erase(0, path.find_last_of(L"\\/") + 1);
    std::string out;
    for (wchar_t c : path)
        out += static_cast<char>(c); // an ASCII name
    return out;
}

bool underWine()
{
    const HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    return ntdll && GetProcAddress(ntdll, "wine_get_version") != nullptr;
}

// A listening socket on 127.0.0.1 with a port the system chose; its port, or 0.
SOCKET listenOnLoopback(int& port)
{
    const SOCKET s = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int len = sizeof addr;
    port = 0;
    if (s != INVALID_SOCKET && bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        listen(s, 1) == 0 && getsockname(s, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    return s;
}

void portCheck()
{
    WSADATA data;
    check(WSAStartup(MAKEWORD(2, 2), &data) == 0, "WSAStartup");
    int port = 0;
    const SOCKET held = listenOnLoopback(port);
    check(port != 0, "listening on 127.0.0.1:" + std::to_string(port));
    const sp::PortStatus taken = sp::checkPort(port);
    const long long self = GetCurrentProcessId();
    const bool byUs = taken.holder && taken.holder->pid == self &&
                      _stricmp(taken.holder->name.c_str(), ownExeName().c_str()) == 0;
    // Wine 8 lists the listener with owning PID 0, so there the holder is unknown;
    // Windows must name this test.
    const bool wineNoPid = underWine() && !taken.holder;
    check(taken.inUse && (byUs || wineNoPid), "checkPort, held by this test (pid " +
                                                  std::to_string(self) + "): " + taken.describe() +
                                                  (wineNoPid ? " (Wine gives no owning PID)" : ""));
    closesocket(held);
    const sp::PortStatus freed = sp::checkPort(port);
    check(!freed.inUse && !freed.holder, "checkPort after closing it: " + freed.describe());
    WSACleanup();
}

// One launch per profile: a second lock of the same profile is refused with the
// holder's process id, another profile's is not, and a released lock can be taken.
void launchLock()
{
    const auto dir = std::filesystem::temp_directory_path() / "sp-launch-lock-test";
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    auto first = sp::LaunchLock::acquire(dir, "p");
    check(first.ok(), "LaunchLock: the first lock of p is taken");
    auto second = sp::LaunchLock::acquire(dir, "p");
    check(!second.ok() && second.error().message.find("already running (process " +
                                                      std::to_string(GetCurrentProcessId())) !=
                              std::string::npos,
          "LaunchLock: a second lock of p names its holder: " +
              (second.ok() ? std::string("taken") : second.error().message));
    check(sp::LaunchLock::acquire(dir, "q").ok(), "LaunchLock: another profile is free");
    if (first.ok())
        first->reset();
    check(sp::LaunchLock::acquire(dir, "p").ok(), "LaunchLock: p is free once released");
    std::filesystem::remove_all(dir, ec);
}

// Settings writes: a file is replaced whole; a read-only one is refused and kept.
void atomicFile()
{
    const auto dir = std::filesystem::temp_directory_path() / "sp-atomic-file-test";
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    const auto file = dir / "settings.json";
    check(sp::replaceFileAtomically(file, "{\"a\": 1}\n", "settings").ok(),
          "replaceFileAtomically: a new file");
    check(sp::replaceFileAtomically(file, "{\"a\": 2}\n", "settings").ok(),
          "replaceFileAtomically: over an existing file");
    SetFileAttributesW(file.c_str(), FILE_ATTRIBUTE_READONLY);
    const auto refused = sp::replaceFileAtomically(file, "{}", "settings");
    check(!refused.ok() && refused.error().message.find("read-only") != std::string::npos,
          "replaceFileAtomically: a read-only file is refused");
    SetFileAttributesW(file.c_str(), FILE_ATTRIBUTE_NORMAL);
    std::FILE* f = _wfopen(file.c_str(), L"rb");
    char buf[32] = {};
    const std::size_t n = f ? std::fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        std::fclose(f);
    check(std::string(buf, n) == "{\"a\": 2}\n", "replaceFileAtomically: the refused file is kept");
    std::filesystem::remove_all(dir, ec);
}

} // namespace

int main()
{
    ntStatus();
    textDecoder();
    portCheck();
    launchLock();
    atomicFile();
    std::printf("test_launch_windows: %d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
