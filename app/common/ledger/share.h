#pragma once
// The user's side of the crowd-proven catalog (issue 34, docs/LEDGER.md): an evidence
// record made into a shared record, queued under <data>/share-queue/, and sent with an
// HTTPS PUT to `<ledger>/<record-id>.json` (what nginx's WebDAV PUT or an S3-compatible
// presigned upload accepts). Sending is retried with backoff; a failure costs nothing and
// loses nothing, and offline is fine.

#include "app/common/ledger/shared_record.h"
#include "core/evidence/evidence.h"

#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace sp::ledger {

// 32 random lowercase hex digits (OpenSSL's RAND_bytes).
std::string randomHex32();

// The install id in `file` (config), made on first use and made anew when the year
// changes, so records of one PC link up within a year and no longer. With `keep` false a
// new id is not written (what `evidence share` shows before the user agrees).
Expected<std::string> installId(const std::filesystem::path& file, int year, bool keep = true);

// The decisive line as it may leave the PC: the bundle's redaction (the user's name and
// home, secrets), then paths, URLs, e-mail addresses, host and model file names replaced by
// <path>, <url>, ...; "" when something private would still remain.
std::string shareableLine(const std::string& line);

// `e` as a shared record of this install; `vramMb` is the card's memory (0: unknown). The
// record passes recordFromJson, or this says why not.
Expected<SharedRecord> shareable(const EvidenceRecord& e, const std::string& installId,
                                 std::int64_t vramMb);

// Writes the record into the queue folder as <record-id>.json.
Expected<std::filesystem::path> enqueue(const std::filesystem::path& queue, const SharedRecord& r);

struct SendReport
{
    std::size_t sent = 0;
    std::size_t waiting = 0;         // still queued
    bool deferred = false;           // not tried: the backoff after the last failure
    std::vector<std::string> errors; // one line per failed record
};

// PUTs each queued record to `<ledgerUrl>/<record-id>.json`; one the server took (2xx) leaves
// the queue. After a failure no attempt is made before the backoff ends (1 minute, doubled
// each failure up to 1 day; queue/state.json), unless `force`. Only https:// URLs, and
// http:// to 127.0.0.1 or localhost (a lab's or a test's server on this PC).
SendReport sendQueue(const std::filesystem::path& queue, const std::string& ledgerUrl,
                     std::chrono::system_clock::time_point now, bool force);

// Whether `url` is one records may be sent to (https, or http on loopback).
bool sendableUrl(const std::string& url);

// ---- The queue's bookkeeping (share_queue.cpp)
// An evidence record's key in shared.json: "<at>|<profile>|<kind>".
std::string evidenceKey(const EvidenceRecord& e);
// The bytes of a queued record: exactly what is shown before and PUT after.
std::string recordText(const SharedRecord& r);
// The keys of the evidence records shared before (<queue>/shared.json), and adding some.
std::set<std::string> sharedKeys(const std::filesystem::path& queue);
Expected<void> markShared(const std::filesystem::path& queue, const std::set<std::string>& keys);
// "Not now" in the window, remembered per "<profile>|<gpu fingerprint>"
// (<queue>/declined.json), so it is asked once per stack and card.
bool declined(const std::filesystem::path& queue, const std::string& profileAndGpu);
Expected<void> decline(const std::filesystem::path& queue, const std::string& profileAndGpu);
// Where records go: `chosen` (settings' ledger_url, --ledger) if set, else
// STACKPILOT_LEDGER_URL, else the installed feed's ledger; "" when none names one.
std::string ledgerAddress(const std::string& chosen);
// The feed's report form (FeedSharing::reportForm) opened with the record filled in: the
// form's address plus "title=" and "record=" (the field a GitHub issue form names `record`),
// both percent-encoded; "" without a form.
std::string reportFormAddress(const std::string& form, const SharedRecord& r);
// Queues `r` (its evidence key marked shared) and, where a ledger URL is set, sends the
// queue at once; without one the report says it waits.
Expected<SendReport> shareOne(const std::filesystem::path& queue, const std::string& key,
                              const SharedRecord& r, const std::string& ledgerUrl);

} // namespace sp::ledger
