// Models into the vault through the session (issue 30): the window's Models view pulls one
// on its own, and a run whose model is not in the vault yet pulls it after the checklist
// (which counts its size), then hands it to the workload. One pull path for both front
// ends: the vault's streaming, resumable, verified pipeline (installers/model_vault.h),
// with its progress as the session's events.

#include "app/common/session/session.h"
#include "installers/model_vault.h"

namespace sp::session {

namespace {

ModelVault vaultOf(const Context& c)
{
    return ModelVault(c.modelsRoot.empty() ? ModelVault::defaultRoot() : c.modelsRoot);
}

// Which of the model's files a progress report is about: by the URL being read.
int fileIndex(const Model& model, const std::string& url)
{
    for (std::size_t i = 0; i < model.files.size(); ++i) {
        const ModelFile& f = model.files[i];
        if (f.url == url || std::find(f.mirrors.begin(), f.mirrors.end(), url) != f.mirrors.end())
            return int(i);
    }
    return 0;
}

} // namespace

bool Session::startPull(std::string model)
{
    return begin([this, model = std::move(model)] {
        const Model* m = m_ctx.catalog->model(model);
        if (!m)
            return finish(
                fail(Stage::Install, Error::usage("no model '" + model + "' in the catalog")));
        auto pulled = pullModel(*m);
        finish(pulled ? Expected<bool>(true)
                      : Expected<bool>(fail(Stage::Install, pulled.error())));
    });
}

Expected<void> Session::pullModel(const Model& model)
{
    ModelVault vault = vaultOf(m_ctx);
    PullOptions o;
    if (auto s = settings())
        o.downloader.proxy = s->proxy;
    {
        std::lock_guard lock(m_cancelLock);
        o.cancel = m_installCancel;
    }
    o.progress = [this, &model](const DownloadProgress& p) {
        const int at = fileIndex(model, p.url);
        send(ArtifactProgress{model.id, at, model.files[std::size_t(at)].displayName(), p.received,
                              p.total, p.bytesPerSecond, p.etaSeconds});
    };
    send(RuntimeStarted{model.id, 1, 1});
    auto report = vault.pull(model, o);
    if (!report)
        return report.error();
    for (std::size_t i = 0; i < report->files.size(); ++i)
        send(ArtifactDone{model.id, int(i), report->files[i].name});
    for (const std::string& note : report->notes)
        send(Notice{Stage::Install, model.id, note});
    send(RuntimeInstalled{model.id, vault.root() / "blobs", report->files.size(),
                          report->alreadyThere});
    return {};
}

Expected<void> Session::resolveRunModel()
{
    m_pullModel = nullptr;
    std::string ref = m_run.model;
    if (ref.empty())
        if (auto s = settings())
            ref = modelFor(m_ctx, *s, m_run.workload);
    if (ref.empty())
        return {};
    const Model* m = m_ctx.catalog->model(ref);
    if (m && !vaultOf(m_ctx).pathOf(*m)) {
        const Workload* w = m_ctx.catalog->workload(m_run.workload);
        if (!w || !w->model)
            return Error::usage(m_run.workload + " takes no model");
        m_pullModel = m;
        return {};
    }
    auto args = modelArgs(m_run.workload, ref);
    if (!args)
        return args.error();
    m_run.extraArgs.insert(m_run.extraArgs.begin(), args->begin(), args->end());
    return {};
}

// After the checklist: the model into the vault, then the request again with its
// arguments.
Expected<void> Session::pullRunModel(LaunchRequest& request)
{
    const Model* m = std::exchange(m_pullModel, nullptr);
    if (!m)
        return {};
    if (auto pulled = pullModel(*m); !pulled)
        return fail(Stage::Install, pulled.error());
    auto args = modelArgs(m_run.workload, m->id);
    if (!args)
        return fail(Stage::Plan, args.error());
    m_run.extraArgs.insert(m_run.extraArgs.begin(), args->begin(), args->end());
    auto again = prepare(request.plan.profile, m_run.extraArgs);
    if (!again)
        return again.error();
    again->rerunSteps = request.rerunSteps;
    request = std::move(*again);
    return {};
}

} // namespace sp::session
