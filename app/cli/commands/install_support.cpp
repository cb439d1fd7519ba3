#include "app/cli/commands/install_support.h"

#include "app/cli/commands/event_printer.h"
#include "app/common/session/session.h"
#include "core/catalog/loader.h"
#include "core/format.h"
#include "core/paths.h"
#include "core/settings.h"
#include "installers/install_plan.h"

#include <QEventLoop>
#include <QSocketNotifier>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>

#ifndef _WIN32
#include <unistd.h>
#endif

namespace sp::cli {

namespace {

// Ctrl-C and SIGTERM cancel the session's work in progress: an install's transfers
// stop and its staging folder is removed; a launch is stopped, then killed on a second.
// A signal handler may only write a byte; the waiting loop reads it and cancels.
#ifdef _WIN32
session::Session* g_session = nullptr; // Windows runs the handler on a thread of its own
extern "C" void onInterrupt(int sig)
{
    std::signal(sig, onInterrupt);
    if (g_session)
        g_session->cancel();
}
#else
int g_signalPipe[2] = {-1, -1};
extern "C" void onInterrupt(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto n = ::write(g_signalPipe[1], &byte, 1);
}
#endif

} // namespace

const session::Outcome& waitFor(session::Session& session, bool started)
{
    static const session::Outcome busy = [] {
        session::Outcome o;
        o.result = Error::runtime("another job of this session is running");
        return o;
    }();
    if (!started)
        return busy;
    QEventLoop loop;
    QObject::connect(&session, &session::Session::finished, &loop, &QEventLoop::quit);
#ifdef _WIN32
    g_session = &session;
    auto* oldInt = std::signal(SIGINT, onInterrupt);
    auto* oldTerm = std::signal(SIGTERM, onInterrupt);
    if (session.busy())
        loop.exec();
    g_session = nullptr;
#else
    if (::pipe(g_signalPipe) != 0)
        g_signalPipe[0] = g_signalPipe[1] = -1;
    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &session, [&session] {
        char byte = 0;
        if (::read(g_signalPipe[0], &byte, 1) == 1)
            session.cancel();
    });
    auto* oldInt = std::signal(SIGINT, onInterrupt);
    auto* oldTerm = std::signal(SIGTERM, onInterrupt);
    if (session.busy())
        loop.exec();
    notifier.setEnabled(false);
#endif
    std::signal(SIGINT, oldInt);
    std::signal(SIGTERM, oldTerm);
#ifndef _WIN32
    ::close(g_signalPipe[0]);
    ::close(g_signalPipe[1]);
    g_signalPipe[0] = g_signalPipe[1] = -1;
#endif
    return session.outcome();
}

std::filesystem::path prefixRootOf(const QCommandLineParser& p)
{
    const QString v = p.value(QStringLiteral("prefix-root"));
    return v.isEmpty() ? std::filesystem::path{} : toPath(v);
}

bool readInstallSourceOptions(const QCommandLineParser& p, Io& io, const std::string& verb,
                              InstallOptions& options)
{
    if (p.isSet(QStringLiteral("offline"))) {
        options.offlineDir = toPath(p.value(QStringLiteral("offline")));
        std::error_code ec;
        if (options.offlineDir->empty() ||
            !std::filesystem::is_directory(*options.offlineDir, ec)) {
            io.err << "stackpilot-cli " << verb << ": --offline needs an existing folder\n";
            return false;
        }
        options.allowNetwork = false;
    }
    options.acceptChangedDownloads = p.isSet(QStringLiteral("accept-changed"));
    return true;
}

int fail(Io& io, const std::string& verb, const Error& e)
{
    io.err << "stackpilot-cli " << verb << ": " << e.message << "\n" << causeLine(e.cause);
    return exitCodeFor(e);
}

int installRuntimes(const std::vector<const Runtime*>& runtimes, InstallOptions options,
                    const std::string& verb, Io& io, bool json, nlohmann::json& report)
{
    ProgressView view(io, json);
    session::Session session({}, [&](const session::Event& e) { view.onEvent(e); });
    report["runtimes"] = nlohmann::json::array();
    report["prefix_root"] =
        paths::toUtf8(options.prefixRoot.empty() ? PrefixStore::defaultRoot() : options.prefixRoot);
    session::InstallWork work;
    for (const Runtime* rt : runtimes)
        work.runtimes.push_back(*rt);
    work.options = std::move(options);
    const session::Outcome& outcome = waitFor(session, session.startInstall(std::move(work)));
    view.close();
    return reportInstalled(outcome, verb, io, json, report);
}

int reportInstalled(const session::Outcome& outcome, const std::string& verb, Io& io, bool json,
                    nlohmann::json& report)
{
    if (!report.contains("runtimes"))
        report["runtimes"] = nlohmann::json::array();
    for (const InstallResult& r :
         outcome.result ? outcome.installed : std::vector<InstallResult>()) {
        report["runtimes"].push_back(toJson(r));
        if (json)
            continue;
        if (r.alreadyInstalled)
            io.out << r.id << ": already installed in " << paths::toUtf8(r.dir) << "\n";
        else
            io.out << r.id << ": installed " << r.files << " entries in " << paths::toUtf8(r.dir)
                   << "\n";
    }
    if (!outcome.result) {
        report["error"] = outcome.result.error().message;
        report["cause"] = toString(outcome.result.error().cause);
    }
    if (json)
        io.out << report.dump(2) << "\n";
    return outcome.result ? 0 : fail(io, verb, outcome.result.error());
}

} // namespace sp::cli
