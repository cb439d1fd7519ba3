// A run with a model (RunOptions::model, `run --model`, the window's model chooser): the
// catalog id of a model in the vault, or the user's own file, handed to the workload by
// the arguments its catalog entry declares, with the context and GPU layers that fit
// the planned card (core/models/model_fit.h). Checked before anything is installed.

#include "app/common/session/session.h"
#include "core/catalog/placeholders.h"
#include "core/models/model_fit.h"
#include "core/paths.h"
#include "core/select/select.h"
#include "installers/model_vault.h"

#include <algorithm>

namespace sp::session {

namespace {

// The file `ref` names: a catalog model's file in the vault, or a path.
Expected<std::filesystem::path> modelFile(const Catalog& catalog, const std::string& ref,
                                          const std::filesystem::path& vaultRoot)
{
    if (const Model* m = catalog.model(ref)) {
        const ModelVault vault(vaultRoot.empty() ? ModelVault::defaultRoot() : vaultRoot);
        if (auto at = vault.pathOf(*m))
            return *at;
        return Error::usage("model " + ref +
                            " is not in the vault yet: stackpilot-cli models "
                            "pull " +
                            ref);
    }
    const std::filesystem::path file = paths::fromUtf8(ref);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        return Error::usage("--model: '" + ref + "' is neither a model of the catalog nor a file");
    return std::filesystem::absolute(file, ec);
}

std::optional<std::uint64_t> plannedVram(const HardwareSnapshot& snapshot, std::optional<int> gpu)
{
    if (!gpu || !snapshot.gpus[std::size_t(*gpu)].vramMb)
        return std::nullopt;
    return std::uint64_t(*snapshot.gpus[std::size_t(*gpu)].vramMb) << 20;
}

} // namespace

Expected<std::vector<std::string>> Session::modelArgs(const std::string& workload,
                                                      const std::string& ref)
{
    const Workload* w = m_ctx.catalog->workload(workload);
    if (!w)
        return Error::usage("unknown workload '" + workload + "'");
    if (!w->model)
        return Error::usage(workload + " takes no model");
    auto file = modelFile(*m_ctx.catalog, ref, m_ctx.modelsRoot);
    if (!file)
        return file.error();
    const bool gguf =
        std::find(w->model->kinds.begin(), w->model->kinds.end(), "gguf") != w->model->kinds.end();
    models::ModelFit fit;
    if (gguf) {
        auto header = models::readGguf(*file);
        if (!header)
            return Error::invalid(workload + " runs GGUF models: " + header.error().message);
        auto settings = this->settings();
        const auto gpu = plannedGpu(m_ctx, settings ? &*settings : nullptr, workload);
        fit = models::fitToCard(*header, plannedVram(m_ctx.snapshot, gpu));
        send(Notice{Stage::Plan, {}, models::describe(*header) + ": " + fit.why});
    }
    std::vector<std::string> args;
    for (const std::string& a : w->model->args)
        args.push_back(
            expandPlaceholders(a, [&](const std::string& name) -> std::optional<std::string> {
                if (name == "model")
                    return paths::toUtf8(*file);
                if (name == "model_context")
                    return std::to_string(fit.context);
                if (name == "model_gpu_layers") // llama.cpp: a number past the count means all
                    return fit.gpuLayers ? std::to_string(*fit.gpuLayers) : "999";
                return std::nullopt;
            }));
    return args;
}

} // namespace sp::session
