#include "app/common/ledger/propose.h"

#include "core/json_file.h"
#include "core/paths.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <re2/re2.h>

namespace sp::ledger {

using nlohmann::json;

namespace {

json proofOf(const ReportRow& r, const LedgerPolicy& policy, const std::vector<ReportRow>& byArch)
{
    json families = json::array();
    for (const auto& a : byArch)
        if (a.profile == r.profile && families.size() < 256)
            families.push_back({{"arch", a.arch},
                                {"passed_installs", a.passes},
                                {"failed_installs", a.failures},
                                {"installs", a.installs},
                                {"last_seen", a.lastSeen}});
    return {{"source", "ledger"},          {"window_days", policy.windowDays},
            {"passed_installs", r.passes}, {"failed_installs", r.failures},
            {"installs", r.installs},      {"first_seen", r.firstSeen},
            {"last_seen", r.lastSeen},     {"by_gpu", std::move(families)}};
}

double failureShare(const ReportRow& r)
{
    const long long both = r.passes + r.failures;
    return both == 0 ? 0.0 : double(r.failures) / double(both);
}

std::string percent(double share)
{
    char text[16];
    std::snprintf(text, sizeof text, "%.0f %%", share * 100.0);
    return text;
}

const char* stepDown(const std::string& status)
{
    return status == "tested" ? "community" : "experimental";
}

// The driver on which the profile's failures dominate, if any.
const ReportRow* dominatingFailure(const std::vector<ReportRow>& byDriver,
                                   const std::string& profile, const LedgerPolicy& policy)
{
    for (const auto& r : byDriver)
        if (r.profile == profile && r.failures >= policy.demoteMinInstalls &&
            failureShare(r) >= policy.demoteFailureShare)
            return &r;
    return nullptr;
}

json draftFor(const ReportRow& r, const LedgerPolicy& policy)
{
    return {{"profile", r.profile},
            {"driver_version", r.driver},
            {"title", "Fails on driver " + r.driver + " (ledger draft)"},
            {"failed_installs", r.failures},
            {"passed_installs", r.passes},
            {"first_seen", r.firstSeen},
            {"last_seen", r.lastSeen},
            {"known_issues_seen", r.knownIssues},
            {"decisive_lines", r.decisiveLines},
            {"window_days", policy.windowDays}};
}

void change(nlohmann::ordered_json& profile, Proposal& out, const std::string& to,
            const std::string& reason, json proof)
{
    const std::string from = profile.value("status", "");
    profile["status"] = to;
    profile["proof"] = nlohmann::ordered_json::parse(proof.dump());
    out.changes.push_back({profile.value("id", ""), from, to, reason, std::move(proof)});
}

// The status stays; the proof takes the new counts, unless they are the ones it has.
void refresh(nlohmann::ordered_json& profile, Proposal& out, const ReportRow& r, json proof)
{
    if (profile.contains("proof") && json::parse(profile["proof"].dump()) == proof)
        return;
    const std::string status = profile.value("status", "");
    profile["proof"] = nlohmann::ordered_json::parse(proof.dump());
    out.refreshed.push_back(
        {profile.value("id", ""), status, status,
         std::to_string(r.passes) + " installs passed, " + std::to_string(r.failures) + " failed",
         std::move(proof)});
}

int intField(const json& j, const char* key, int fallback, int lo, int hi, std::string& error)
{
    if (!j.contains(key))
        return fallback;
    if (!j[key].is_number_integer() || j[key].get<long long>() < lo || j[key].get<long long>() > hi)
        error = std::string("'") + key + "' is not a whole number from " + std::to_string(lo) +
                " to " + std::to_string(hi);
    return error.empty() ? j[key].get<int>() : fallback;
}

double shareField(const json& j, const char* key, double fallback, std::string& error)
{
    if (!j.contains(key))
        return fallback;
    if (!j[key].is_number() || j[key].get<double>() < 0.0 || j[key].get<double>() > 1.0)
        error = std::string("'") + key + "' is not a share from 0 to 1";
    return error.empty() ? j[key].get<double>() : fallback;
}

// One past the end of the JSON object whose "{" is at `open`, strings skipped; npos when
// it does not end.
std::size_t objectEnd(const std::string& text, std::size_t open)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = open; open != std::string::npos && i < text.size(); ++i) {
        const char ch = text[i];
        if (inString) {
            i += ch == '\\' ? 1 : 0;
            inString = ch != '"';
        } else if (ch == '"') {
            inString = true;
        } else if (ch == '{' || ch == '}') {
            depth += ch == '{' ? 1 : -1;
            if (depth == 0)
                return i + 1;
        }
    }
    return std::string::npos;
}

// The value `"from"` of the key at `key`, replaced by `to`; false when it is not there.
bool replaceValue(std::string& text, std::size_t key, const std::string& from,
                  const std::string& to)
{
    const std::string value = "\"" + from + "\"";
    const auto at = text.find(value, key);
    if (at == std::string::npos || at > text.find(',', key))
        return false;
    text.replace(at, value.size(), to);
    return true;
}

} // namespace

