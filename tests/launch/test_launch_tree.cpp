// Launches with real processes: the stand-in workload (tests/launch/standin_workload.cpp)
// run through LaunchSession and through the real stackpilot-cli binary, contained by
// the real stackpilot-run helper. Checks the environment it saw, relocated caches, the
// url / known-issue / exit events, the log and record, setup steps run once, a failed
// step, a tree that outlives its first process, and Stop, Ctrl-C and kill -9 of the
// launcher each ending every process of the tree, the setsid one included.

#include "cli_runner.h"
#include "core/catalog/loader.h"
#include "core/launch/launch_prep.h"
#include "core/launch/step_receipt.h"
#include "launch_fixture.h"
#include "support/loopback.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace sp;
using namespace sp::test;

namespace {

struct Run
{
    std::vector<events::FromLaunch> events;
    bool succeeded = false;
    LaunchRecord record;
    fs::path log;
    qint64 ms = 0;

    template <class T> std::vector<const T*> of() const
    {
        std::vector<const T*> out;
        for (const auto& e : events)
            if (const auto* x = std::get_if<T>(&e))
                out.push_back(x);
        return out;
    }
};

LoadedCatalog catalogWith(const StandinWorld& w)
{
    CatalogLoadOptions o;
    o.builtinDir = STACKPILOT_SOURCE_DIR "/profiles/catalog";
    o.userDir = false;
    o.extraDirs = {w.catalogDir};
    auto r = loadCatalog(o);
    if (!r)
        qFatal("catalog: %s", r.error().message.c_str());
    return std::move(*r);
}

EnvMap pollutedEnvironment()
{
    EnvMap env = currentEnvironment();
    env["HIP_PATH"] = "/opt/rocm-5.7.0";
    env["PYTHONPATH"] = "/home/u/stale-site";
    env["LD_LIBRARY_PATH"] = "/opt/rocm-5.7.0/lib:/usr/local/lib";
    return env;
}

Expected<LaunchRequest> requestFor(const StandinWorld& w, const LoadedCatalog& cat,
                                   const std::string& profile)
{
    LaunchSetup s;
    s.catalog = &cat.catalog;
    auto snap = loadSnapshotFile(w.snapshot.string());
    if (!snap)
        return snap.error();
    s.snapshot = *snap;
    s.profile = profile;
    s.select.dataDir = (w.root / "data").string();
    s.select.cacheDir = (w.root / "cache").string();
    s.userEnv = pollutedEnvironment();
    s.logsRoot = w.root / "logs";
    s.dataDir = w.root / "data";
    s.settings.stopGraceMs = 1000;
    return prepareLaunch(s);
}

Run launch(const StandinWorld& w, const std::string& profile, bool rerun = false,
           const std::function<void(LaunchSession&)>& whileRunning = {})
{
    Run run;
    const LoadedCatalog cat = catalogWith(w);
    auto req = requestFor(w, cat, profile);
    if (!req)
        qFatal("prepare: %s", req.error().message.c_str());
    req->rerunSteps = rerun;
    LaunchSession session(std::move(*req),
                          [&](const events::FromLaunch& e) { run.events.push_back(e); });
    QSignalSpy done(&session, &LaunchSession::finished);
    QElapsedTimer t;
    t.start();
    std::string error;
    if (!session.start(error))
        qFatal("start: %s", error.c_str());
    if (whileRunning)
        whileRunning(session);
    if (done.isEmpty() && !done.wait(30000))
        qFatal("the launch did not finish");
    run.ms = t.elapsed();
    run.succeeded = session.succeeded();
    run.record = session.record();
    run.log = session.files().log;
    return run;
}

std::string slurp(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string lineOf(const fs::path& p, int n)
{
    std::ifstream in(p);
    std::string line;
    for (int i = 1; std::getline(in, line); ++i)
        if (i == n)
            return line;
    return {};
}

int lineCount(const fs::path& p)
{
    const std::string s = slurp(p);
    return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

QStringList cliArgs(const StandinWorld& w, const QString& profile)
{
    return {QStringLiteral("launch"),
            profile,
            QStringLiteral("--json"),
            QStringLiteral("--hardware"),
            QString::fromStdString(w.snapshot.string()),
            QStringLiteral("--catalog-dir"),
            QString::fromStdString(w.catalogDir.string())};
}

QString cliPath()
{
    return QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli");
}

QProcessEnvironment cliEnvironment(const StandinWorld& w)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("STACKPILOT_HOME"),
               QString::fromStdString((w.root / "home").string()));
    env.insert(QStringLiteral("HIP_PATH"), QStringLiteral("/opt/rocm-5.7.0"));
    env.insert(QStringLiteral("PYTHONPATH"), QStringLiteral("/home/u/stale-site"));
    return env;
}

// `stackpilot-cli launch standin-serve` running, its tree's PIDs written.
void startServingCli(StandinWorld& w, QProcess& cli)
{
    w.write(60000);
    cli.setProcessEnvironment(cliEnvironment(w));
    cli.start(cliPath(), cliArgs(w, QStringLiteral("standin-serve")));
    if (!cli.waitForStarted() || !w.waitForPids())
        qFatal("the stand-in did not start: %s", cli.readAllStandardError().constData());
}

// The stackpilot-run helper started by `parent` (its child), or 0.
long helperOf(long parent)
{
    for (const auto& e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream stat(e.path() / "stat");
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream rest(line.substr(close + 2));
        char state = 0;
        long ppid = 0;
        rest >> state >> ppid;
        if (ppid == parent && line.find("(stackpilot-run)") != std::string::npos)
            return std::stol(name);
    }
    return 0;
}

} // namespace

