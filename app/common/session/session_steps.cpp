// The workflow's steps that run straight through: plan, prepare, install (leftovers
// recovered first), repair, remedies and the settings. They run on the worker inside a
// job, or, the quick ones, on the calling thread.

#include "app/common/diag/log_filter.h"
#include "app/common/session/session.h"
#include "core/clock.h"
#include "core/launch/step_receipt.h"
#include "core/paths.h"
#include "core/remedy/remedy.h"
#include "core/select/workload_overrides.h"

#include <QDateTime>

namespace sp::session {

namespace {

std::string isoNowUtc()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
}

} // namespace

Expected<Settings> Session::settings() const
{
    return Settings::loadFile(m_ctx.settingsFile);
}

std::map<std::string, Expected<Plan>> Session::plans() const
{
    std::map<std::string, Expected<Plan>> out;
    auto settings = this->settings();
    const SelectSettings base = selectBaseFor(m_ctx);
    for (const auto& w : m_ctx.catalog->workloads)
        out.emplace(w.id, settings ? planFor(m_ctx, *settings, w.id, base)
                                   : Expected<Plan>(settings.error()));
    return out;
}

Expected<std::vector<InstallResult>> Session::install(const std::vector<const Runtime*>& runtimes,
                                                      InstallOptions options, Stage stage)
{
    auto settings = this->settings();
    if (!settings)
        return fail(stage, settings.error());
    options.settings = *settings;
    if (options.prefixRoot.empty())
        options.prefixRoot = m_ctx.prefixRoot;
    {
        std::lock_guard lock(m_cancelLock);
        options.cancel = m_installCancel;
    }
    options.onEvent = [this, stage](const events::FromInstall& e) {
        Event ev = widen(e);
        if (auto* n = std::get_if<Notice>(&ev))
            n->stage = stage;
        send(std::move(ev));
    };
    Installer installer(options);
    for (const auto& line : installer.store().recoverAll())
        send(Notice{Stage::Recover, {}, "recovered: " + line});
    std::vector<InstallResult> done;
    int index = 0;
    for (const Runtime* rt : runtimes) {
        send(RuntimeStarted{rt->id, ++index, int(runtimes.size())});
        auto r = installer.install(*rt);
        if (!r)
            return fail(stage, cancelled() ? Error::cancelled("install cancelled; nothing "
                                                              "half-installed was kept")
                                           : r.error());
        send(RuntimeInstalled{r->id, r->dir, r->files, r->alreadyInstalled});
        done.push_back(std::move(*r));
    }
    return done;
}

// An install on its own, journalled while it runs: a restart after a crash finds the
// journal and offers to resume; a failure marks it failed, with its cause.
void Session::runInstall(const InstallWork& work)
{
    std::vector<const Runtime*> runtimes;
    std::vector<std::string> ids;
    for (const Runtime& rt : work.runtimes) {
        runtimes.push_back(&rt);
        ids.push_back(rt.id);
    }
    if (!work.journal.empty())
        if (auto w = writePendingInstall(
                work.journal, PendingInstall{work.workload, work.profile, ids, isoNowUtc(), {}});
            !w)
            send(Notice{work.stage, {}, w.error().message});
    Expected<std::vector<InstallResult>> done = std::vector<InstallResult>{};
    if (work.preflight) {
        const Preflight p = preflight(runtimes, work.options, work.profile);
        if (p.cancelled)
            done = fail(Stage::Preflight, Error::cancelled("nothing was downloaded"));
        else if (p.firstMissing())
            done = fail(Stage::Preflight,
                        Error::runtime("a download is missing: " + p.missingReason()));
    }
    if (done)
        done = install(runtimes, work.options, work.stage);
    if (done && !work.repair.empty())
        if (auto r = completeRepair(work.repair, work.workload, paths::dataDir()); !r)
            done = r.error();
    if (!work.journal.empty()) {
        if (done || (cancelled() && !m_closing))
            clearPendingInstall(work.journal);
        else if (!cancelled())
            markPendingInstallFailed(work.journal, done.error().message);
    }
    Outcome o;
    if (done) {
        o.installed = std::move(*done);
        o.result = true;
    } else {
        o.result = done.error();
    }
    finish(std::move(o));
}

Expected<std::string> Session::chooseProfile(const std::string& workload,
                                             const std::string& profile)
{
    auto chosen = pickProfile(workload, profile);
    if (!chosen)
        return fail(Stage::Plan, chosen.error());
    return chosen;
}

Expected<SelectSettings> Session::selectBase() const
{
    std::string note;
    SelectSettings base = selectBaseFor(m_ctx, m_skipped, &note);
    // A damaged evidence file costs the ranking its local evidence, not the launch.
    if (!note.empty())
        send(Notice{Stage::Plan, {}, note});
    return base;
}

