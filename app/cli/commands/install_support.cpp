#include "app/cli/commands/install_support.h"

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

// Ctrl-C flips the token of the install in progress; the workers see it, stop
// their transfers and the installer removes its staging folder.
CancelToken* g_cancel = nullptr;
extern "C" void onInterrupt(int)
{
    if (g_cancel)
        g_cancel->cancel();
}

struct InterruptGuard
{
    explicit InterruptGuard(CancelToken& t)
    {
        g_cancel = &t;
        previous = std::signal(SIGINT, onInterrupt);
#ifdef SIGTERM
        previousTerm = std::signal(SIGTERM, onInterrupt);
#endif
    }
    ~InterruptGuard()
    {
        std::signal(SIGINT, previous);
#ifdef SIGTERM
        std::signal(SIGTERM, previousTerm);
#endif
        g_cancel = nullptr;
    }
    void (*previous)(int) = nullptr;
    void (*previousTerm)(int) = nullptr;
};

// One line per artifact. On a terminal the block is redrawn in place (cursor up,
// \r, clear line) at most ten times a second; otherwise plain lines are printed
// when an artifact starts and when it is done.
class ProgressView
{
public:
    ProgressView(Io& io, bool quiet) : m_io(io), m_quiet(quiet) {}

    void onEvent(const InstallEvent& e)
    {
        std::lock_guard lock(m_mutex);
        if (m_quiet) {
            if (e.kind == InstallEvent::Kind::Message)
                m_io.err << e.runtimeId << ": " << e.text << "\n";
            return;
        }
        const std::string key = e.runtimeId + "#" + std::to_string(e.artifact);
        switch (e.kind) {
        case InstallEvent::Kind::Message:
            clearBlock();
            m_io.err << e.runtimeId << ": " << e.text << "\n";
            drawBlock();
            break;
        case InstallEvent::Kind::Progress: {
            auto [it, added] = m_lines.try_emplace(key);
            if (added) {
                m_order.push_back(key);
                if (!m_io.stdoutIsTerminal)
                    m_io.out << e.runtimeId << ": fetching " << e.artifactName << "\n";
            }
            it->second = line(e, false);
            if (m_io.stdoutIsTerminal) {
                const auto now = std::chrono::steady_clock::now();
                if (now - m_lastDraw > std::chrono::milliseconds(100)) {
                    m_lastDraw = now;
                    clearBlock();
                    drawBlock();
                }
            }
            break;
        }
        case InstallEvent::Kind::ArtifactDone: {
            auto [it, added] = m_lines.try_emplace(key);
            if (added)
                m_order.push_back(key);
            it->second = e.runtimeId + ": " + e.artifactName + " done";
            if (m_io.stdoutIsTerminal) {
                clearBlock();
                drawBlock();
            } else {
                m_io.out << it->second << "\n";
            }
            break;
        }
        }
        m_io.out.flush();
    }

    // Leaves the last drawn state on screen and starts a fresh block.
    void close()
    {
        std::lock_guard lock(m_mutex);
        m_lines.clear();
        m_order.clear();
        m_drawn = 0;
    }

private:
    static std::string line(const InstallEvent& e, bool)
    {
        std::ostringstream s;
        const auto& p = e.progress;
        s << e.runtimeId << ": " << e.artifactName << "  " << format::bytes(p.received);
        if (p.total)
            s << " / " << format::bytes(*p.total);
        s << "  " << format::rate(p.bytesPerSecond);
        if (p.etaSeconds)
            s << "  ETA " << static_cast<long>(*p.etaSeconds) << "s";
        return s.str();
    }
    void clearBlock()
    {
        if (!m_io.stdoutIsTerminal || m_drawn == 0)
            return;
        m_io.out << "\x1b[" << m_drawn << "A";
        m_drawn = 0;
    }
    void drawBlock()
    {
        if (!m_io.stdoutIsTerminal)
            return;
        for (const auto& k : m_order)
            m_io.out << "\r\x1b[K" << m_lines[k] << "\n";
        m_drawn = m_order.size();
    }

    Io& m_io;
    bool m_quiet;
    std::mutex m_mutex;
    std::map<std::string, std::string> m_lines;
    std::vector<std::string> m_order;
    std::size_t m_drawn = 0;
    std::chrono::steady_clock::time_point m_lastDraw{};
};

} // namespace

void addPrefixRootOption(QCommandLineParser& p)
{
    p.addOption({QStringLiteral("prefix-root"),
                 QStringLiteral("Keep installed runtimes under DIR (default <data>/runtimes)."),
                 QStringLiteral("DIR")});
}

std::filesystem::path prefixRootOf(const QCommandLineParser& p)
{
    const QString v = p.value(QStringLiteral("prefix-root"));
    return v.isEmpty() ? std::filesystem::path{} : paths::fromUtf8(toStd(v));
}

int fail(Io& io, const std::string& verb, const Error& e)
{
    io.err << "stackpilot-cli " << verb << ": " << e.message << "\n";
    return exitCodeFor(e);
}

int installRuntimes(const std::vector<const Runtime*>& runtimes, InstallOptions options,
                    const std::string& verb, Io& io, bool json, nlohmann::json& report)
{
    auto settings = Settings::load();
    if (!settings)
        return fail(io, verb, settings.error());
    options.settings = *settings;
    CancelToken cancel;
    options.cancel = cancel;
    InterruptGuard guard(cancel);
    ProgressView view(io, json);
    options.onEvent = [&](const InstallEvent& e) { view.onEvent(e); };

    report["runtimes"] = nlohmann::json::array();
    Installer installer(options);
    report["prefix_root"] = paths::toUtf8(installer.store().root());
    for (const auto& line : installer.store().recoverAll())
        io.err << "recovered: " << line << "\n";
    for (const Runtime* rt : runtimes) {
        auto r = installer.install(*rt);
        view.close();
        if (!r) {
            report["runtimes"].push_back(
                {{"id", rt->id}, {"ok", false}, {"error", r.error().message}});
            if (json)
                io.out << report.dump(2) << "\n";
            return fail(io, verb, r.error());
        }
        report["runtimes"].push_back(toJson(*r));
        if (!json) {
            if (r->alreadyInstalled)
                io.out << r->id << ": already installed in " << paths::toUtf8(r->dir) << "\n";
            else
                io.out << r->id << ": installed " << r->files << " entries in "
                       << paths::toUtf8(r->dir) << "\n";
        }
    }
    if (json)
        io.out << report.dump(2) << "\n";
    return 0;
}

} // namespace sp::cli