class TestLaunchTree : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qputenv("STACKPILOT_RUN", STACKPILOT_BINARY_DIR "/bin/stackpilot-run"); }

    void crashWithKnownIssueUrlAndRelocatedCaches()
    {
        StandinWorld w;
        w.write(300);
        const Run run = launch(w, "standin-crash");
        QVERIFY(!run.succeeded);
        // The URL Gradio-style UIs print on 0.0.0.0, rewritten for a browser.
        const auto urls = run.of<events::UrlAnnounced>();
        QCOMPARE(urls.size(), std::size_t{1});
        QCOMPARE(urls[0]->url, std::string("http://127.0.0.1:7860"));
        const auto issues = run.of<events::KnownIssueSeen>();
        QCOMPARE(issues.size(), std::size_t{1});
        QCOMPARE(issues[0]->id, std::string("hsa-aperture-violation"));
        // Its line number is the log's line holding the failure.
        const int at = int(issues[0]->line);
        QVERIFY(lineOf(run.log, at).find("APERTURE_VIOLATION") != std::string::npos);
        QVERIFY(!issues[0]->remedy.empty());
        const auto exits = run.of<events::WorkloadExited>();
        QCOMPARE(exits.size(), std::size_t{1});
        QCOMPARE(exits[0]->end.kind, ProcessEnd::Signaled);
        QCOMPARE(exits[0]->end.value, 11LL);
        const std::string text = exits[0]->end.text;
        QVERIFY2(text.find("SIGSEGV") != std::string::npos &&
                     text.find("hsa-aperture-violation") != std::string::npos,
                 text.c_str());
        // What it saw: the poison removed, the profile's variables, caches off NFS.
        const auto env = w.seenEnv();
        QVERIFY(!env.count("HIP_PATH") && !env.count("PYTHONPATH"));
        QCOMPARE(env.at("PYTHONNOUSERSITE"), std::string("1"));
        QCOMPARE(env.at("STANDIN_PROFILE_VAR"), std::string("from-profile"));
        // Another stack's folders go for a CPU profile too (test_env_stale_gpu
        // covers every GPU variable for three shipped profiles).
        QCOMPARE(env.at("LD_LIBRARY_PATH"), std::string("/usr/local/lib"));
        const std::string torch = env.at("TORCH_HOME");
        QVERIFY2(torch.rfind((w.root / "cache").string(), 0) == 0, torch.c_str());
        QVERIFY(fs::is_regular_file(fs::path(torch) / "standin-cache.txt"));
        // The log holds the lines without colours; the record sits beside it.
        const std::string log = slurp(run.log);
        QVERIFY(log.find("HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION") != std::string::npos);
        QVERIFY(log.find("http://0.0.0.0:7860") != std::string::npos);
        auto record = readLaunchRecord(fs::path(run.log).replace_extension(".json"));
        QVERIFY(record);
        QCOMPARE(record->exit.value("signal", 0), 11);
        QCOMPARE(record->knownIssues, std::vector<std::string>{"hsa-aperture-violation"});
        QVERIFY(!record->ended.empty() && record->planHash.size() == 64);
    }

    void stepsRunOnceThenAgainAfterAChange()
    {
        StandinWorld w;
        const std::string steps = w.stepsFile().string();
        w.write(50, {{"sh", "-c", "echo ran >> '" + steps + "'"}});
        QVERIFY(launch(w, "standin-exit-early").of<events::WorkloadExited>().size() == 1);
        const Run second = launch(w, "standin-exit-early");
        QCOMPARE(lineCount(steps), 1);
        QCOMPARE(second.of<events::StepChanged>().front()->state, events::StepState::Skipped);
        w.write(50, {{"sh", "-c", "echo ran again >> '" + steps + "'"}});
        launch(w, "standin-exit-early");
        QCOMPARE(lineCount(steps), 2);
        launch(w, "standin-exit-early", /*rerun=*/true);
        QCOMPARE(lineCount(steps), 3);
    }

    void failedStepStopsTheLaunchWithoutAReceipt()
    {
        StandinWorld w;
        w.write(50, {{"sh", "-c", "echo pip could not build the wheel >&2; exit 7"}});
        const Run run = launch(w, "standin-exit-early");
        QVERIFY(!run.succeeded);
        const auto steps = run.of<events::StepChanged>();
        QCOMPARE(steps.back()->state, events::StepState::Failed);
        QVERIFY(steps.back()->exit && steps.back()->exit->kind == ProcessEnd::Exited);
        QCOMPARE(steps.back()->exit->value, 7LL);
        const auto last = steps.back()->lastLines;
        QCOMPARE(last, std::vector<std::string>{"pip could not build the wheel"});
        QVERIFY(!fs::exists(stepReceiptFile(w.root / "data", "standin-exit-early")));
        QVERIFY2(!fs::exists(w.envFile()), "the workload ran after a failed step");
        QVERIFY(run.of<events::WorkloadExited>().empty());
    }

    void runningWhileAChildLivesAfterTheFirstExits()
    {
        StandinWorld w;
        w.write(1500);
        const Run run = launch(w, "standin-exit-early");
        QVERIFY2(run.ms >= 1400, qPrintable(QString::number(run.ms)));
        const auto exits = run.of<events::WorkloadExited>();
        QCOMPARE(exits.size(), std::size_t{1});
        QCOMPARE(exits[0]->end.value, 3LL);
        QVERIFY(allGone(w.pids(), 100));
    }

    void stopEndsTheWholeTree()
    {
        StandinWorld w;
        w.write(60000);
        std::vector<long> pids;
        const Run run = launch(w, "standin-serve", false, [&](LaunchSession& s) {
            QVERIFY(w.waitForPids());
            pids = w.pids();
            for (long p : pids)
                QVERIFY(alive(p));
            s.stop();
        });
        QVERIFY(allGone(pids, 2000));
        QCOMPARE(run.record.stoppedBy, std::string("stop"));
        QCOMPARE(run.of<events::WorkloadExited>().front()->end.value, 15LL);
    }

    void ctrlCOnTheCliEndsTheWholeTree()
    {
        StandinWorld w;
        QProcess cli;
        startServingCli(w, cli);
        const std::vector<long> pids = w.pids();
        ::kill(static_cast<pid_t>(cli.processId()), SIGINT);
        QVERIFY(cli.waitForFinished(10000));
        QVERIFY(allGone(pids, 2000));
        const QByteArray out = cli.readAllStandardOutput();
        QVERIFY2(out.contains("\"stopped_by\":\"stop\""), out.right(400).constData());
    }

    void killMinus9OfTheLauncherLeavesNothingAfterTwoSeconds()
    {
        StandinWorld w;
        QProcess cli;
        startServingCli(w, cli);
        std::vector<long> pids = w.pids();
        const long helper = helperOf(cli.processId());
        QVERIFY(helper > 0);
        pids.push_back(helper);
        ::kill(static_cast<pid_t>(cli.processId()), SIGKILL);
        QVERIFY(cli.waitForFinished(5000));
        QVERIFY2(allGone(pids, 2000), "a process of the tree outlived the killed launcher by 2 s");
    }

    void aPortInUseIsNamedAndNothingStarts()
    {
        StandinWorld w;
        w.write(50);
        const LoopbackSocket held(true); // listening: the port is in use
        QVERIFY(held.port());
        const LoadedCatalog cat = catalogWith(w);
        LaunchSetup s;
        s.catalog = &cat.catalog;
        s.snapshot = *loadSnapshotFile(w.snapshot.string());
        s.profile = "standin-exit-early";
        s.select.dataDir = (w.root / "data").string();
        s.select.cacheDir = (w.root / "cache").string();
        s.logsRoot = w.root / "logs";
        s.extraArgs = {"--port", std::to_string(held.port())};
        auto req = prepareLaunch(s);
        QVERIFY(req);
        QCOMPARE(req->port, std::optional<int>(held.port()));
        LaunchSession session(std::move(*req), [](const events::FromLaunch&) {});
        std::string error;
        QVERIFY(!session.start(error));
        QVERIFY2(error.find("port " + std::to_string(held.port()) + " is in use by") == 0 &&
                     error.find("(pid " + std::to_string(getpid()) + ")") != std::string::npos,
                 error.c_str());
        QVERIFY(!fs::exists(w.envFile()));
    }

    void workloadSeesExactlyTheDryRunEnvironment()
    {
        StandinWorld w;
        w.write(50);
        QProcess dry;
        dry.setProcessEnvironment(cliEnvironment(w));
        QStringList args = cliArgs(w, QStringLiteral("standin-exit-early"));
        dry.start(cliPath(), args << QStringLiteral("--dry-run"));
        QVERIFY(dry.waitForFinished(30000));
        QCOMPARE(dry.exitCode(), 0);
        const auto printed = nlohmann::json::parse(dry.readAllStandardOutput().toStdString());
        QProcess real;
        real.setProcessEnvironment(cliEnvironment(w));
        real.start(cliPath(), cliArgs(w, QStringLiteral("standin-exit-early")));
        QVERIFY(real.waitForFinished(30000));
        QCOMPARE(real.exitCode(), 1); // the stand-in exits with 3
        const auto seen = w.seenEnv();
        const auto printedEnv = printed["env"].get<std::map<std::string, std::string>>();
        QCOMPARE(printedEnv, seen);
        // The JSON event stream of that launch.
        std::map<std::string, int> kinds;
        for (const QByteArray& line : real.readAllStandardOutput().split('\n'))
            if (!line.isEmpty())
                ++kinds[nlohmann::json::parse(line.toStdString()).value("event", "")];
        QVERIFY(kinds["line"] >= 2);
        QCOMPARE(kinds["url"], 1);
        QCOMPARE(kinds["known_issue"], 1);
        QCOMPARE(kinds["exit"], 1);
        QVERIFY(printed["changes"].size() >= 3);
        for (const auto& c : printed["changes"])
            QVERIFY2(!c.value("reason", "").empty(), c.dump().c_str());
    }
};

QTEST_GUILESS_MAIN(TestLaunchTree)
#include "test_launch_tree.moc"
