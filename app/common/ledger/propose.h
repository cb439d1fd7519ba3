#pragma once
// `ledger propose`: the catalog's profile statuses as the ledger's counts say they should
// be, by rules kept in policy data (profiles/ledger/policy.json, docs/LEDGER.md):
//  - a profile passed by at least `tested_min_installs` distinct installs within
//    `window_days`, with failing installs under `max_failure_share`, becomes `tested`;
//  - a profile whose failures dominate on one driver version (at least
//    `demote_min_installs` failing installs and a failing share of at least
//    `demote_failure_share`) goes down one step (tested -> community -> experimental), and a
//    known-issue draft names the driver, the counts and the decisive lines.
// Each changed profile carries its counts and dates in `proof`, so `catalog diff` shows them
// and `catalog publish` signs them.

#include "app/common/ledger/ledger_store.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sp::ledger {

struct LedgerPolicy
{
    int testedMinInstalls = 20;
    int windowDays = 180;
    double maxFailureShare = 0.1;
    int demoteMinInstalls = 5;
    double demoteFailureShare = 0.5;
};
Expected<LedgerPolicy> readPolicy(const std::filesystem::path& file);

struct StatusChange
{
    std::string profile;
    std::string from, to;
    std::string reason; // in words, with the counts
    nlohmann::json proof;
};

struct Proposal
{
    std::vector<StatusChange> changes;
    // Profiles whose status stays and whose counts changed: from == to, a new proof.
    std::vector<StatusChange> refreshed;
    nlohmann::json drafts = nlohmann::json::array(); // known-issue drafts, one per demotion
};

// The ledger's counts since a date: per profile, per profile and driver, per profile and
// GPU family (LedgerStore::counts).
struct LedgerCounts
{
    std::vector<ReportRow> byProfile, byDriver, byArch;
};

// What the counts since `since` (ISO date) change in `profiles` (a catalog file's
// "profiles" list), applied in place: statuses, and every counted profile's proof with its
// counts per GPU family ("by_gpu"), which the window shows as "Passed on 20 PCs with a
// graphics card like yours".
// The catalog file keeps its key order (ordered_json), so its diff shows only the change.
Proposal propose(nlohmann::ordered_json& profiles, const LedgerCounts& counts,
                 const LedgerPolicy& policy, const std::string& since);

// The catalog file's text with only the changed profiles' "status" values and "proof"
// objects replaced (a one-line "proof" after "status" where there was none), so a
// reviewer's diff shows the change and nothing else; nullopt when a profile's text is not
// where it is expected. The caller checks that the result parses to the proposed document.
std::optional<std::string> patchCatalogText(const std::string& text,
                                            const std::vector<StatusChange>& changes);

// `now` minus `days`, as an ISO 8601 date-time ("2026-06-01T00:00:00Z"); `now` is
// "YYYY-MM-DD" or a full date-time.
Expected<std::string> daysBefore(const std::string& now, int days);

} // namespace sp::ledger
