#pragma once
// What this machine has shown about its stacks: each smoke test and each launch
// outcome is a record (the machine's fingerprint, the profile and catalog version, the
// runtimes' versions and digests, pass or fail, timings, the known issue). Selection
// ranks by them (a stack that passed here first, one that failed here last), a driver
// change turns them into "unverified here", and `evidence export` hands them, redacted,
// to catalog maintainers. Kept in <data>/evidence.json (docs/VERIFY.md).

#include "core/expected.h"
#include "core/json_file.h"
#include "core/snapshot.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sp {

// The machine as far as a stack cares: the card (PCI id and revision, gfx or compute
// capability), its driver and the OS build. A record counts "here" when the card and
// the OS family match; it is current when the driver and OS build match too.
struct MachineFingerprint
{
    std::string gpu;    // "1002:73df rev c1", or "cpu" when no GPU is planned
    std::string arch;   // "gfx1031", "sm_89", or ""
    std::string driver; // the GPU driver's version, or ""
    std::string os;     // "windows", "linux"
    std::string osBuild;

    bool sameCard(const MachineFingerprint& o) const
    {
        return gpu == o.gpu && arch == o.arch && os == o.os;
    }
    bool sameSoftware(const MachineFingerprint& o) const
    {
        return driver == o.driver && osBuild == o.osBuild;
    }
};
MachineFingerprint fingerprintOf(const HardwareSnapshot& snap, std::optional<int> gpu);
// The card's GPU family as records and the ledger name it: "gfx1031", "sm_89", or "".
std::string archOf(const GpuInfo& g);

enum class EvidenceKind
{
    Verify, // a smoke test
    Launch, // a workload's run ended
    Bench   // the smoke test's timed part, for `bench`
};
const char* toString(EvidenceKind k);

struct EvidenceRuntime
{
    std::string id;
    std::string version;
    std::vector<std::string> sha256; // of its artifacts, as installed
};

struct EvidenceRecord
{
    EvidenceKind kind = EvidenceKind::Verify;
    std::string at; // ISO 8601 UTC
    MachineFingerprint machine;
    std::string workload;
    std::string profile;
    std::string catalog; // "shipped" or "feed 142"
    std::vector<EvidenceRuntime> runtimes;
    bool passed = false;
    std::optional<double> seconds; // the smoke test's timed part
    std::string knownIssue;        // the known issue its output matched, if any
    std::string reason;            // why it failed, in words
    std::string cause; // the failure's kind: "timeout", "device-mismatch", ... (smoke_judge.h)
    std::string deviceCheck; // whether the smoke test ran on the planned GPU, in words
    nlohmann::json result = nlohmann::json::object(); // the smoke test's JSON line, bounded
};

// A record's size is bounded by construction, so the store can never pass the limit it
// is read with (kKept records of at most kMaxRecordBytes each, as the file holds them):
// the smoke test's result keeps its known scalar fields only (boundedResult), strings
// are cut, lists capped; what still does not fit is cut harder (boundedRecord).
inline constexpr std::size_t kMaxRecordBytes = 6u << 10;
nlohmann::json boundedResult(const nlohmann::json& result);
EvidenceRecord boundedRecord(EvidenceRecord r);
// The bytes the record takes in evidence.json, as the store writes it.
std::size_t storedSize(const EvidenceRecord& r);

nlohmann::json toJson(const EvidenceRecord& r);
Expected<EvidenceRecord> evidenceFromJson(const nlohmann::json& j, const std::string& where);

// What the records say about one profile on this machine now.
struct LocalVerdict
{
    enum class State
    {
        Passed,    // its last smoke test here, with this driver, passed
        Failed,    // ... failed
        Unverified // it was checked here, but with another driver or OS build
    };
    State state = State::Unverified;
    std::string text; // "passed on this machine on 2026-11-20"
    std::string at;   // when that smoke test ran, ISO 8601 UTC
    std::string knownIssue;
    // Unverified, but it passed here with the driver before: a better bet than a
    // stack never tried here, so it ranks just below a current pass (and is re-checked).
    bool passedEarlier = false;

    // 0: passed here now, 1: passed here with another driver, 2: nothing known or
    // unverified after a failure. (A current failure ranks apart, last of all.)
    int rank() const
    {
        return state == State::Passed ? 0 : state == State::Unverified && passedEarlier ? 1 : 2;
    }
};

// Verdicts by profile id, from the latest smoke test of each on this card.
std::map<std::string, LocalVerdict> verdictsFor(const std::vector<EvidenceRecord>& records,
                                                const MachineFingerprint& here);

// The verdicts of the default store (<data>/evidence.json) for this snapshot, whose
// planned GPU is `gpu`. Empty when there are no records, or when they cannot be read:
// planning goes on without them (the session reports why).
std::map<std::string, LocalVerdict> localVerdicts(const HardwareSnapshot& snap,
                                                  std::optional<int> gpu);

class EvidenceStore
{
public:
    static constexpr std::size_t kKept = 2000; // the oldest go first
    // What the file is read with; kKept records of kMaxRecordBytes stay well under it.
    static constexpr JsonLimits kReadLimits{16u << 20, 16};
    // A file past kReadLimits, written before records were bounded (it stopped growing at
    // 16 MiB and one record), is read once with this and compacted, not ignored.
    static constexpr JsonLimits kCompactLimits{64u << 20, 16};
    explicit EvidenceStore(std::filesystem::path file = defaultFile(), std::size_t keep = kKept);
    static std::filesystem::path defaultFile(); // <data>/evidence.json

    // Every record, oldest first; a file past kReadLimits is read with
    // kCompactLimits (the next add rewrites it compacted).
    Expected<std::vector<EvidenceRecord>> records() const;
    // Adds the record, bounded, and rewrites the file with the newest `keep` (at most
    // kKept) records, each bounded: an oversized file is compacted here.
    Expected<void> add(const EvidenceRecord& record) const;

private:
    std::filesystem::path m_file;
    std::size_t m_keep;
};

// The records without what names the user or the machine (paths, serials, bus ids):
// what `evidence export` writes and the diagnostics bundle carries.
nlohmann::json exportJson(const std::vector<EvidenceRecord>& records);

} // namespace sp
