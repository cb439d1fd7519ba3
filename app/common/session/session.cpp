#include "app/common/session/session.h"

#include "app/common/diag/log_filter.h"
#include "core/clock.h"
#include "core/launch/launch_session.h"
#include "core/launch/step_receipt.h"
#include "core/paths.h"
#include "core/remedy/remedy.h"
#include "core/select/workload_overrides.h"

#include <QEventLoop>
#include <QTimer>
#include <algorithm>

namespace sp::session {

namespace {

Event toEvent(const InstallEvent& e)
{
    switch (e.kind) {
    case InstallEvent::Kind::Progress:
        return ArtifactProgress{e.runtimeId,          e.artifact,       e.artifactName,
                                e.progress.received,  e.progress.total, e.progress.bytesPerSecond,
                                e.progress.etaSeconds};
    case InstallEvent::Kind::ArtifactDone:
        return ArtifactDone{e.runtimeId, e.artifact, e.artifactName};
    case InstallEvent::Kind::Message:
        break;
    }
    return Notice{Stage::Install, e.runtimeId, e.text};
}

} // namespace

Session::Session(Context context, EventSink sink)
    : m_ctx(std::move(context)), m_sink(std::move(sink))
{
    if (m_ctx.settingsFile.empty())
        m_ctx.settingsFile = Settings::defaultFile();
}

void Session::cancel() noexcept
{
    m_cancels.fetch_add(1);
    m_installCancel.cancel();
}

void Session::send(const Event& e) const
{
    if (!m_sink)
        return;
    std::lock_guard lock(m_emitting);
    m_sink(e);
}

Error Session::fail(Stage stage, Error e) const
{
    send(Failed{stage, e.code, e.message, e.cause});
    return e;
}

Expected<Settings> Session::settings() const
{
    return Settings::loadFile(m_ctx.settingsFile);
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
    options.cancel = m_installCancel;
    options.onEvent = [this, stage](const InstallEvent& e) {
        Event ev = toEvent(e);
        if (auto* n = std::get_if<Notice>(&ev))
            n->stage = stage;
        send(ev);
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

Expected<std::string> Session::chooseProfile(const std::string& workload,
                                             const std::string& profile)
{
    auto chosen = pickProfile(workload, profile);
    if (!chosen)
        return fail(Stage::Plan, chosen.error());
    return chosen;
}

Expected<std::string> Session::pickProfile(const std::string& workload,
                                           const std::string& profile) const
{
    auto settings = this->settings();
    if (!settings)
        return settings.error();
    auto select = selectBase();
    if (!select)
        return select.error();
    SelectSettings base = std::move(*select);
    base.profile = profile;
    SelectSettings st = selectSettingsFor(*settings, workload, base);
    // The settings' choice gives way too once this run moved away from it.
    if (std::find(m_skipped.begin(), m_skipped.end(), st.profile) != m_skipped.end())
        st.profile.clear();
    auto plan = makePlan(m_ctx.snapshot, *m_ctx.catalog, workload, st);
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

Expected<RemedyChange> Session::applyRemedy(const std::string& issue, const std::string& workload)
{
    return changeRemedy(true, issue, workload);
}

Expected<RemedyChange> Session::undoRemedy(const std::string& issue, const std::string& workload)
{
    return changeRemedy(false, issue, workload);
}

Expected<RemedyChange> Session::changeRemedy(bool apply, const std::string& issue,
                                             const std::string& workload)
{
    const auto base = hostSelectSettings(m_ctx.snapshot);
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

Expected<bool> Session::launch(LaunchRequest request, std::filesystem::path* log)
{
    return runLaunch(
        std::move(request), [this](const Event& e) { send(e); }, log);
}

// The launch (or a smoke test: the same, with the smoke test as the workload) on this
// thread, its events to `sink`.
Expected<bool> Session::runLaunch(LaunchRequest request, const EventSink& sink,
                                  std::filesystem::path* log, bool* timedOut)
{
    LaunchSession launch(std::move(request),
                         [&sink](const LaunchEvent& e) { sink(fromLaunchEvent(e)); });
    std::string error;
    if (!launch.start(error))
        return fail(Stage::Launch, Error::runtime(error));
    QEventLoop loop;
    bool finished = false;
    QObject::connect(&launch, &LaunchSession::finished, &loop, [&] {
        finished = true;
        loop.quit();
    });
    // cancel() may come from a signal handler: it is read here, on the loop's thread.
    QTimer poll;
    int handled = 0;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        const int n = m_cancels.load();
        if (n == handled)
            return;
        handled = n;
        n == 1 ? launch.stop() : launch.kill();
    });
    poll.start(50);
    if (!finished)
        loop.exec();
    if (log)
        *log = launch.files().log;
    if (timedOut)
        *timedOut = launch.timedOut();
    return launch.succeeded();
}

} // namespace sp::session
