// The session on its own, as both front ends drive it: a run's events in order (preflight,
// the confirmation, the install, the launch), a "no" that installs nothing, cancel during
// the preflight, an install, a smoke test and a launch, a failed smoke test that falls
// back to the next profile, a second session refused a profile the first one runs, and
// events that arrive after the session is gone. Real parts: the loopback server, the installer, the
// stand-in workload.

#include "app/common/session/session.h"
#include "core/catalog/loader.h"
#include "core/launch/env_composer.h"
#include "core/launch/launch_lock.h"
#include "core/launch/profile_env.h"
#include "core/paths.h"
#include "gui/gui_fixture.h"

#include <QSignalSpy>

using namespace sp;
using namespace sp::test;

namespace {

using nlohmann::json;

// sc-a ranks first, but its smoke test fails (or does what `firstSmoke` says); sc-b's
// passes and it runs until stopped.
void writeCheckCatalog(const GuiWorld& w,
                       const std::string& firstSmoke = "echo 'smoke failed'; exit 1")
{
    auto profile = [](const char* id, const char* status, const std::string& smoke) {
        return json{{"id", id},
                    {"workload", "sessioncheck"},
                    {"status", status},
                    {"match", {{"os", {"linux"}}}},
                    {"verify", {"sh", "-c", smoke}},
                    {"references", {"https://example.org/session-fixture"}}};
    };
    const json doc = {
        {"schema_version", 1},
        {"workloads",
         {{{"id", "sessioncheck"},
           {"name", "Checked stand-in"},
           {"command", {"sh", "-c", "echo checked workload running; sleep 60"}},
           {"references", {"https://example.org/session-fixture"}}}}},
        {"profiles",
         {profile("sc-a", "tested", firstSmoke),
          profile("sc-b", "community",
                  "echo '{\"ok\": true, \"device\": \"Stand-in GPU\", \"seconds\": 0.01}'")}}};
    std::ofstream(w.catalogDir / "check.json") << doc.dump(2);
}

bool processGone(const fs::path& pidFile)
{
    std::ifstream in(pidFile);
    int pid = 0;
    return (in >> pid) && pid > 0 && !fs::exists("/proc/" + std::to_string(pid));
}

// A session over the fixture world, recording every event's JSON name.
struct Driver
{
    LoadedCatalog catalog;
    QStringList events;
    std::vector<session::Event> all;
    std::function<void(const session::Event&)> also;
    std::unique_ptr<session::Session> s; // last: it goes first

