// What the session does with this machine's records beyond ranking: `rollback` to the
// last stack that passed here, and `bench`, the smoke tests of every installed stack
// side by side.

#include "app/common/session/session.h"
#include "core/launch/launch_prep.h"
#include "core/select/workload_overrides.h"

#include <algorithm>
#include <map>

namespace sp::session {

namespace {

// The profile rollback returns to. Only the workload's own profiles, as the catalog
// lists them, count (a record naming another workload's profile, forged or stale, is
// not one), and of each only its latest smoke test on this card: one that failed since
// it passed is not a way back. Of those whose latest passed, one with today's driver and
// OS build first, then the most recent.
const EvidenceRecord* lastPassing(const std::vector<EvidenceRecord>& records,
                                  const std::string& workload, const MachineFingerprint& here,
                                  const Catalog& catalog)
{
    std::map<std::string, std::size_t> latest; // profile -> index of its latest record
    for (std::size_t i = 0; i < records.size(); ++i) {
        const EvidenceRecord& r = records[i];
        const Profile* p = catalog.profile(r.profile);
        if (r.kind == EvidenceKind::Verify && r.machine.sameCard(here) && p &&
            p->workload == workload)
            latest[r.profile] = i; // kept oldest first: the last one is the latest
    }
    const EvidenceRecord* best = nullptr;
    std::size_t bestAt = 0;
    for (const auto& [profile, i] : latest) {
        const EvidenceRecord& r = records[i];
        if (!r.passed)
            continue;
        const bool current = r.machine.sameSoftware(here);
        if (!best || (current && !best->machine.sameSoftware(here)) ||
            (current == best->machine.sameSoftware(here) && i > bestAt)) {
            best = &r;
            bestAt = i;
        }
    }
    return best;
}

std::vector<std::string> versionNotes(const EvidenceRecord& r, const Catalog& catalog)
{
    std::vector<std::string> notes;
    for (const auto& rt : r.runtimes) {
        const Runtime* now = catalog.runtime(rt.id);
        if (!now)
            notes.push_back(rt.id + " " + rt.version + " is no longer in the catalog");
        else if (now->version != rt.version)
            notes.push_back(rt.id + " was " + rt.version + " when it passed; the catalog now has " +
                            now->version +
                            " (stackpilot-cli catalog rollback returns to an earlier "
                            "catalog)");
    }
    return notes;
}

} // namespace

Expected<Rollback> Session::rollback(const std::string& workload)
{
    const EvidenceStore evidence(m_ctx.evidenceFile.empty() ? EvidenceStore::defaultFile()
                                                            : m_ctx.evidenceFile);
    auto records = evidence.records();
    if (!records)
        return records.error();
    auto settings = this->settings();
    const auto gpu = plannedGpu(m_ctx, settings ? &*settings : nullptr, workload);
    const EvidenceRecord* r =
        lastPassing(*records, workload, fingerprintOf(m_ctx.snapshot, gpu), *m_ctx.catalog);
    if (!r)
        return Error::runtime("no profile of " + workload +
                              " in the catalog has its latest smoke test on this card passed "
                              "(stackpilot-cli verify-stack PROFILE checks one)");
    auto saved = Settings::update(m_ctx.settingsFile, [&](Settings& s) {
        s.workloads[workload].profile = r->profile;
        return Expected<void>();
    });
    if (!saved)
        return saved.error();
    return Rollback{r->profile, r->at, versionNotes(*r, *m_ctx.catalog)};
}

bool Session::startBench(std::string workload)
{
    return begin([this, workload = std::move(workload)] {
        auto best = pickProfile(workload, "");
        if (!best)
            return finish(fail(Stage::Plan, best.error()));
        auto first = prepare(*best, {});
        if (!first)
            return finish(first.error());
        std::vector<std::string> ids{*best};
        for (const auto& alt : first->plan.alternatives)
            if (alt.verdict == "available")
                ids.push_back(alt.profile);
        benchNext(std::move(ids), 0);
    });
}

// One profile's timed smoke test after another; the outcome lists them.
void Session::benchNext(std::vector<std::string> ids, std::size_t at)
{
    for (; at < ids.size() && !cancelled(); ++at) {
        auto request = prepare(ids[at], {});
        if (!request || request->plan.verify.empty() || !missingRuntimes(request->plan).empty())
            continue; // not installed, or nothing to time
        verifyThen(*request, EvidenceKind::Bench,
                   [this, ids, at](Expected<StackVerified> v) mutable {
                       if (!v)
                           return finish(v.error());
                       benchNext(std::move(ids), at + 1);
                   });
        return;
    }
    finish(true);
}

} // namespace sp::session
