// Models in the window (issue 30): what the vault holds and what the catalog offers, the
// model each workload runs with, and pulls with progress, pause and resume. The vault is
// read on the background helper; pulls run on a session of their own (the workflow's one
// pull path, session_pull.cpp), so a model can download while a workload runs.

#include "app/common/session/session.h"
#include "app/gui/controllers/app_controller.h"
#include "app/gui/controllers/background.h"
#include "app/gui/models/plan_view.h"
#include "core/launch/env_composer.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "core/select/select.h"

#include <algorithm>

namespace sp::gui {

namespace fs = std::filesystem;

namespace {

struct VaultState
{
    std::vector<VaultFile> files;
    std::optional<quint64> free;
    std::optional<quint64> installFree; // of the disk the stacks install to
};

// The free space of the disk that holds `dir`, or of its nearest existing parent.
std::optional<quint64> freeOn(fs::path dir)
{
    std::error_code ec;
    while (!fs::exists(dir, ec) && dir.has_parent_path() && dir.parent_path() != dir)
        dir = dir.parent_path();
    if (const auto space = fs::space(dir, ec); !ec)
        return quint64(space.available);
    return std::nullopt;
}

} // namespace

QString AppController::modelsFolder() const
{
    return qpath(ModelVault::defaultRoot());
}

QString AppController::installFolder() const
{
    return qpath(paths::dataDir());
}

void AppController::refreshModels()
{
    if (recordedMachine()) // a recorded PC's vault is not this one's
        return buildModelRows();
    runInBackground(
        this,
        [] {
            VaultState out;
            const ModelVault vault(ModelVault::defaultRoot());
            if (auto files = vault.files())
                out.files = std::move(*files);
            out.free = freeOn(vault.root());
            out.installFree = freeOn(paths::dataDir());
            return out;
        },
        [this](VaultState state) {
            m_vaultFiles = std::move(state.files);
            m_vaultFree = state.free;
            m_installFree = state.installFree;
            buildModelRows();
        });
}

void AppController::buildModelRows()
{
    QVector<ModelRow> rows;
    m_vaultBytes = 0;
    const Catalog* c = catalog();
    auto rowOf = [&](const std::string& id) -> ModelRow* {
        for (ModelRow& r : rows)
            if (toStd(r.id) == id && !id.empty())
                return &r;
        return nullptr;
    };
    if (c)
        for (const Model& m : c->models) {
            ModelRow r;
            r.id = qs(m.id);
            r.name = modelLabel(*c, m.id);
            r.bytes = m.bytes();
            for (const std::string& w : m.workloads)
                if (c->workload(w))
                    r.usedBy << workloadName(qs(w));
            r.fits = modelFits(r.id, {});
            rows.push_back(r);
        }
    for (const VaultFile& f : m_vaultFiles) {
        if (f.storage == VaultStorage::Owned)
            m_vaultBytes += f.size;
        ModelRow* known = rowOf(f.model);
        if (!known) {
            rows.push_back(ModelRow{{}, qs(f.name), f.size, {}, true, false, {}, 0, false});
            continue;
        }
        known->inVault = true;
        known->owned = known->owned || f.storage == VaultStorage::Owned;
    }
    for (ModelRow& r : rows) {
        r.pulling = !m_pulling.isEmpty() && r.id == m_pulling;
        if (const auto it = std::find_if(m_modelRows.begin(), m_modelRows.end(),
                                         [&](const ModelRow& old) { return old.id == r.id; });
            it != m_modelRows.end() && !r.inVault)
            r.received = it->received; // a paused pull keeps what arrived
    }
    m_modelRows = std::move(rows);
    emit modelsChanged();
}

void AppController::pullModel(const QString& id)
{
    if (recordedMachine() || !catalog() || !m_pulling.isEmpty() || !catalog()->model(toStd(id)))
        return;
    if (!m_pullSession) {
        session::Context context =
            session::contextFor(catalog(), m_gpus.snapshot(), currentEnvironment());
        m_pullSession = std::make_unique<session::Session>(
            std::move(context), [this](const session::Event& e) { onPullEvent(e); });
        connect(m_pullSession.get(), &session::Session::finished, this,
                &AppController::onPullFinished);
    }
    if (!m_pullSession->startPull(toStd(id)))
        return;
    m_pulling = id;
    logEvent("pull model " + toStd(id));
    buildModelRows();
}

void AppController::pausePull()
{
    if (m_pullSession && !m_pulling.isEmpty())
        m_pullSession->cancel();
}

// Only a pull's progress and its failure matter here; its end is onPullFinished.
void AppController::onPullEvent(const session::Event& e)
{
    if (const auto* p = std::get_if<session::ArtifactProgress>(&e)) {
        for (ModelRow& r : m_modelRows)
            if (toStd(r.id) == p->runtime) {
                r.received = p->received;
                emit modelsChanged();
            }
    }
}

void AppController::onPullFinished()
{
    const QString id = std::exchange(m_pulling, QString());
    const Expected<bool>& result = m_pullSession->outcome().result;
    // The session emitted this from its own signal: it goes after it returns.
    m_pullSession.release()->deleteLater();
    if (result)
        emit notice(tr("%1 is ready.").arg(modelLabel(*catalog(), toStd(id))), false);
    else if (result.error().code == ErrorCode::Cancelled)
        emit notice(tr("Paused. What arrived is kept; Download goes on from there."), false);
    else
        emit notice(tr("Could not download %1: %2")
                        .arg(modelLabel(*catalog(), toStd(id)), qs(result.error().message)),
                    true);
    refreshModels();
}

void AppController::removeModel(const QString& id)
{
    if (recordedMachine() || id == m_pulling)
        return;
    runInBackground(
        this, [model = toStd(id)] { return ModelVault(ModelVault::defaultRoot()).remove(model); },
        [this](Expected<std::uint64_t> freed) {
            if (!freed)
                emit notice(qs(freed.error().message), true);
            refreshModels();
        },
        orderedPool());
}

bool AppController::takesModel(const QString& workload) const
{
    const Workload* w = catalog() ? catalog()->workload(toStd(workload)) : nullptr;
    return w && w->model;
}

QStringList AppController::modelsFor(const QString& workload) const
{
    QStringList out;
    if (!catalog())
        return out;
    for (const Model* m : session::modelsOf(*catalog(), toStd(workload)))
        out << qs(m->id);
    // An app with model folders runs without a model of ours too: nothing is pulled.
    const Workload* w = catalog()->workload(toStd(workload));
    if (!out.isEmpty() && w && w->model && !w->model->takesFile())
        out.prepend(QLatin1String(session::kNoModel));
    return out;
}

std::optional<bool> AppController::modelFits(const QString& model, const QString& workload) const
{
    const Model* m = catalog() ? catalog()->model(toStd(model)) : nullptr;
    if (!m || !m_session)
        return std::nullopt;
    // The card the workload's plan uses; for the Models view, the one StackPilot picks.
    const PlanView* v = workload.isEmpty() ? nullptr : plan(workload);
    const auto gpu = v && v->plan ? v->plan->gpu : chooseGpu(m_gpus.snapshot());
    return session::modelFits(m_session->context(), *m, gpu);
}

// The same choice `run` makes (session::modelFor), with the window's settings.
QString AppController::modelFor(const QString& workload) const
{
    return m_session ? qs(session::modelFor(m_session->context(), m_settings, toStd(workload)))
                     : QString();
}

void AppController::setModelFor(const QString& workload, const QString& model)
{
    if (model == modelFor(workload))
        return;
    logEvent("model of " + toStd(workload) + ": " + toStd(model));
    updateSettings([w = toStd(workload), m = toStd(model)](Settings& s) -> Expected<void> {
        s.workloads[w].model = m;
        return {};
    });
}

} // namespace sp::gui