    explicit Driver(const GuiWorld& w)
    {
        CatalogLoadOptions o;
        o.extraDirs = {w.catalogDir};
        auto loaded = loadCatalog(o);
        if (!loaded)
            qFatal("%s", loaded.error().message.c_str());
        catalog = std::move(*loaded);
        s = std::make_unique<session::Session>(
            session::contextFor(&catalog.catalog, GuiWorld::snapshot(), currentEnvironment()),
            [this](const session::Event& e) {
                const QString name = QString::fromStdString(session::toJson(e).value("event", ""));
                if (name != QStringLiteral("line") && name != QStringLiteral("progress") &&
                    (events.isEmpty() || events.back() != name))
                    events << name;
                all.push_back(e);
                if (also)
                    also(e);
            });
    }
    bool wait(int ms = 60000)
    {
        QSignalSpy done(s.get(), &session::Session::finished);
        return !s->busy() || done.wait(ms);
    }
    // As a user: yes at the checklist, then Stop once the workload serves.
    void yesThenStop()
    {
        also = [this](const session::Event& e) {
            if (std::holds_alternative<session::ConfirmInstall>(e))
                s->confirm(true);
            if (std::holds_alternative<session::UrlAnnounced>(e))
                s->cancel();
        };
    }
    template <class T> const T* first() const
    {
        for (const auto& e : all)
            if (const auto* t = std::get_if<T>(&e))
                return t;
        return nullptr;
    }
};

// The runtimes of a profile, as the repair verb hands them to the session.
session::RepairWork repairOf(const Catalog& catalog, const std::string& profile)
{
    session::RepairWork work;
    work.profile = profile;
    for (const std::string& id : catalog.profile(profile)->runtimes)
        work.runtimes.push_back(*catalog.runtime(id));
    work.options.prefixRoot = paths::dataDir() / "runtimes";
    return work;
}

session::RunOptions runOf(const char* workload, bool confirm = true)
{
    session::RunOptions o;
    o.workload = workload;
    o.confirm = confirm;
    return o;
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT
private slots:
    void aRunsEventsComeInOrder()
    {
        GuiWorld w;
        Driver d(w);
        d.yesThenStop();
        QVERIFY(d.s->startRun(runOf("guiwork")));
        QVERIFY(!d.s->startRun(runOf("guiwork"))); // one job at a time
        QVERIFY(d.wait());
        qInfo("events: %s", qPrintable(d.events.join(QLatin1Char(' '))));
        const QStringList head = d.events.mid(0, 6);
        QCOMPARE(head, QStringLiteral("preflight confirm_install runtime_started artifact_done "
                                      "runtime_installed launch_started")
                           .split(QLatin1Char(' ')));
        QVERIFY(d.events.contains(QStringLiteral("url")));
        QCOMPARE(d.events.back(), QStringLiteral("exit"));
        const auto* c = d.first<session::ConfirmInstall>();
        QVERIFY(c);
        QCOMPARE(c->downloadBytes, std::uint64_t(w.archive.size()));
        QCOMPARE(c->diskNeeded, 2 * std::uint64_t(w.archive.size()));
        QVERIFY(c->diskFree.has_value());
        QVERIFY(fs::exists(w.runtimeDir("gui-rt-1") / "bin" / "tool.bin"));
    }

    void noAtTheChecklistInstallsNothing()
    {
        GuiWorld w;
        Driver d(w);
        d.also = [&](const session::Event& e) {
            if (std::holds_alternative<session::ConfirmInstall>(e))
                d.s->confirm(false);
        };
        QVERIFY(d.s->startRun(runOf("guiwork")));
        QVERIFY(d.wait());
        QVERIFY(!d.s->outcome().result);
        QCOMPARE(d.s->outcome().result.error().code, ErrorCode::Cancelled);
        QVERIFY(!d.events.contains(QStringLiteral("runtime_started")));
        QVERIFY(!fs::exists(w.runtimeDir("gui-rt-1")));
    }

    void cancelDuringTheInstall()
    {
        GuiWorld w;
        w.server.setFault("/rt/gui-runtime.tar.gz",
                          Fault::stallAfter(1 << 20, std::chrono::milliseconds(20000)));
        Driver d(w);
        d.also = [&](const session::Event& e) {
            if (std::holds_alternative<session::ArtifactProgress>(e))
                d.s->cancel();
        };
        session::RunOptions o = runOf("guiwork", false);
        o.journal = pendingInstallFile(paths::dataDir());
        QVERIFY(d.s->startRun(o));
        QVERIFY(d.wait(30000));
        QCOMPARE(d.s->outcome().result.error().code, ErrorCode::Cancelled);
        QVERIFY(!fs::exists(w.runtimeDir("gui-rt-1")));
        QVERIFY(!fs::exists(o.journal)); // the user's cancel: nothing to resume
    }

    // The server takes the preflight's request and says nothing (20 s; curl would wait
    // 30): Cancel ends the run at once, before any confirmation, download or fallback.
    void cancelDuringThePreflight()
    {
        GuiWorld w;
        const std::string path = "/rt/gui-runtime.tar.gz";
        w.server.setFault(path, Fault::silentFor(std::chrono::milliseconds(20000)));
        Driver d(w);
        QVERIFY(d.s->startRun(runOf("guiwork")));
        QVERIFY(waitFor([&] { return w.server.stats(path).requests > 0; }, 10000));
        d.s->cancel();
        QVERIFY(d.wait(10000));
        QCOMPARE(d.s->outcome().result.error().code, ErrorCode::Cancelled);
        const auto* failed = d.first<session::Failed>();
        QVERIFY(failed && failed->stage == session::Stage::Preflight);
        QVERIFY(!d.first<session::PreflightChecked>()); // it concluded nothing
        QVERIFY(!d.first<session::ConfirmInstall>());
        QVERIFY(!d.first<session::ProfileSwitched>());
        QVERIFY(!d.first<session::RuntimeStarted>());
        QCOMPARE(w.server.stats(path).requests, 1); // no ranged GET, no second URL
        QVERIFY(!fs::exists(w.runtimeDir("gui-rt-1")));
    }

    // Cancel while the first profile's smoke test runs: the test's process goes, and a
    // stopped test is neither a failure to record nor a reason to fall back.
    void cancelDuringTheSmokeTest()
    {
        GuiWorld w;
        const fs::path pidFile = w.work / "smoke.pid";
        writeCheckCatalog(w, "echo $$ > '" + pidFile.string() + "'; exec sleep 60");
        Driver d(w);
        d.also = [&](const session::Event& e) {
            if (const auto* l = std::get_if<session::LaunchStarted>(&e); l && l->smokeTest)
                QTimer::singleShot(300, d.s.get(), [&] { d.s->cancel(); });
        };
        session::RunOptions o = runOf("sessioncheck", false);
        o.autoFallback = true;
        QVERIFY(d.s->startRun(o));
        QVERIFY(d.wait(30000));
        QCOMPARE(d.s->outcome().result.error().code, ErrorCode::Cancelled);
        const auto* failed = d.first<session::Failed>();
        QVERIFY(failed && failed->stage == session::Stage::Verify);
        QVERIFY(processGone(pidFile));
        QVERIFY(!d.first<session::ProfileSwitched>());
        QVERIFY(!d.first<session::StackVerified>());
        QVERIFY(d.s->outcome().verified.empty());
        auto verdicts = d.s->verdicts();
        QVERIFY(verdicts && !verdicts->count("sc-a"));
        for (const auto& e : d.all)
            if (const auto* l = std::get_if<session::LaunchStarted>(&e))
                QVERIFY(l->smokeTest); // the workload itself never started
    }

    void aFailedSmokeTestFallsBackToTheNextProfile()
    {
        GuiWorld w;
        writeCheckCatalog(w);
        Driver d(w);
        d.also = [&](const session::Event& e) {
            if (const auto* l = std::get_if<session::LaunchStarted>(&e); l && !l->smokeTest)
                d.s->cancel(); // the workload is up: enough
        };
        session::RunOptions o = runOf("sessioncheck", false);
        o.autoFallback = true;
        QVERIFY(d.s->startRun(o));
        QVERIFY(d.wait());
        const auto* sw = d.first<session::ProfileSwitched>();
        QVERIFY(sw);
        QCOMPARE(QString::fromStdString(sw->from), QStringLiteral("sc-a"));
        QCOMPARE(QString::fromStdString(sw->to), QStringLiteral("sc-b"));
        QVERIFY(sw->switched);
        QCOMPARE(d.s->outcome().verified.size(), std::size_t(2));
        QVERIFY(!d.s->outcome().verified[0].passed);
        QVERIFY(d.s->outcome().verified[1].passed);
        std::vector<std::string> launched;
        for (const auto& e : d.all)
            if (const auto* l = std::get_if<session::LaunchStarted>(&e); l && !l->smokeTest)
                launched.push_back(l->profile);
        QCOMPARE(launched, std::vector<std::string>{"sc-b"});
    }

    // A second session (the CLI beside the window) may not launch what the first runs:
    // it is refused with the holder's name.
    void aSecondSessionIsRefusedTheProfile()
    {
        GuiWorld w;
        writeCheckCatalog(w);
        Driver first(w);
        bool up = false;
        first.also = [&](const session::Event& e) {
            if (const auto* l = std::get_if<session::LaunchStarted>(&e); l && !l->smokeTest)
                up = true;
        };
        session::RunOptions o = runOf("sessioncheck", false);
        o.profile = "sc-b";
        QVERIFY(first.s->startRun(o));
        QVERIFY(waitFor([&] { return up; }, 60000));
        Driver second(w);
        auto request = second.s->prepare("sc-b", {});
        QVERIFY(request.ok());
        QVERIFY(second.s->startLaunch(std::move(*request), false));
        QVERIFY(second.wait());
        QVERIFY(!second.s->outcome().result);
        const QString why = QString::fromStdString(second.s->outcome().result.error().message);
        QVERIFY2(why.contains(QStringLiteral("already running")), qPrintable(why));
        QVERIFY2(why.contains(QString::number(QCoreApplication::applicationPid())),
                 qPrintable(why));
        first.s->cancel();
        QVERIFY(first.wait());
    }

    // The front end goes while its session works: the session ends the tree, and no event
    // reaches a sink that is gone.
    void eventsAfterTheSessionIsGoneAreDropped()
    {
        GuiWorld w;
        writeCheckCatalog(w);
        int afterwards = 0;
        bool gone = false;
        {
            Driver d(w);
            bool up = false;
            d.also = [&](const session::Event& e) {
                if (gone)
                    ++afterwards;
                if (const auto* l = std::get_if<session::LaunchStarted>(&e); l && !l->smokeTest)
                    up = true;
            };
            session::RunOptions o = runOf("sessioncheck", false);
            o.profile = "sc-b";
            QVERIFY(d.s->startRun(o));
            QVERIFY(waitFor([&] { return up; }, 60000));
            d.s.reset();
            gone = true;
        }
        QTest::qWait(500); // whatever was queued has had its chance
        QCOMPARE(afterwards, 0);
    }

    // A profile's repair is the session's: refused while the profile is launched (its
    // lock), and then nothing changed; else the venv and the step receipt are reset and a
    // damaged runtime is re-installed, as the Repair stage.
    void aProfilesRepairUnderItsLock()
    {
        GuiWorld w;
        Driver d(w);
        d.yesThenStop();
        QVERIFY(d.s->startRun(runOf("guiwork")));
        QVERIFY(d.wait());
        const fs::path tool = w.runtimeDir("gui-rt-1") / "bin" / "tool.bin";
        QVERIFY(fs::exists(tool));
        fs::remove(tool); // damaged
        const fs::path venv = venvDir(paths::dataDir(), "gui-a");
        QVERIFY(claimVenv(venv, "gui-a"));
        {
            auto held = LaunchLock::acquire(paths::dataDir(), "gui-a");
            QVERIFY(held);
            QVERIFY(d.s->startRepair(repairOf(d.catalog.catalog, "gui-a")));
            QVERIFY(d.wait());
            QVERIFY(!d.s->outcome().result);
            QVERIFY(!fs::exists(tool));
            QVERIFY(fs::exists(venv)); // nothing was reset
        }
        d.all.clear();
        QVERIFY(d.s->startRepair(repairOf(d.catalog.catalog, "gui-a")));
        QVERIFY(d.wait());
        QVERIFY2(d.s->outcome().result.ok(),
                 d.s->outcome().result.ok() ? "" : d.s->outcome().result.error().message.c_str());
        const auto& report = d.s->outcome().repair;
        QVERIFY(report);
        QCOMPARE(report->damaged, std::vector<std::string>{"gui-rt-1"});
        QVERIFY(report->venvRemoved);
        QVERIFY(fs::exists(tool));
        QVERIFY(!fs::exists(venv));
        const auto* started = d.first<session::RuntimeStarted>();
        QVERIFY(started && started->runtime == "gui-rt-1");
        // Intact now: a second repair re-installs nothing.
        QVERIFY(d.s->startRepair(repairOf(d.catalog.catalog, "gui-a")));
        QVERIFY(d.wait());
        QVERIFY(d.s->outcome().repair && d.s->outcome().repair->damaged.empty());
    }

    // An exception out of a step (here: in work queued while the run waits at its
    // confirmation) ends the job with a failure that says so; nothing is installed and
    // the session takes the next job.
    void anExceptionOnTheWorkerEndsTheJob()
    {
        GuiWorld w;
        Driver d(w);
        d.also = [&](const session::Event& e) {
            if (std::holds_alternative<session::ConfirmInstall>(e)) {
                d.s->call([]() -> int { throw std::runtime_error("injected"); }, [](int) {});
                d.s->confirm(true);
            }
        };
        QVERIFY(d.s->startRun(runOf("guiwork")));
        QVERIFY(d.wait());
        QVERIFY(!d.s->outcome().result);
        const Error& e = d.s->outcome().result.error();
        QCOMPARE(e.cause, Cause::Internal);
        QVERIFY2(e.message.find("internal error (injected)") != std::string::npos,
                 e.message.c_str());
        const auto* failed = d.first<session::Failed>();
        QVERIFY(failed && failed->cause == Cause::Internal);
        QVERIFY(!fs::exists(w.runtimeDir("gui-rt-1")));
        d.also = {};
        QVERIFY(d.s->startRun(runOf("guiwork", false))); // not stuck busy
        d.also = [&](const session::Event& ev) {
            if (std::holds_alternative<session::UrlAnnounced>(ev))
                d.s->cancel();
        };
        QVERIFY(d.wait());
        QVERIFY(fs::exists(w.runtimeDir("gui-rt-1")));
    }
};

QTEST_MAIN(TestSession)
#include "test_session.moc"
