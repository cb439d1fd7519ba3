#pragma once
// How the CLI shows a session's events (app/common/session/events.h): install
// progress (ProgressView) and a launch's lines and banners (EventPrinter). The verbs
// that do work (install, repair, launch, run) print through these and nothing else.

#include "app/cli/command.h"
#include "app/cli/commands/line_writer.h"
#include "app/common/session/events.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sp::cli {

// The line under a failure's message on stderr: what its cause means, in the words the
// window shows (app/common/diag/cause_words.h), in the user's language; "" when the
// cause is Unknown (the message says it all).
std::string causeLine(Cause cause);

// One line per artifact. On a terminal the block is redrawn in place (cursor up, \r,
// clear line) at most ten times a second; otherwise plain lines are printed when an
// artifact starts and when it is done. Notices go to stderr. `quiet` (--json) prints
// notices only. Called from the installer's worker threads too.
class ProgressView
{
public:
    ProgressView(Io& io, bool quiet) : m_io(io), m_quiet(quiet) {}
    void onEvent(const session::Event& e);
    // Leaves the last drawn state on screen and starts a fresh block.
    void close();

private:
    void message(const std::string& text);
    void progress(const session::ArtifactProgress& p);
    void done(const session::ArtifactDone& d);
    void clearBlock();
    void drawBlock();

    Io& m_io;
    bool m_quiet;
    std::mutex m_mutex;
    std::map<std::string, std::string> m_lines;
    std::vector<std::string> m_order;
    std::size_t m_drawn = 0;
    std::chrono::steady_clock::time_point m_lastDraw{};
};

// A whole session's events as `launch` and `run` print them. Plain: the workload's
// lines and "==>" banners on stdout, install progress and errors on stderr. JSON: one
// object per line on stdout (events.h toJson); install progress at most ten lines a
// second per artifact; errors too when `jsonErrors` (run), else only on stderr.
// Stdout is written through a LineWriter: a blocked stdout never blocks the caller.
class EventPrinter
{
public:
    // Errors read "stackpilot-cli VERB: message" on stderr.
    EventPrinter(Io& io, std::string verb, bool json, bool jsonErrors);
    void operator()(const session::Event& e);

private:
    void printPlain(const session::Event& e);
    bool throttled(const session::Event& e);

    Io& m_io;
    std::string m_verb;
    bool m_json;
    bool m_jsonErrors;
    Io m_progressIo;
    ProgressView m_progress;
    std::map<std::string, std::chrono::steady_clock::time_point> m_lastProgress;
    std::unique_ptr<LineWriter> m_writer; // stdout, never blocking the caller
};

} // namespace sp::cli