Expected<std::string> Session::pickProfile(const std::string& workload,
                                           const std::string& profile) const
{
    auto settings = this->settings();
    if (!settings)
        return settings.error();
    auto base = selectBase();
    if (!base)
        return base.error();
    auto plan = planFor(m_ctx, *settings, workload, std::move(*base), profile);
    if (!plan)
        return plan.error();
    if (plan->profile.empty())
        return Error::runtime("no profile of " + workload +
                              " fits this machine (see: stackpilot-cli plan --workload " +
                              workload + ")");
    return plan->profile;
}

Expected<LaunchRequest> Session::prepare(const std::string& profile,
                                         const std::vector<std::string>& extraArgs)
{
    auto settings = this->settings();
    if (!settings)
        return fail(Stage::Plan, settings.error());
    LaunchSetup setup;
    setup.catalog = m_ctx.catalog;
    setup.snapshot = m_ctx.snapshot;
    setup.profile = profile;
    auto select = selectBase();
    if (!select)
        return fail(Stage::Plan, select.error());
    setup.select = std::move(*select);
    setup.settings = std::move(*settings);
    setup.userEnv = m_ctx.userEnv;
    setup.extraArgs = extraArgs;
    setup.logsRoot = paths::logDir();
    setup.dataDir = paths::fromUtf8(setup.select.dataDir);
    auto request = prepareLaunch(setup);
    if (!request)
        return fail(Stage::Plan, request.error());
    // No log on disk holds a secret of the environment or of the settings.
    diag::redactLaunchLog(*request, setup);
    return request;
}

// The one place a repair remedy's reinstall happens before a launch.
Expected<void> Session::repair(LaunchRequest& request)
{
    if (request.plan.repair.empty())
        return {};
    std::vector<const Runtime*> runtimes;
    for (const std::string& id : request.plan.repair)
        if (const Runtime* rt = m_ctx.catalog->runtime(id))
            runtimes.push_back(rt);
    InstallOptions options;
    options.force = true;
    if (auto done = install(runtimes, options, Stage::Repair); !done)
        return done.error();
    if (auto done = completeRepair(request.plan.repair, request.plan.workload, request.dataDir);
        !done)
        return done;
    request.rerunSteps = true;
    return {};
}

Expected<void> Session::completeRepair(const std::vector<std::string>& runtimeIds,
                                       const std::string& workload,
                                       const std::filesystem::path& dataDir)
{
    if (m_ctx.catalog)
        for (const std::string& id : runtimeIds)
            clearStepReceiptsUsing(*m_ctx.catalog, id, dataDir);
    auto saved = Settings::update(m_ctx.settingsFile, [&](Settings& s) {
        completeRepairs(s, workload);
        return Expected<void>();
    });
    if (!saved)
        return fail(Stage::Repair, saved.error());
    return {};
}

Expected<void> Session::readyToLaunch(LaunchRequest& request, bool installMissing,
                                      const InstallOptions& base)
{
    if (auto repaired = repair(request); !repaired)
        return repaired;
    const auto missing = missingRuntimes(request.plan);
    if (missing.empty())
        return {};
    if (!installMissing)
        return fail(Stage::Install,
                    Error::runtime("not installed: " + missing.front() +
                                   " (run: stackpilot-cli install " + request.plan.profile + ")"));
    std::vector<const Runtime*> runtimes;
    for (const std::string& id : missing)
        if (const Runtime* rt = m_ctx.catalog->runtime(id))
            runtimes.push_back(rt);
    if (auto done = install(runtimes, base); !done)
        return done.error();
    return {};
}

Expected<RemedyChange> Session::applyRemedy(const std::string& issue, const std::string& workload)
{
    return changeRemedy(true, issue, workload);
}

Expected<RemedyChange> Session::undoRemedy(const std::string& issue, const std::string& workload)
{
    return changeRemedy(false, issue, workload);
}

Expected<RemedyChange> Session::previewRemedy(const std::string& issue, const std::string& workload)
{
    auto settings = this->settings();
    if (!settings)
        return settings.error();
    return remedyPreview(m_ctx, *settings, issue, workload, selectBaseFor(m_ctx));
}

Expected<RemedyChange> Session::changeRemedy(bool apply, const std::string& issue,
                                             const std::string& workload)
{
    if (m_ctx.recorded)
        return Error::usage("a recorded PC's settings are not this PC's: nothing was changed");
    const auto base = selectBaseFor(m_ctx);
    std::optional<RemedyChange> change;
    auto saved = Settings::update(m_ctx.settingsFile, [&](Settings& s) {
        auto c = apply ? sp::applyRemedy(s, *m_ctx.catalog, m_ctx.snapshot, issue, workload, base,
                                         Clock::system())
                       : sp::undoRemedy(s, *m_ctx.catalog, m_ctx.snapshot, issue, workload, base);
        if (!c)
            return Expected<void>(c.error());
        change = std::move(*c);
        return Expected<void>();
    });
    if (!saved)
        return saved.error(); // a usage error (an advice-only issue) is not an event
    return std::move(*change);
}

} // namespace sp::session
