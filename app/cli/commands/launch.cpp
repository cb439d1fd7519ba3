// `stackpilot-cli launch PROFILE [--dry-run] [--json] [--hardware FILE] [-- ARGS...]`:
// compose the environment, run the setup steps once, run the workload as a contained
// tree, stream its output and say what went wrong. Ctrl-C stops the whole tree
// (gracefully, then by force; a second Ctrl-C forces at once).
//
// All of the work is in core/launch; this file only prints events.

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/cli/commands/install_support.h"
#include "app/cli/commands/machine_options.h"
#include "app/cli/printable_stream.h"
#include "core/launch/launch_prep.h"
#include "core/launch/step_receipt.h"
#include "core/paths.h"
#include "core/remedy/remedy.h"

#include <QEventLoop>
#include <QTimer>
#include <atomic>
#include <csignal>
#include <ostream>

namespace {

std::atomic<int> g_interrupts{0};

extern "C" void onLaunchInterrupt(int)
{
    g_interrupts.fetch_add(1);
}

// Restores the previous handlers when the launch ends (tests run the CLI in-process).
class InterruptGuard
{
public:
    InterruptGuard()
    {
        g_interrupts = 0;
        m_int = std::signal(SIGINT, onLaunchInterrupt);
        m_term = std::signal(SIGTERM, onLaunchInterrupt);
    }
    ~InterruptGuard()
    {
        std::signal(SIGINT, m_int);
        std::signal(SIGTERM, m_term);
    }
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

private:
    void (*m_int)(int);
    void (*m_term)(int);
};

void printDryRun(const sp::LaunchRequest& r, std::ostream& out)
{
    out << "Launch " << r.plan.profile << " (" << r.plan.workload << ")\n";
    out << "  cwd:  " << r.composed.cwd << "\n  argv:";
    for (const auto& a : r.composed.argv)
        out << " " << a;
    out << "\n\nChanges to your environment:\n";
    for (const auto& c : r.composed.changes) {
        out << "  " << sp::toString(c.kind) << " " << c.name;
        if (c.kind != sp::EnvChange::Removed)
            out << "=" << c.after;
        out << "\n      why: " << c.reason << "\n";
    }
    if (!r.plan.steps.empty())
        out << "\n" << r.plan.steps.size() << " setup step(s) run before the first launch.\n";
}

void printEvent(const sp::LaunchEvent& e, sp::cli::Io& io, bool json)
{
    if (json) {
        io.out << sp::toJson(e).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
               << "\n";
        return;
    }
    const bool tty = io.stdoutIsTerminal;
    const char* hi = tty ? "\x1b[1;36m" : "";
    const char* off = tty ? "\x1b[0m" : "";
    switch (e.kind) {
    case sp::LaunchEvent::Line:
        io.out << sp::terminalSafe(e.text, tty) << "\n"; // colours only, on a terminal
        break;
    case sp::LaunchEvent::Url:
        io.out << hi << "==> Open " << e.data.value("url", "") << off << "\n";
        break;
    case sp::LaunchEvent::KnownIssue:
        io.out << hi << "==> Known issue " << e.data.value("known_issue", "") << " (line "
               << e.data.value("line", 0) << "): " << e.data.value("title", "") << off
               << "\n    fix: " << e.data.value("remedy", "") << "\n";
        break;
    case sp::LaunchEvent::Step:
        io.out << hi << "==> Step " << e.data.value("index", 0) << "/" << e.data.value("of", 0)
               << " " << e.data.value("state", "") << off << "\n";
        break;
    case sp::LaunchEvent::Exit:
        io.out << hi << "==> The workload " << e.data.value("text", "") << off << "\n";
        break;
    }
    io.out.flush();
}

int runSession(sp::LaunchRequest request, sp::cli::Io& io, bool json)
{
    const bool plain = !json;
    sp::LaunchSession session(std::move(request),
                              [&](const sp::LaunchEvent& e) { printEvent(e, io, json); });
    std::string error;
    InterruptGuard guard;
    if (!session.start(error)) {
        io.err << "stackpilot-cli launch: " << error << "\n";
        return 1;
    }
    QEventLoop loop;
    QObject::connect(&session, &sp::LaunchSession::finished, &loop, &QEventLoop::quit);
    QTimer poll;
    int handled = 0;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        const int n = g_interrupts.load();
        if (n == handled)
            return;
        handled = n;
        n == 1 ? session.stop() : session.kill();
    });
    poll.start(50);
    loop.exec();
    if (plain && !session.succeeded())
        io.err << "stackpilot-cli launch: log: " << sp::paths::toUtf8(session.files().log) << "\n";
    return session.succeeded() ? 0 : 1;
}

