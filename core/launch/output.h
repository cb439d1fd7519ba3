#pragma once
// What the launcher does with a workload's output, line by line: split the byte
// streams into lines, decode them to UTF-8, strip ANSI colours for matching and the
// log, spot the URL the UI serves on, and run the known-issue matcher. All of it is
// plain code with no process attached, so it is tested and benchmarked on its own.

#include "core/events.h"
#include "core/launch/text_decoder.h"
#include "core/logmatch/matcher.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace sp {

// ESC [ ... final (CSI: colours, cursor moves) and its 8-bit form U+009B ... final,
// ESC ] ... BEL or ESC \ (OSC: titles, links), DCS/SOS/PM/APC strings and two-byte ESC
// sequences removed; everything else kept. Valid UTF-8 stays valid (core/text.h,
// escapeSequenceEnd).
std::string stripAnsi(std::string_view line);

// Splits one byte stream into lines: '\n', "\r\n" (even split across chunks), and a
// lone '\r', which progress bars end their updates with, so each update is shown as
// it comes rather than all at the next newline. A line longer than maxLine bytes is
// cut into pieces of maxLine bytes, so a runaway stream without newlines cannot eat
// memory.
class LineSplitter
{
public:
    explicit LineSplitter(std::size_t maxLine = std::size_t{1} << 20) : m_maxLine(maxLine) {}
    void feed(std::string_view chunk, const std::function<void(std::string_view)>& onLine);
    void finish(const std::function<void(std::string_view)>& onLine);

private:
    void emitPartial(const std::function<void(std::string_view)>& onLine);
    void appendCut(std::string_view piece, const std::function<void(std::string_view)>& onLine);

    std::size_t m_maxLine;
    std::string m_partial;
    bool m_justCut = false;      // the last piece was emitted because it reached maxLine
    bool m_pendingCr = false;    // the last chunk ended with '\r': a '\n' first is its pair
    bool m_skippedEmpty = false; // ... and that '\r' ended an empty line, not shown
};

// Finds the URL a workload serves on. With the workload's url_regex (group 1, else
// the whole match) any URL it names counts; without one, only local http(s) URLs
// (0.0.0.0, 127.x, localhost, [::], [::1]). 0.0.0.0 becomes 127.0.0.1 and [::]
// becomes [::1]: a browser cannot open a wildcard address. Each URL is reported once.
class UrlFinder
{
public:
    explicit UrlFinder(const std::string& urlRegex = {});
    ~UrlFinder();
    UrlFinder(UrlFinder&&) noexcept;
    UrlFinder& operator=(UrlFinder&&) noexcept;
    // A URL seen for the first time on this (ANSI-stripped) line.
    std::optional<std::string> find(std::string_view line);

private:
    std::shared_ptr<const re2::RE2> m_regex;
    bool m_localOnly = true;
    std::set<std::string> m_seen;
};

std::string browsableUrl(std::string url);

// What the log file gets of a launch's lines: the front ends' redaction of secrets
// (app/common/diag/log_filter.h). A secret may span lines (a private key's BEGIN, body
// and END), so a filter keeps state from line to line, and may hold lines back until a
// later one tells what they were (a key's body whose BEGIN was cut off). It gives out
// one line for each line in, in order.
class LogFilter
{
public:
    virtual ~LogFilter() = default;
    // Appends to `out` the lines to write now, each without its '\n'.
    virtual void line(std::string_view text, std::vector<std::string>& out) = 0;
    // The end of a process's output: what is held goes out, and no block stays open.
    virtual void finish(std::vector<std::string>& out) = 0;
};

// Everything between a stream's bytes and the events: splitting, decoding, the log
// file, URL spotting and the matcher (each issue reported once per launch).
class OutputPipeline
{
public:
    // `context`: what the machine tells the matcher before the log does (its OS, the
    // plan's runtimes).
    OutputPipeline(const logmatch::LogMatcher* matcher, const std::string& urlRegex,
                   unsigned codePage, events::LaunchSink sink, std::FILE* log,
                   const logmatch::LogContext& context = {});

    void feed(bool isStderr, std::string_view chunk);
    void finish();
    // What the log file gets of the lines (the front ends' redaction of secrets);
    // unset: each line as it is. Either way control characters are escaped there
    // (core/text.h printable: BEL, C1 controls). Events, the matcher and the URL finder
    // see the line.
    void setLogFilter(std::shared_ptr<LogFilter> filter) { m_logFilter = std::move(filter); }

    const std::vector<logmatch::LogMatch>& matches() const;
    const std::vector<std::string>& urls() const { return m_urls; }
    std::size_t lineCount() const { return m_lines; }

private:
    void onLine(bool isStderr, std::string_view bytes);
    void announce(std::size_t fresh); // the last `fresh` matches, as events

    TextDecoder m_decoder;
    UrlFinder m_urlFinder;
    std::optional<logmatch::LogScan> m_scan;
    events::LaunchSink m_sink;
    std::FILE* m_log;
    void writeLog(std::string_view line);

    std::shared_ptr<LogFilter> m_logFilter;
    std::vector<std::string> m_logLines; // what the filter gives out, reused
    LineSplitter m_out, m_err;
    std::vector<std::string> m_urls;
    std::size_t m_lines = 0;
};

} // namespace sp
