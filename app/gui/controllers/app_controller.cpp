#include "app/gui/controllers/app_controller.h"

#include "app/common/session/session.h"
#include "app/gui/controllers/background.h"
#include "app/gui/models/plain_words.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "core/select/select.h"
#include "core/select/workload_overrides.h"
#include "core/snapshot.h"

#include <QProcess>
#include <algorithm>

namespace sp::gui {

namespace {

struct DataLoad
{
    Expected<LoadedCatalog> catalog = Error::runtime("not loaded");
    Expected<Settings> settings = Settings{};
    std::optional<PendingInstall> pending;
};

// Who chose a workload's profile: nobody (the recommendation), the user, or a known
// problem's fix that switched it.
PlanChoice choiceOf(const Settings& settings, const std::string& workload)
{
    const auto it = settings.workloads.find(workload);
    if (it == settings.workloads.end() || it->second.profile.empty())
        return PlanChoice::Recommended;
    for (const AppliedRemedy& r : it->second.remedies)
        if (r.action == RemedyAction::SwitchProfile && r.before.profile)
            return PlanChoice::Remedy;
    return PlanChoice::User;
}

} // namespace

AppController::AppController(Options options, QObject* parent)
    : QObject(parent), m_options(std::move(options))
{
    connect(this, &AppController::detected, this, [this] {
        if (!m_detectError.isEmpty())
            reportDetectionFailure();
    });
}

AppController::~AppController()
{
    // The session ends what runs (a launch's tree is killed) and waits for its worker;
    // its late events are dropped with it.
    m_session.reset();
    m_background.clear();
    m_pullSession.reset();
    // A probe may hang in a driver: the detection child is killed and given a second.
    // One that is still there is let go rather than destroyed, since ~QProcess would
    // wait for it again (up to 30 s) with the window already closed.
    if (m_detect) {
        m_detect->disconnect(this);
        m_detect->kill();
        if (!m_detect->waitForFinished(1000))
            m_detect->setParent(nullptr);
    }
}

const Catalog* AppController::catalog() const
{
    return m_catalog ? &m_catalog->catalog : nullptr;
}

void AppController::setPhase(Phase p)
{
    if (m_phase == p)
        return;
    m_phase = p;
    emit phaseChanged();
}

void AppController::start()
{
    setEventLog(!recordedMachine());
    loadData();
    if (!recordedMachine())
        watchSettings();
    if (m_options.snapshot) {
        acceptSnapshot(*m_options.snapshot);
    } else {
        detect();
    }
}

namespace {

// The child's command line, from the typed options (nothing is parsed back).
QStringList detectArguments(const DetectOptions& d)
{
    QStringList args{QStringLiteral("detect"), QStringLiteral("--json")};
    if (!d.probes)
        args << QStringLiteral("--no-probes");
    if (!d.sysfsRoot.empty())
        args << QStringLiteral("--sysfs-root") << qpath(d.sysfsRoot);
    args << QStringLiteral("--probe-timeout") << QString::number(d.probeTimeoutMs);
    return args;
}

} // namespace

void AppController::acceptSnapshot(const HardwareSnapshot& snap)
{
    m_gpus.setSnapshot(snap);
    m_haveSnapshot = true;
    makeSession();
    emit detected();
    maybePlan();
}

// Detection runs in the CLI as a child process: the GUI thread never waits on sysfs,
// probes or drivers, and a driver that crashes cannot take the window down. A recorded
// snapshot is read on the thread pool.
void AppController::detect()
{
    if (recordedMachine()) {
        runInBackground(
            this, [file = m_options.hardwareFile] { return loadSnapshotFile(file); },
            [this](Expected<HardwareSnapshot> snap) {
                if (!snap) {
                    m_detectError = QString::fromStdString(snap.error().message);
                    emit detected();
                    return;
                }
                acceptSnapshot(*snap);
            });
        return;
    }
    auto* proc = new QProcess(this);
    m_detect = proc;
    const QStringList args = detectArguments(m_options.detect);
    connect(proc, &QProcess::finished, this, [this, proc](int code, QProcess::ExitStatus status) {
        proc->deleteLater();
        const QByteArray out = proc->readAllStandardOutput();
        auto snap = parseSnapshot(out.toStdString(), "stackpilot-cli detect");
        if (status != QProcess::NormalExit || code != 0 || !snap) {
            const QString err = QString::fromUtf8(proc->readAllStandardError()).trimmed();
            m_detectError = !err.isEmpty() ? err
                            : !snap        ? QString::fromStdString(snap.error().message)
                                    : tr("stackpilot-cli detect exited with code %1").arg(code);
            emit detected();
            return;
        }
        acceptSnapshot(*snap);
    });
    connect(proc, &QProcess::errorOccurred, this, [this, proc](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart)
            return;
        m_detectError = tr("Could not start %1: %2").arg(m_options.cliProgram, proc->errorString());
        proc->deleteLater();
        emit detected();
    });
    proc->start(m_options.cliProgram, args);
}