Expected<LedgerPolicy> readPolicy(const std::filesystem::path& file)
{
    auto doc = readJsonFile(file, {1u << 20, 8}, "ledger policy");
    if (!doc)
        return doc.error();
    const std::string name = paths::toUtf8(file);
    if (!doc->is_object() || !(*doc)["status_rules"].is_object())
        return Error::invalid(name + ": expected an object with \"status_rules\"");
    const json& rules = (*doc)["status_rules"];
    LedgerPolicy p;
    std::string error;
    p.testedMinInstalls =
        intField(rules, "tested_min_installs", p.testedMinInstalls, 1, 1000000, error);
    p.windowDays = intField(rules, "window_days", p.windowDays, 1, 3650, error);
    p.maxFailureShare = shareField(rules, "max_failure_share", p.maxFailureShare, error);
    p.demoteMinInstalls =
        intField(rules, "demote_min_installs", p.demoteMinInstalls, 1, 1000000, error);
    p.demoteFailureShare = shareField(rules, "demote_failure_share", p.demoteFailureShare, error);
    if (!error.empty())
        return Error::invalid(name + ": status_rules: " + error);
    return p;
}

Proposal propose(nlohmann::ordered_json& profiles, const LedgerCounts& all,
                 const LedgerPolicy& policy, const std::string& since)
{
    std::map<std::string, const ReportRow*> counts;
    for (const auto& r : all.byProfile)
        counts[r.profile] = &r;
    Proposal out;
    for (auto& profile : profiles) {
        const std::string id = profile.value("id", "");
        const auto it = counts.find(id);
        if (!profile.is_object() || it == counts.end())
            continue;
        const ReportRow& r = *it->second;
        const std::string status = profile.value("status", "");
        json proof = proofOf(r, policy, all.byArch);
        const ReportRow* bad = dominatingFailure(all.byDriver, id, policy);
        // One driver's failures demote a profile once: a later proposal over the same
        // failures refreshes the counts and keeps the mark.
        const auto* mark = profile.contains("proof") && profile["proof"].is_object() &&
                                   profile["proof"].contains("demoted_on_driver")
                               ? &profile["proof"]["demoted_on_driver"]
                               : nullptr;
        const bool demotedBefore = bad && mark && *mark == bad->driver;
        if (bad)
            proof["demoted_on_driver"] = bad->driver;
        if (bad && !demotedBefore && status != "experimental") {
            change(profile, out, stepDown(status),
                   std::to_string(bad->failures) + " installs failed on driver " + bad->driver +
                       " (" + percent(failureShare(*bad)) + ") since " + since.substr(0, 10),
                   std::move(proof));
            out.drafts.push_back(draftFor(*bad, policy));
        } else if (!bad && status != "tested" && r.passes >= policy.testedMinInstalls &&
                   failureShare(r) < policy.maxFailureShare) {
            change(profile, out, "tested",
                   std::to_string(r.passes) + " installs passed since " + since.substr(0, 10) +
                       ", " + percent(failureShare(r)) + " failed",
                   std::move(proof));
        } else {
            refresh(profile, out, r, std::move(proof));
        }
    }
    return out;
}

std::optional<std::string> patchCatalogText(const std::string& text,
                                            const std::vector<StatusChange>& changes)
{
    std::string out = text;
    for (const auto& c : changes) {
        const RE2 id("\"id\"\\s*:\\s*\"" + RE2::QuoteMeta(c.profile) + "\"");
        re2::StringPiece rest(out);
        re2::StringPiece found;
        if (!RE2::PartialMatch(rest, "(" + id.pattern() + ")", &found))
            return std::nullopt;
        const std::size_t from = std::size_t(found.data() - out.data());
        // The profile's own "status" and "proof": before the next profile's "id".
        const auto next = out.find("\"id\"", from + found.size());
        const auto inProfile = [next](std::size_t at) {
            return at != std::string::npos && (next == std::string::npos || at < next);
        };
        const auto status = out.find("\"status\"", from);
        if (!inProfile(status))
            return std::nullopt;
        if (const auto proof = out.find("\"proof\"", from); inProfile(proof)) {
            const auto open = out.find('{', proof);
            const auto end = objectEnd(out, open);
            if (end == std::string::npos || !inProfile(open))
                return std::nullopt;
            // The later of the two first, so the earlier one's position still holds.
            const bool proofLater = open > status;
            if (proofLater)
                out.replace(open, end - open, c.proof.dump());
            if (!replaceValue(out, status, c.from, "\"" + c.to + "\""))
                return std::nullopt;
            if (!proofLater)
                out.replace(open, end - open, c.proof.dump());
        } else if (!replaceValue(out, status, c.from,
                                 "\"" + c.to + "\", \"proof\": " + c.proof.dump())) {
            return std::nullopt;
        }
    }
    return out;
}

Expected<std::string> daysBefore(const std::string& now, int days)
{
    using namespace std::chrono;
    int y = 0;
    unsigned m = 0, d = 0;
    if (now.size() < 10 || std::sscanf(now.c_str(), "%4d-%2u-%2u", &y, &m, &d) != 3)
        return Error::usage("expected a date as YYYY-MM-DD, not \"" + now.substr(0, 20) + "\"");
    const year_month_day date{year{y}, month{m}, day{d}};
    if (!date.ok())
        return Error::usage("no such date: " + now.substr(0, 10));
    const year_month_day then{sys_days{date} - std::chrono::days{days}};
    char text[32];
    std::snprintf(text, sizeof text, "%04d-%02u-%02uT00:00:00Z", int(then.year()),
                  unsigned(then.month()), unsigned(then.day()));
    return std::string(text);
}

} // namespace sp::ledger
