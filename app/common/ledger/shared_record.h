#pragma once
// One smoke-test or launch result as it may leave a user's PC for the maintainers' ledger
// (issue 34, docs/LEDGER.md): the stack, the card, the software, the outcome. It never holds
// a user name, a path, a host name, a serial number, a token or a model name: the fields
// are closed, each has a shape, and every text goes through the diagnostics bundle's
// redactor, which must leave it unchanged, before a record is sent or ingested.

#include "core/expected.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sp::ledger {

inline constexpr int kRecordSchema = 1;
// A record's JSON text and nesting, as read from a file, a JSON line or an issue body.
inline constexpr std::size_t kMaxRecordBytes = 16u << 10;
inline constexpr int kMaxRecordDepth = 6;

struct SharedRuntime
{
    std::string id;
    std::string version;
    std::vector<std::string> sha256;
};

struct SharedRecord
{
    std::string recordId;  // 32 lowercase hex digits, random per record
    std::string installId; // 32 lowercase hex digits, random per install, rotated yearly
    std::string at;        // ISO 8601 UTC, "2026-11-28T19:58:21Z"
    std::string kind;      // "verify" or "launch"
    std::string workload;
    std::string profile;
    std::string catalog;  // "shipped" or "feed 142"
    std::string pciId;    // "10de:2335", or "" for a CPU stack
    std::string revision; // "a1", or ""
    std::string arch;     // "gfx1031", "sm_90", or ""
    int vramClassGib = 0; // the card's memory rounded up to a class (vramClass), 0: none
    std::string driver;   // "580.159.04"
    std::string os;       // "linux", "windows"
    std::string osBuild;  // "24.04", "10.0.26100"
    std::vector<SharedRuntime> runtimes;
    bool passed = false;
    std::string knownIssue;   // a catalog known-issue id, or ""
    std::string decisiveLine; // the failure's decisive line, redacted, or ""
    std::optional<double> seconds;
};

// 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192 or 256: the smallest class that holds
// `vramMb`, so a record tells which cards it speaks for without naming the exact size.
int vramClass(std::int64_t vramMb);

nlohmann::json toJson(const SharedRecord& r);
// Checks every field's presence, type and shape, refuses unknown fields, and refuses any
// text that the redactor would change (a path, a token, an e-mail address, a host name).
// The error is one line naming `where` and the field.
Expected<SharedRecord> recordFromJson(const nlohmann::json& j, const std::string& where);

// Whether `text` holds something no record may carry; the redaction kind it found, or "".
std::string privateTextIn(const std::string& text);

} // namespace sp::ledger
