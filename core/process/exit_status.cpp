#include "core/process/exit_status.h"

#include <csignal>
#include <cstdio>

namespace sp {

std::string signalName(int sig)
{
    switch (sig) {
    case 11:
        return "SIGSEGV";
    case 6:
        return "SIGABRT";
    case 7:
        return "SIGBUS";
    case 4:
        return "SIGILL";
    case 8:
        return "SIGFPE";
    case 9:
        return "SIGKILL";
    case 15:
        return "SIGTERM";
    case 2:
        return "SIGINT";
    case 1:
        return "SIGHUP";
    case 13:
        return "SIGPIPE";
    default:
        return "signal";
    }
}

std::string describeSignal(int sig)
{
    return signalName(sig) + " (" + std::to_string(sig) + ")";
}

bool isNtStatusError(std::uint32_t code)
{
    return (code & 0xC0000000u) == 0xC0000000u;
}

std::string describeNtStatus(std::uint32_t code)
{
    // The NTSTATUS values a crashing workload or driver ends with most often
    // (https://learn.microsoft.com/openspecs/windows_protocols/ms-erref/596a1078-e883-4972-9bbc-49e60bebca55).
    struct Known
    {
        std::uint32_t code;
        const char* text;
    };
    static const Known known[] = {
        {0xC0000005u, "access violation"},
        {0xC0000409u, "stack buffer overrun (fail fast)"},
        {0xC0000135u, "a DLL was not found"},
        {0xC0000139u, "an entry point was not found in a DLL"},
        {0xC000001Du, "illegal instruction"},
        {0xC00000FDu, "stack overflow"},
        {0xC0000374u, "heap corruption"},
        {0xC0000142u, "a DLL failed to initialise"},
        {0xC0000094u, "integer division by zero"},
        {0xC000013Au, "terminated by Ctrl+C"},
    };
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08X", code);
    for (const auto& k : known)
        if (k.code == code)
            return std::string(hex) + " " + k.text;
    return hex;
}

} // namespace sp
