// checkPort on Windows: a trial bind with SO_EXCLUSIVEADDRUSE, then the TCP listener
// tables (GetExtendedTcpTable) for the owning process.
#include "core/launch/port_check.h"

// Winsock before windows.h, IP Helper after both.
// clang-format off
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <iphlpapi.h>
// clang-format on

#include <vector>

namespace sp {

namespace {

struct WinsockSession
{
    bool ok = false;
    WinsockSession()
    {
        WSADATA data;
        ok = WSAStartup(MAKEWORD(2, 2), &data) == 0;
    }
    ~WinsockSession()
    {
        if (ok)
            WSACleanup();
    }
    WinsockSession(const WinsockSession&) = delete;
    WinsockSession& operator=(const WinsockSession&) = delete;
};

// False when the address:port cannot be bound because something has it (or the
// system reserved it: WSAEACCES, as for Hyper-V's excluded port ranges).
bool canBind(ULONG address, int port)
{
    const SOCKET s = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    if (s == INVALID_SOCKET)
        return true; // cannot tell: do not call it taken
    BOOL exclusive = TRUE;
    setsockopt(s, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, reinterpret_cast<const char*>(&exclusive),
               sizeof exclusive);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<u_short>(port));
    addr.sin_addr.s_addr = htonl(address);
    const bool bound = bind(s, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
    const int error = bound ? 0 : WSAGetLastError();
    closesocket(s);
    return bound || (error != WSAEADDRINUSE && error != WSAEACCES);
}

// The whole listener table of one address family, or empty.
std::vector<unsigned char> listenerTable(ULONG family)
{
    std::vector<unsigned char> buf;
    DWORD size = 0;
    for (int attempt = 0; attempt < 4; ++attempt) {
        const DWORD rc = GetExtendedTcpTable(buf.empty() ? nullptr : buf.data(), &size, FALSE,
                                             family, TCP_TABLE_OWNER_PID_LISTENER, 0);
        if (rc == NO_ERROR)
            return buf;
        if (rc != ERROR_INSUFFICIENT_BUFFER)
            break;
        buf.assign(size + 256, 0);
        size = static_cast<DWORD>(buf.size());
    }
    return {};
}

// The PID listening on the port, IPv4 first, then IPv6; 0 when none is listed.
DWORD listenerPid(int port)
{
    const std::vector<unsigned char> v4 = listenerTable(AF_INET);
    if (!v4.empty()) {
        const auto* t = reinterpret_cast<const MIB_TCPTABLE_OWNER_PID*>(v4.data());
        for (DWORD i = 0; i < t->dwNumEntries; ++i)
            if (ntohs(static_cast<u_short>(t->table[i].dwLocalPort)) == port)
                return t->table[i].dwOwningPid;
    }
    const std::vector<unsigned char> v6 = listenerTable(AF_INET6);
    if (!v6.empty()) {
        const auto* t = reinterpret_cast<const MIB_TCP6TABLE_OWNER_PID*>(v6.data());
        for (DWORD i = 0; i < t->dwNumEntries; ++i)
            if (ntohs(static_cast<u_short>(t->table[i].dwLocalPort)) == port)
                return t->table[i].dwOwningPid;
    }
    return 0;
}

// "ComfyUI.exe": the file name of the process's image, in UTF-8; empty when hidden.
std::string processName(DWORD pid)
{
    const HANDLE p = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
    if (!p)
        return {};
    wchar_t path[MAX_PATH * 4];
    DWORD len = static_cast<DWORD>(sizeof path / sizeof path[0]);
    const bool ok = QueryFullProcessImageNameW(p, 0, path, &len);
    CloseHandle(p);
    if (!ok || len == 0)
        return {};
    std::wstring name(path, len);
    const std::size_t slash = name.find_last_of(L"\\/");
    if (slash != std::wstring::npos)
        name.erase(0, slash + 1);
    const int wlen = static_cast<int>(name.size());
    const int n = WideCharToMultiByte(CP_UTF8, 0, name.data(), wlen, nullptr, 0, nullptr, nullptr);
    std::string out(static_cast<std::size_t>(n > 0 ? n : 0), '\0');
    if (n > 0)
        WideCharToMultiByte(CP_UTF8, 0, name.data(), wlen, out.data(), n, nullptr, nullptr);
    return out;
}

} // namespace

PortStatus checkPort(int port)
{
    PortStatus status;
    status.port = port;
    if (port <= 0 || port > 65535)
        return status;
    const WinsockSession winsock;
    if (!winsock.ok)
        return status;
    status.inUse = !canBind(INADDR_LOOPBACK, port) || !canBind(INADDR_ANY, port);
    if (!status.inUse)
        return status;
    if (const DWORD pid = listenerPid(port); pid != 0)
        status.holder = PortHolder{static_cast<long long>(pid), processName(pid)};
    return status;
}

} // namespace sp
