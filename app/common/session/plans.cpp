#include "app/common/session/plans.h"

#include "core/clock.h"
#include "core/select/gpu_choice.h"
#include "core/select/workload_overrides.h"
#include "installers/pin_store.h"

#include <algorithm>

namespace sp::session {

Expected<std::map<std::string, LocalVerdict>> machineVerdicts(const Context& c,
                                                              std::optional<int> gpu)
{
    const EvidenceStore evidence(c.evidenceFile.empty() ? EvidenceStore::defaultFile()
                                                        : c.evidenceFile);
    auto records = evidence.records();
    if (!records)
        return records.error();
    return sp::verdictsFor(*records, fingerprintOf(c.snapshot, gpu));
}

namespace {

std::optional<GpuIdentity> rememberedGpu(const Settings* settings, const std::string& workload)
{
    if (settings)
        if (const auto w = settings->workloads.find(workload); w != settings->workloads.end())
            return w->second.gpu;
    return std::nullopt;
}

} // namespace

std::optional<int> plannedGpu(const Context& c, const Settings* settings,
                              const std::string& workload)
{
    auto pick = pickGpu(c.snapshot, c.gpuSpec, rememberedGpu(settings, workload));
    return pick ? pick->index : chooseGpu(c.snapshot);
}

std::vector<std::string> gpuNotes(const Context& c, const Settings* settings,
                                  const std::string& workload)
{
    auto pick = pickGpu(c.snapshot, c.gpuSpec, rememberedGpu(settings, workload));
    return pick ? pick->warnings : std::vector<std::string>{};
}

SelectSettings selectBaseFor(const Context& c, const std::vector<std::string>& excluded,
                             std::string* note)
{
    SelectSettings base = hostSelectSettings(c.snapshot);
    base.excludeProfiles = excluded;
    base.gpuSpec = c.gpuSpec;
    // The default card's records; planFor takes the chosen card's where it differs.
    if (auto verdicts = machineVerdicts(c, chooseGpu(c.snapshot)))
        base.localVerdicts = std::move(*verdicts);
    else if (note)
        *note = verdicts.error().message + " (planning without this machine's records)";
    base.pinnedHere = PinStore().urls();
    return base;
}

Expected<Plan> planFor(const Context& c, const Settings& settings, const std::string& workload,
                       SelectSettings base, const std::string& profile)
{
    base.profile = profile;
    const std::vector<std::string> excluded = base.excludeProfiles;
    SelectSettings st = selectSettingsFor(settings, workload, std::move(base));
    // The records that count are the chosen card's (--gpu, then settings, then the rule).
    if (auto pick = pickGpu(c.snapshot, st.gpuSpec, st.gpuChoice);
        pick && pick->index != chooseGpu(c.snapshot)) {
        auto verdicts = machineVerdicts(c, pick->index);
        st.localVerdicts = verdicts ? std::move(*verdicts) : decltype(st.localVerdicts){};
    }
    // The settings' choice gives way too once a run moved away from it.
    if (std::find(excluded.begin(), excluded.end(), st.profile) != excluded.end())
        st.profile.clear();
    return makePlan(c.snapshot, *c.catalog, workload, st);
}

Expected<RemedyChange> remedyPreview(const Context& c, Settings& settings, const std::string& issue,
                                     const std::string& workload, const SelectSettings& base)
{
    return sp::applyRemedy(settings, *c.catalog, c.snapshot, issue, workload, base,
                           Clock::system());
}

} // namespace sp::session