void AppController::loadData()
{
    CatalogLoadOptions options;
    options.extraDirs = m_options.catalogDirs;
    const auto journal = pendingInstallFile(paths::dataDir());
    // A recorded PC is shown with the user's preferences (language, theme) and nothing of
    // this PC's state: no stack choices, remedies or pending install.
    const bool thisPc = !recordedMachine();
    runInBackground(
        this,
        [options, journal, thisPc] {
            DataLoad d;
            d.catalog = loadCatalog(options);
            d.settings = Settings::load();
            if (thisPc)
                d.pending = readPendingInstall(journal);
            else if (d.settings) // the user's preferences, not this PC's stacks
                d.settings->workloads.clear();
            return d;
        },
        [this](DataLoad d) {
            m_catalogBroken = !d.catalog;
            if (!d.catalog) {
                m_detectError = QString::fromStdString(d.catalog.error().message);
                emit notice(m_detectError, true);
                emit detected();
                return;
            }
            for (const auto& w : d.catalog->warnings)
                emit notice(QString::fromStdString(w), false);
            m_catalog = std::make_shared<const LoadedCatalog>(std::move(*d.catalog));
            if (d.settings) {
                m_settings = std::move(*d.settings);
            } else {
                emit notice(QString::fromStdString(d.settings.error().message), true);
            }
            if (!recordedMachine())
                m_settings.applyFolders();
            m_pending = d.pending;
            makeSession();
            if (m_workload.isEmpty() && !m_catalog->catalog.workloads.empty())
                m_workload =
                    m_pending ? QString::fromStdString(m_pending->workload) : firstWorkload();
            emit settingsChanged();
            maybePlan();
        });
}

void AppController::maybePlan()
{
    if (m_haveSnapshot && m_catalog)
        replan([this] {
            if (m_phase == Phase::Detecting)
                setPhase(Phase::Ready);
            refreshModels(); // the cards say which models are downloaded
        });
}

// Every workload's plan at once (the profiles menu shows them all), made the way `run`
// makes it (session::planFor, with this PC's records); it reads files, so it runs on the
// background helper.
void AppController::replan(std::function<void()> then)
{
    if (!m_catalog || !m_haveSnapshot || !m_session)
        return;
    struct Plans
    {
        std::map<QString, PlanView> views;
        SelectSettings base;
    };
    auto catalog = m_catalog;
    const session::Context context = m_session->context();
    const Settings settings = m_settings;
    runInBackground(
        this,
        [catalog, context, settings] {
            Plans out;
            out.base = session::selectBaseFor(context);
            for (const auto& w : catalog->catalog.workloads) {
                PlanView v = buildPlanView(catalog->catalog, context.snapshot, w.id,
                                           session::planFor(context, settings, w.id, out.base),
                                           out.base.localVerdicts);
                v.choice = choiceOf(settings, w.id);
                out.views[QString::fromStdString(w.id)] = std::move(v);
            }
            return out;
        },
        [this, then = std::move(then)](Plans plans) {
            m_views = std::move(plans.views);
            m_base = std::move(plans.base);
            emit plansChanged();
            if (then)
                then();
        });
}

void AppController::readPending()
{
    if (recordedMachine())
        return;
    runInBackground(
        this,
        [journal = pendingInstallFile(paths::dataDir())] { return readPendingInstall(journal); },
        [this](std::optional<PendingInstall> p) {
            if (m_phase != Phase::Ready)
                return;
            m_pending = std::move(p);
            emit phaseChanged();
        });
}