// Runtimes a repair_runtime remedy asked for are reinstalled before the launch; their
// steps run again, and the remedies are then done (forgotten from settings.json).
int repairPending(sp::LaunchRequest& request, const sp::Catalog& catalog, sp::Settings& settings,
                  sp::cli::Io& io)
{
    std::vector<const sp::Runtime*> runtimes;
    for (const std::string& id : request.plan.repair)
        if (const sp::Runtime* rt = catalog.runtime(id))
            runtimes.push_back(rt);
    sp::InstallOptions options;
    options.force = true;
    nlohmann::json report;
    sp::cli::Io progress{io.err, io.err, false}; // stdout is the event stream
    if (const int rc =
            sp::cli::installRuntimes(runtimes, options, "launch", progress, false, report))
        return rc;
    for (const sp::Runtime* rt : runtimes)
        sp::clearStepReceiptsUsing(catalog, rt->id, request.dataDir);
    sp::completeRepairs(settings, request.plan.workload);
    if (auto saved = settings.save(sp::Settings::defaultFile()); !saved) {
        io.err << "stackpilot-cli launch: " << saved.error().message << "\n";
        return sp::cli::exitCodeFor(saved.error());
    }
    request.rerunSteps = true;
    return 0;
}

class LaunchCommand : public sp::cli::Command
{
public:
    QString name() const override { return QStringLiteral("launch"); }
    QString summary() const override
    {
        return QStringLiteral("Run a profile's workload in its composed environment.");
    }
    void configure(QCommandLineParser& p) override
    {
        p.addPositionalArgument(QStringLiteral("profile"), QStringLiteral("Profile id."));
        p.addPositionalArgument(QStringLiteral("args"),
                                QStringLiteral("Extra workload arguments, after --."),
                                QStringLiteral("[-- ARGS...]"));
        p.addOption({QStringLiteral("dry-run"),
                     QStringLiteral("Print the environment, argv and folder; run nothing.")});
        p.addOption({QStringLiteral("rerun-steps"),
                     QStringLiteral("Run the setup steps even when done before.")});
        sp::cli::addMachineOptions(p);
        sp::cli::addJsonOption(p);
        sp::cli::addCatalogDirOption(p);
    }
    int run(const QCommandLineParser& p, sp::cli::Io& io) override
    {
        const QStringList pos = p.positionalArguments();
        if (pos.isEmpty()) {
            io.err << "stackpilot-cli launch: PROFILE is required\n";
            return 2;
        }
        int rc = 0;
        auto loaded = sp::cli::loadCatalogForCli(p, io, "launch", &rc);
        if (!loaded)
            return rc;
        auto snapshot = sp::cli::machineForCli(p, io, &rc);
        if (!snapshot)
            return rc;
        sp::LaunchSetup setup;
        setup.catalog = &loaded->catalog;
        setup.snapshot = std::move(*snapshot);
        setup.profile = sp::cli::toStd(pos.front());
        setup.select = sp::hostSelectSettings(setup.snapshot);
        auto userSettings = sp::Settings::load();
        if (!userSettings) {
            io.err << "stackpilot-cli launch: " << userSettings.error().message << "\n";
            return sp::cli::exitCodeFor(userSettings.error());
        }
        setup.settings = *userSettings;
        setup.userEnv = sp::currentEnvironment();
        for (qsizetype i = 1; i < pos.size(); ++i)
            setup.extraArgs.push_back(sp::cli::toStd(pos[i]));
        setup.logsRoot = sp::paths::logDir();
        setup.dataDir = sp::paths::fromUtf8(setup.select.dataDir);
        auto request = sp::prepareLaunch(setup);
        if (!request) {
            io.err << "stackpilot-cli launch: " << request.error().message << "\n";
            return sp::cli::exitCodeFor(request.error());
        }
        request->rerunSteps = p.isSet(QStringLiteral("rerun-steps"));
        const bool json = p.isSet(QStringLiteral("json"));
        if (p.isSet(QStringLiteral("dry-run"))) {
            if (json)
                io.out << sp::dryRunJson(*request).dump(2) << "\n";
            else {
                sp::cli::PrintableStream out(io.out);
                printDryRun(*request, out);
            }
            return 0;
        }
        if (!request->plan.repair.empty()) {
            if (const int repaired = repairPending(*request, loaded->catalog, setup.settings, io);
                repaired != 0)
                return repaired;
        }
        if (const auto missing = sp::missingRuntimes(request->plan); !missing.empty()) {
            io.err << "stackpilot-cli launch: not installed: " << missing.front()
                   << " (run: stackpilot-cli install " << request->plan.profile << ")\n";
            return 1;
        }
        return runSession(std::move(*request), io, json);
    }
};

} // namespace

SP_REGISTER_COMMAND(LaunchCommand)
