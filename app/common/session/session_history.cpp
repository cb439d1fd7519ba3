// What the session does with this machine's records beyond ranking: `rollback` to the
// last stack that passed here, and `bench`, the smoke tests of every installed stack
// side by side.

#include "app/common/session/session.h"
#include "core/launch/launch_prep.h"
#include "core/select/workload_overrides.h"

#include <algorithm>

namespace sp::session {

namespace {

// The last passing smoke test of the workload on this card, preferring one with the
// driver and OS build of today.
const EvidenceRecord* lastPassing(const std::vector<EvidenceRecord>& records,
                                  const std::string& workload, const MachineFingerprint& here)
{
    const EvidenceRecord* best = nullptr;
    for (const auto& r : records) {
        if (r.kind != EvidenceKind::Verify || !r.passed || r.workload != workload ||
            !r.machine.sameCard(here))
            continue;
        if (!best || r.machine.sameSoftware(here) || !best->machine.sameSoftware(here))
            best = &r;
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
    const EvidenceRecord* r =
        lastPassing(*records, workload, fingerprintOf(m_ctx.snapshot, chooseGpu(m_ctx.snapshot)));
    if (!r)
        return Error::runtime("no profile of " + workload +
                              " has passed its smoke test on this machine yet (stackpilot-cli "
                              "verify-stack PROFILE checks one)");
    if (!m_ctx.catalog->profile(r->profile))
        return Error::runtime(r->profile + " passed here on " + r->at.substr(0, 10) +
                              " but is no longer in the catalog");
    auto saved = Settings::update(m_ctx.settingsFile, [&](Settings& s) {
        s.workloads[workload].profile = r->profile;
        return Expected<void>();
    });
    if (!saved)
        return saved.error();
    return Rollback{r->profile, r->at, versionNotes(*r, *m_ctx.catalog)};
}

Expected<std::vector<StackVerified>> Session::bench(const std::string& workload)
{
    auto best = pickProfile(workload, "");
    if (!best)
        return best.error();
    auto first = prepare(*best, {});
    if (!first)
        return first.error();
    std::vector<std::string> ids{*best};
    for (const auto& alt : first->plan.alternatives)
        if (alt.verdict == "available")
            ids.push_back(alt.profile);
    std::vector<StackVerified> out;
    for (const std::string& id : ids) {
        auto request = id == *best ? std::move(first) : prepare(id, {});
        if (!request || request->plan.verify.empty() || !missingRuntimes(request->plan).empty())
            continue; // not installed, or nothing to time
        auto v = verify(*request, EvidenceKind::Bench);
        if (!v)
            return v.error();
        out.push_back(std::move(*v));
        if (cancelled())
            break;
    }
    return out;
}

} // namespace sp::session