QStringList AppController::workloads() const
{
    QStringList out;
    if (m_catalog)
        for (const auto& w : m_catalog->catalog.workloads)
            out << QString::fromStdString(w.id);
    return out;
}

QString AppController::workloadName(const QString& id) const
{
    const Workload* w = m_catalog ? m_catalog->catalog.workload(id.toStdString()) : nullptr;
    if (w && !w->ui.name.empty())
        return userText(w->ui.name);
    return w && !w->name.empty() ? QString::fromStdString(w->name) : id;
}

// The workload the window showed last, while the catalog still has it; else the first.
QString AppController::firstWorkload() const
{
    const auto& all = m_catalog->catalog.workloads;
    const std::string& last = m_settings.lastWorkload;
    const bool known =
        std::any_of(all.begin(), all.end(), [&last](const Workload& w) { return w.id == last; });
    return QString::fromStdString(known ? last : all.front().id);
}

void AppController::setWorkload(const QString& id)
{
    if (id == m_workload)
        return;
    m_workload = id;
    rememberWorkload();
    emit plansChanged();
}

// Saved straight to settings.json, without a replan: the plans do not depend on it. A
// recorded PC's choices stay in the window.
void AppController::rememberWorkload()
{
    const std::string id = toStd(m_workload);
    if (recordedMachine() || m_settings.lastWorkload == id)
        return;
    m_settings.lastWorkload = id;
    runInBackground(
        this,
        [file = Settings::defaultFile(), id] {
            return Settings::update(file, [id](Settings& s) -> Expected<void> {
                s.lastWorkload = id;
                return {};
            });
        },
        [this](Expected<Settings> saved) {
            if (!saved)
                emit notice(QString::fromStdString(saved.error().message), true);
        },
        orderedPool());
}

const PlanView* AppController::plan(const QString& workload) const
{
    const auto it = m_views.find(workload);
    return it == m_views.end() ? nullptr : &it->second;
}

QString AppController::activeProfile(const QString& workload) const
{
    const PlanView* v = plan(workload);
    return v ? v->profile : QString();
}

bool AppController::profileForced(const QString& workload) const
{
    const auto it = m_settings.workloads.find(workload.toStdString());
    return it != m_settings.workloads.end() && !it->second.profile.empty();
}

void AppController::updateSettings(Settings::Change change, std::function<void(QString)> done)
{
    if (recordedMachine()) {
        // A recorded PC's choices live in the window only: this PC's file is not its.
        Settings copy = m_settings;
        auto changed = change(copy);
        takeSettings(changed ? Expected<Settings>(std::move(copy))
                             : Expected<Settings>(changed.error()),
                     done);
        return;
    }
    const auto file = Settings::defaultFile();
    runInBackground(
        this, [change = std::move(change), file] { return Settings::update(file, change); },
        [this, done = std::move(done)](Expected<Settings> saved) {
            takeSettings(std::move(saved), done);
        },
        orderedPool());
}

// settings.json changed by another StackPilot (`run`, `remedy apply`): the window reads
// it again and plans with it. The folder is watched, since a write replaces the file.
// The read queues behind the window's own writes (orderedPool): read on any thread, a
// file read before the window's latest write could land after it and undo that choice.
void AppController::watchSettings()
{
    const auto file = Settings::defaultFile();
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    m_settingsWatch.addPath(qpath(file.parent_path()));
    connect(&m_settingsWatch, &QFileSystemWatcher::directoryChanged, this, [this, file] {
        runInBackground(
            this, [file] { return Settings::loadFile(file); },
            [this](Expected<Settings> now) {
                if (now && now->toJson() != m_settings.toJson())
                    takeSettings(std::move(now), {});
            },
            orderedPool());
    });
}

void AppController::takeSettings(Expected<Settings> saved, const std::function<void(QString)>& done)
{
    if (!saved) {
        const QString why = QString::fromStdString(saved.error().message);
        emit notice(why, true);
        if (done)
            done(why);
        return;
    }
    m_settings = std::move(*saved);
    if (!recordedMachine())
        m_settings.applyFolders();
    emit settingsChanged();
    replan([this] {
        if (std::exchange(m_launchAfterPlan, false))
            launch();
    });
    if (done)
        done({});
}

} // namespace sp::gui
