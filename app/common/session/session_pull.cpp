// Models into the vault through the session (issue 30): the window's Models view pulls one
// on its own, and a run whose model is not in the vault yet pulls it after the checklist
// (which counts its size), then hands it to the workload. One pull path for both front
// ends: the vault's streaming, resumable, verified pipeline (installers/model_vault.h),
// with its progress as the session's events.

#include "app/common/session/session.h"
#include "core/catalog/placeholders.h"
#include "core/paths.h"
#include "installers/model_vault.h"
#include "installers/model_view.h"

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

// A gated model answers 401 or 403 until its license is accepted with the account whose
// token StackPilot sends: one line that names the page.
Error gatedOrAsIs(const Model& model, Error e, bool haveToken)
{
    const bool refused = e.message.find("HTTP 401") != std::string::npos ||
                         e.message.find("HTTP 403") != std::string::npos;
    if (!refused || !model.license.acceptRequired)
        return e;
    const std::string page =
        model.license.url.empty() ? model.files.front().url : model.license.url;
    return Error::runtime(model.id + " is gated: accept its license at " + page +
                          (haveToken ? " with the Hugging Face account of your token"
                                     : ", then give StackPilot a Hugging Face token (Settings, or "
                                       "HF_TOKEN)"))
        .withCause(e.cause);
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
        Outcome out;
        if (pulled) {
            out.result = true;
            out.pull = std::move(*pulled);
        } else {
            out.result = fail(Stage::Install, pulled.error());
        }
        finish(std::move(out));
    });
}

Expected<PullReport> Session::pullModel(const Model& model)
{
    ModelVault vault = vaultOf(m_ctx);
    PullOptions o;
    std::string token;
    if (auto s = settings()) {
        o.downloader.proxy = s->proxy;
        token = s->hfToken;
    }
    if (const auto env = m_ctx.userEnv.find("HF_TOKEN");
        token.empty() && env != m_ctx.userEnv.end())
        token = env->second;
    if (!token.empty()) // the model's host only: never a mirror or a CDN it redirects to
        o.downloader.bearer = DownloaderOptions::HostToken{"huggingface.co", token};
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
        return gatedOrAsIs(model, report.error(), !token.empty());
    for (std::size_t i = 0; i < report->files.size(); ++i)
        send(ArtifactDone{model.id, int(i), report->files[i].name});
    for (const std::string& note : report->notes)
        send(Notice{Stage::Install, model.id, note});
    send(RuntimeInstalled{model.id, vault.root() / "blobs", report->files.size(),
                          report->alreadyThere});
    return report;
}

Expected<void> Session::resolveRunModel()
{
    m_pullModel = nullptr;
    m_viewLater = false;
    std::string ref = m_run.model;
    if (ref.empty())
        if (auto s = settings())
            ref = modelFor(m_ctx, *s, m_run.workload);
    if (ref == kNoModel) // an app with folders, run on what they hold
        ref.clear();
    const Workload* w = m_ctx.catalog->workload(m_run.workload);
    const bool folders = w && w->model && !w->model->takesFile();
    if (ref.empty() && !folders)
        return {};
    if (const Model* m = ref.empty() ? nullptr : m_ctx.catalog->model(ref);
        m && !vaultOf(m_ctx).pathOf(*m)) {
        if (!w || !w->model)
            return Error::usage(m_run.workload + " takes no model");
        m_pullModel = m; // after the checklist (pullRunModel)
        return {};
    }
    // A view of the vault is written into StackPilot's folders: not before the checklist.
    if (folders) {
        m_viewLater = true;
        return {};
    }
    auto args = handOver(ref);
    if (!args)
        return args.error();
    m_run.extraArgs.insert(m_run.extraArgs.begin(), args->begin(), args->end());
    return {};
}

Expected<std::vector<std::string>> Session::handOver(const std::string& ref)
{
    const Workload* w = m_ctx.catalog->workload(m_run.workload);
    if (w && w->model && !w->model->takesFile())
        return viewArgs(*w);
    return modelArgs(m_run.workload, ref);
}

// An app with model folders: the vault's view in them, and the arguments that name it.
Expected<std::vector<std::string>> Session::viewArgs(const Workload& w)
{
    auto view = buildModelView(vaultOf(m_ctx), *m_ctx.catalog, w.id, w.model->view);
    if (!view)
        return view.error();
    std::vector<std::string> args;
    for (const std::string& a : w.model->args) {
        std::optional<Error> failed;
        args.push_back(
            expandPlaceholders(a, [&](const std::string& name) -> std::optional<std::string> {
                if (name == "model_view")
                    return paths::toUtf8(view->root);
                if (name != "model_paths_yaml")
                    return std::nullopt;
                auto file = writeComfyModelPaths(*view, w.model->view);
                if (!file) {
                    failed = file.error();
                    return std::string();
                }
                return paths::toUtf8(*file);
            }));
        if (failed)
            return *failed;
    }
    send(Notice{Stage::Plan,
                {},
                std::to_string(view->linked) + " model file(s) of the vault shown to " + w.id +
                    " in " + paths::toUtf8(view->root) + " (links, no copies)"});
    return args;
}

// After the checklist: the model into the vault, then the request again with its
// arguments.
Expected<void> Session::pullRunModel(LaunchRequest& request)
{
    const Model* m = std::exchange(m_pullModel, nullptr);
    if (!m && !std::exchange(m_viewLater, false))
        return {};
    if (m)
        if (auto pulled = pullModel(*m); !pulled)
            return fail(Stage::Install, pulled.error());
    auto args = handOver(m ? m->id : std::string());
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
