#include "app/cli/commands/event_printer.h"

#include "app/common/diag/cause_words.h"
#include "core/format.h"
#include "core/overloads.h"
#include "core/text.h"

#include <cstdio>
#include <ostream>
#include <sstream>

namespace sp::cli {

namespace {

using namespace session;

std::string progressLine(const ArtifactProgress& p)
{
    std::ostringstream s;
    s << p.runtime << ": " << p.name << "  " << format::bytes(p.received);
    if (p.total)
        s << " / " << format::bytes(*p.total);
    s << "  " << format::rate(p.bytesPerSecond);
    if (p.etaSeconds)
        s << "  ETA " << static_cast<long>(*p.etaSeconds) << "s";
    return s.str();
}

bool isInstallEvent(const Event& e)
{
    return std::holds_alternative<RuntimeStarted>(e) ||
           std::holds_alternative<ArtifactProgress>(e) || std::holds_alternative<ArtifactDone>(e) ||
           std::holds_alternative<Notice>(e);
}

} // namespace

std::string causeLine(Cause cause)
{
    if (cause == Cause::Unknown)
        return {};
    return causeWords(cause).toStdString() + "\n";
}

void ProgressView::onEvent(const Event& e)
{
    std::lock_guard lock(m_mutex);
    if (const auto* n = std::get_if<Notice>(&e))
        message(n->runtime.empty() ? n->text : n->runtime + ": " + n->text);
    else if (m_quiet)
        return;
    else if (const auto* p = std::get_if<ArtifactProgress>(&e))
        progress(*p);
    else if (const auto* d = std::get_if<ArtifactDone>(&e))
        done(*d);
    m_io.out.flush();
}

void ProgressView::close()
{
    std::lock_guard lock(m_mutex);
    m_lines.clear();
    m_order.clear();
    m_drawn = 0;
}

void ProgressView::message(const std::string& text)
{
    clearBlock();
    m_io.err << text << "\n";
    drawBlock();
}

void ProgressView::progress(const ArtifactProgress& p)
{
    const std::string key = p.runtime + "#" + std::to_string(p.artifact);
    auto [it, added] = m_lines.try_emplace(key);
    if (added) {
        m_order.push_back(key);
        if (!m_io.stdoutIsTerminal)
            m_io.out << p.runtime << ": fetching " << p.name << "\n";
    }
    it->second = progressLine(p);
    if (!m_io.stdoutIsTerminal)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (now - m_lastDraw > std::chrono::milliseconds(100)) {
        m_lastDraw = now;
        clearBlock();
        drawBlock();
    }
}

void ProgressView::done(const ArtifactDone& d)
{
    const std::string key = d.runtime + "#" + std::to_string(d.artifact);
    auto [it, added] = m_lines.try_emplace(key);
    if (added)
        m_order.push_back(key);
    it->second = d.runtime + ": " + d.name + " done";
    if (m_io.stdoutIsTerminal) {
        clearBlock();
        drawBlock();
    } else {
        m_io.out << it->second << "\n";
    }
}

void ProgressView::clearBlock()
{
    if (!m_io.stdoutIsTerminal || m_drawn == 0)
        return;
    m_io.out << "\x1b[" << m_drawn << "A";
    m_drawn = 0;
}

void ProgressView::drawBlock()
{
    if (!m_io.stdoutIsTerminal)
        return;
    for (const auto& k : m_order)
        m_io.out << "\r\x1b[K" << m_lines[k] << "\n";
    m_drawn = m_order.size();
}

EventPrinter::EventPrinter(Io& io, std::string verb, bool json, bool jsonErrors)
    : m_io(io), m_verb(std::move(verb)), m_json(json),
      m_jsonErrors(jsonErrors), m_progressIo{io.err, io.err, false},
      m_progress(m_progressIo, false), m_writer(std::make_unique<LineWriter>(io.out, io.err))
{}

// A download reports every chunk; ten JSON lines a second per artifact are plenty.
bool EventPrinter::throttled(const Event& e)
{
    const auto* p = std::get_if<ArtifactProgress>(&e);
    if (!p)
        return false;
    const auto now = std::chrono::steady_clock::now();
    auto& last = m_lastProgress[p->runtime + "#" + std::to_string(p->artifact)];
    if (now - last < std::chrono::milliseconds(100))
        return true;
    last = now;
    return false;
}

void EventPrinter::operator()(const Event& e)
{
    if (const auto* f = std::get_if<Failed>(&e); f && !(m_json && m_jsonErrors)) {
        m_io.err << "stackpilot-cli " << m_verb << ": " << f->message << "\n"
                 << causeLine(f->cause);
        return;
    }
    if (!m_json)
        return printPlain(e);
    if (throttled(e))
        return;
    m_writer->write(toJson(e).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
                    "\n");
}

namespace {

std::string preflightText(const PreflightChecked& p)
{
    if (!p.available)
        return "==> " + p.profile + " is unavailable now: " + p.reason;
    return "==> Preflight of " + p.profile + ": " + std::to_string(p.artifacts) +
           " downloads found" +
           (p.downloadBytes ? ", " + format::bytes(p.downloadBytes) + " to download" : "") +
           (p.sizesKnown ? "" : " (some sizes unknown)");
}

std::string verifiedText(const StackVerified& v)
{
    if (!v.passed)
        return "==> Smoke test of " + v.profile + " failed: " + v.reason;
    std::string line = "==> Smoke test of " + v.profile + " passed";
    if (!v.device.empty())
        line += " on " + v.device + (v.arch.empty() ? "" : " (" + v.arch + ")");
    if (v.seconds) {
        char took[32];
        std::snprintf(took, sizeof took, ", timed part %.3f s", *v.seconds);
        line += took;
    }
    return line;
}

std::string switchedText(const ProfileSwitched& s)
{
    if (s.to.empty())
        return "==> " + s.from + " cannot be used: " + s.reason;
    return s.switched ? "==> Switching from " + s.from + " to " + s.to + ": " + s.reason
                      : "==> " + s.from + " cannot be used (" + s.reason +
                            "); StackPilot can switch to " + s.to;
}

// Two workloads on one card: allowed, said with what each needs.
std::string sharedGpuText(const SharedGpu& s)
{
    auto need = [](const std::optional<std::int64_t>& mb) {
        return mb ? format::vramMb(mb) : std::string("an amount the catalog does not state");
    };
    return "==> " + s.other + " already runs on " + s.gpu + " (" +
           (s.memoryMb ? format::vramMb(s.memoryMb) : std::string("unknown")) +
           " of memory). Both share it: " + s.other + " needs at least " + need(s.otherNeedMb) +
           ", " + s.workload + " at least " + need(s.needMb) + ".";
}

} // namespace

// Every event type has its line here (std::visit: a new event does not compile until it
// has one). Install events go to the progress view; the confirmation is the verb's.
void EventPrinter::printPlain(const Event& e)
{
    if (isInstallEvent(e))
        return m_progress.onEvent(e);
    const bool tty = m_io.stdoutIsTerminal;
    const std::string hi = tty ? "\x1b[1;36m" : "";
    const std::string off = tty ? "\x1b[0m" : "";
    // What the workload printed (its lines, its URL) and what a user's catalog.d says
    // reach the terminal with colours only: every other escape is shown escaped.
    auto said = [&](const std::string& text) {
        return hi + terminalSafe(text, false) + off + "\n";
    };
    const std::string out = std::visit(
        Overloads{
            [&](const ConsoleLine& l) { return terminalSafe(l.text, tty) + "\n"; },
            [&](const UrlAnnounced& u) { return said("==> Open " + u.url); },
            [&](const KnownIssueSeen& k) {
                return hi + "==> Known issue " + terminalSafe(k.id, false) + " (line " +
                       std::to_string(k.line) + "): " + terminalSafe(k.title, false) + off +
                       "\n    fix: " + terminalSafe(k.remedy, false) + "\n";
            },
            [&](const StepChanged& s) {
                return s.state == StepState::Skipped
                           ? said("==> Setup steps skipped: done before")
                           : said("==> Step " + std::to_string(s.index) + "/" +
                                  std::to_string(s.of) + " " + toString(s.state));
            },
            [&](const WorkloadExited& x) { return said("==> The workload " + x.end.text); },
            [&](const RuntimeInstalled& r) {
                m_io.err << r.runtime
                         << (r.alreadyInstalled ? ": already installed" : ": installed") << "\n";
                return std::string();
            },
            [&](const PreflightChecked& p) { return said(preflightText(p)); },
            [&](const StackVerified& v) { return said(verifiedText(v)); },
            [&](const ProfileSwitched& s) { return said(switchedText(s)); },
            [&](const SharedGpu& s) { return said(sharedGpuText(s)); },
            [](const RuntimeStarted&) { return std::string(); },   // the progress view's
            [](const ArtifactProgress&) { return std::string(); }, // the progress view's
            [](const ArtifactDone&) { return std::string(); },     // the progress view's
            [](const Notice&) { return std::string(); },           // the progress view's
            [](const Failed&) { return std::string(); },           // operator() prints it
            [](const ConfirmInstall&) { return std::string(); },   // the verb asks
            [](const LaunchStarted&) { return std::string(); },
        },
        e);
    if (!out.empty())
        m_writer->write(out); // on the writer's thread: stdout may be blocked
}

} // namespace sp::cli
