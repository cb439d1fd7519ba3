#pragma once
// How a child process ended, in words: the signal on Linux ("SIGSEGV (11)"), the
// NTSTATUS on Windows ("0xC0000005 access violation"). Shared by the probe runner and
// the launcher, and plain C++ so both platforms' decoders are tested on either.

#include <cstdint>
#include <string>

namespace sp {

// "SIGSEGV", "SIGKILL", ...; "signal" for one without a name here.
std::string signalName(int signal);
// "SIGSEGV (11)".
std::string describeSignal(int signal);
// Whether a Windows exit code is an NTSTATUS error (severity bits 11: 0xC0000000).
bool isNtStatusError(std::uint32_t code);
// "0xC0000005 access violation", "0xC0000135 a DLL was not found", or "0xC000001D".
std::string describeNtStatus(std::uint32_t code);

} // namespace sp
