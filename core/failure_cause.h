#pragma once
// Why a failure happened, as a value set where it happens (the downloader, the
// extractor, the prefix store, the preflight) and carried by sp::Error to every front
// end. The window, the CLI and `run --json` choose their words from it
// (app/common/diag/cause_words.h), never from the message's text. docs/ARCHITECTURE.md
// "Failure causes" lists where each one is set.
//
// Header only: the MinGW build of .ci/test-windows compiles a fixed list of sources.

#include <cerrno>
#include <system_error>

namespace sp {

enum class Cause
{
    Unknown,    // nothing more precise is known; the message says what happened
    NotFound,   // the server answered that the file is not there (HTTP 404/410), or
                // the preflight found no source that has it
    Network,    // no answer, or a broken one: DNS, connect, timeout, reset, proxy, 5xx
    Tls,        // the server's certificate was refused, or a redirect left https
    Checksum,   // the bytes arrived but their SHA-256 is not the pinned one
    Size,       // the bytes arrived but their size is not the catalog's
    DiskFull,   // ENOSPC, EDQUOT: a write failed for lack of space
    Permission, // EACCES, EPERM, EROFS: a write was refused
    Cancelled,  // the user cancelled (Error::cancelled)
    Internal,   // a fault in StackPilot itself: an exception out of a session's step
};

// Stable ids for JSON ("cause" of `run --json`'s error event): never renamed.
constexpr const char* toString(Cause c)
{
    switch (c) {
    case Cause::Unknown:
        return "unknown";
    case Cause::NotFound:
        return "not_found";
    case Cause::Network:
        return "network";
    case Cause::Tls:
        return "tls";
    case Cause::Checksum:
        return "checksum";
    case Cause::Size:
        return "size";
    case Cause::DiskFull:
        return "disk_full";
    case Cause::Permission:
        return "permission";
    case Cause::Cancelled:
        return "cancelled";
    case Cause::Internal:
        return "internal";
    }
    return "unknown";
}

// The cause of a failed write, open, create or rename from its errno; Unknown for any
// other error.
inline Cause causeFromErrno(int err)
{
    switch (err) {
    case ENOSPC:
#ifdef EDQUOT
    case EDQUOT:
#endif
        return Cause::DiskFull;
    case EACCES:
    case EPERM:
#ifdef EROFS
    case EROFS:
#endif
        return Cause::Permission;
    default:
        return Cause::Unknown;
    }
}

// The same for a std::error_code (std::filesystem): on Windows its system errors
// (ERROR_DISK_FULL, ERROR_ACCESS_DENIED) map to the same generic conditions.
inline Cause causeFromError(const std::error_code& ec)
{
    const std::error_condition c = ec.default_error_condition();
    return c.category() == std::generic_category() ? causeFromErrno(c.value()) : Cause::Unknown;
}

} // namespace sp
