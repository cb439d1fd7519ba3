#include "app/common/session/plans.h"

#include "core/clock.h"
#include "core/format.h"
#include "core/models/model_fit.h"
#include "core/paths.h"
#include "core/select/gpu_choice.h"
#include "core/select/workload_overrides.h"
#include "installers/model_vault.h"
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

std::vector<const Model*> modelsOf(const Catalog& catalog, const std::string& workload)
{
    std::vector<const Model*> out;
    for (const Model& m : catalog.models)
        if (std::find(m.workloads.begin(), m.workloads.end(), workload) != m.workloads.end())
            out.push_back(&m);
    std::stable_sort(out.begin(), out.end(),
                     [](const Model* a, const Model* b) { return a->bytes() < b->bytes(); });
    return out;
}

std::optional<bool> modelFits(const Context& c, const Model& model, std::optional<int> gpu)
{
    if (!gpu || std::size_t(*gpu) >= c.snapshot.gpus.size() || !model.minVramMb)
        return std::nullopt;
    const auto vram = c.snapshot.gpus[std::size_t(*gpu)].vramMb;
    if (!vram)
        return std::nullopt;
    return std::uint64_t(*vram) >= *model.minVramMb;
}

std::string modelFor(const Context& c, const Settings& settings, const std::string& workload)
{
    const Workload* w = c.catalog->workload(workload);
    if (!w || !w->model)
        return {};
    if (const auto it = settings.workloads.find(workload);
        it != settings.workloads.end() && !it->second.model.empty())
        return it->second.model;
    const auto models = modelsOf(*c.catalog, workload);
    if (models.empty())
        return {};
    const auto gpu = plannedGpu(c, &settings, workload);
    const Model* best = models.front();
    for (const Model* m : models)
        if (modelFits(c, *m, gpu).value_or(false))
            best = m;
    return best->id;
}

ModelChoice describeModel(const Context& c, const Settings& settings, const std::string& workload)
{
    ModelChoice out;
    out.id = modelFor(c, settings, workload);
    if (out.id.empty() || out.id == kNoModel)
        return {};
    const auto gpu = plannedGpu(c, &settings, workload);
    const auto vram = gpu && std::size_t(*gpu) < c.snapshot.gpus.size()
                          ? c.snapshot.gpus[std::size_t(*gpu)].vramMb
                          : std::nullopt;
    std::filesystem::path file;
    if (const Model* m = c.catalog->model(out.id)) {
        out.name = m->ui.name.en.empty() ? m->id : m->ui.name.en;
        out.bytes = m->bytes();
        out.fits = modelFits(c, *m, gpu);
        const ModelVault vault(c.modelsRoot.empty() ? ModelVault::defaultRoot() : c.modelsRoot);
        if (auto at = vault.pathOf(*m))
            file = *at;
        if (m->minVramMb)
            out.why = "needs at least " + format::vramMb(std::int64_t(*m->minVramMb)) +
                      (vram ? "; the card has " + format::vramMb(vram) : std::string());
    } else {
        out.name = out.id;
        out.userFile = true;
        file = paths::fromUtf8(out.id);
    }
    out.inVault = !file.empty() && !out.userFile;
    // A GGUF on disk says exactly what fits: its layers and context on this card.
    if (auto header = file.empty() ? Expected<models::GgufInfo>(Error::invalid("none"))
                                   : models::readGguf(file)) {
        const auto fit = models::fitToCard(
            *header,
            vram ? std::optional<std::uint64_t>(std::uint64_t(*vram) << 20) : std::nullopt);
        out.fits = fit.fits;
        out.why = fit.why;
    }
    return out;
}

nlohmann::json toJson(const ModelChoice& m)
{
    if (m.id.empty())
        return nullptr;
    return {{"id", m.id},
            {"name", m.name},
            {"bytes", m.bytes},
            {"fits", m.fits ? nlohmann::json(*m.fits) : nlohmann::json(nullptr)},
            {"in_vault", m.inVault},
            {"user_file", m.userFile},
            {"why", m.why}};
}

Expected<RemedyChange> remedyPreview(const Context& c, Settings& settings, const std::string& issue,
                                     const std::string& workload, const SelectSettings& base)
{
    return sp::applyRemedy(settings, *c.catalog, c.snapshot, issue, workload, base,
                           Clock::system());
}

} // namespace sp::session
