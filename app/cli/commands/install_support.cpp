#include "app/cli/commands/install_support.h"

#include "app/cli/commands/event_printer.h"
#include "app/common/session/session.h"
#include "core/catalog/loader.h"
#include "core/format.h"
#include "core/paths.h"
#include "core/settings.h"
#include "installers/install_plan.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>

namespace sp::cli {

namespace {

// Ctrl-C and SIGTERM cancel the session's work in progress: an install's transfers
// stop and its staging folder is removed; a launch is stopped, then killed on a second.
session::Session* g_session = nullptr;
extern "C" void onInterrupt(int)
{
    if (g_session)
        g_session->cancel();
}

} // namespace

SessionInterrupts::SessionInterrupts(session::Session& s)
{
    g_session = &s;
    m_int = std::signal(SIGINT, onInterrupt);
    m_term = std::signal(SIGTERM, onInterrupt);
}

SessionInterrupts::~SessionInterrupts()
{
    std::signal(SIGINT, m_int);
    std::signal(SIGTERM, m_term);
    g_session = nullptr;
}

void addPrefixRootOption(QCommandLineParser& p)
{
    p.addOption({QStringLiteral("prefix-root"),
                 QStringLiteral("Keep installed runtimes under DIR (default <data>/runtimes)."),
                 QStringLiteral("DIR")});
}

std::filesystem::path prefixRootOf(const QCommandLineParser& p)
{
    const QString v = p.value(QStringLiteral("prefix-root"));
    return v.isEmpty() ? std::filesystem::path{} : toPath(v);
}

void addInstallSourceOptions(QCommandLineParser& p)
{
    p.addOption({QStringLiteral("offline"),
                 QStringLiteral("Take artifacts from DIR; never use the network."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("accept-changed"),
                 QStringLiteral("Accept a download the catalog does not pin whose bytes changed "
                                "since it was first installed here, and pin the new ones.")});
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
    SessionInterrupts interrupts(session);
    report["runtimes"] = nlohmann::json::array();
    report["prefix_root"] =
        paths::toUtf8(options.prefixRoot.empty() ? PrefixStore::defaultRoot() : options.prefixRoot);
    auto done = session.install(runtimes, std::move(options));
    view.close();
    if (done) {
        for (const InstallResult& r : *done) {
            report["runtimes"].push_back(toJson(r));
            if (json)
                continue;
            if (r.alreadyInstalled)
                io.out << r.id << ": already installed in " << paths::toUtf8(r.dir) << "\n";
            else
                io.out << r.id << ": installed " << r.files << " entries in "
                       << paths::toUtf8(r.dir) << "\n";
        }
    }
    if (!done) {
        report["error"] = done.error().message;
        report["cause"] = toString(done.error().cause);
    }
    if (json)
        io.out << report.dump(2) << "\n";
    return done ? 0 : fail(io, verb, done.error());
}

} // namespace sp::cli
