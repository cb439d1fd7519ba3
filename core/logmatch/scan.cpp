// LogScan: one log, line by line, through a compiled LogMatcher (matcher.h).
#include "core/logmatch/matcher.h"
#include "core/paths.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace sp::logmatch {

namespace {

// How many lines an outranked match waits for the context of the cause that outranks it
// ("current device: 1" comes on the line after "invalid device function").
constexpr std::size_t kContextLines = 40;

} // namespace

LogScan::LogScan(const LogMatcher& matcher, LogContext seed)
    : m_matcher(matcher), m_context(std::move(seed)), m_tracksContext(matcher.ruleCount() > 0),
      m_slot(matcher.issues().size(), -1), m_conditionMet(matcher.issues().size(), 0),
      m_held(matcher.issues().size())
{
    m_context.setNeeds(matcher.contextNeeds());
    for (std::size_t i = 0; i < m_conditionMet.size(); ++i) {
        m_conditionMet[i] = matcher.hasCondition(i) ? 0 : 1;
        m_unmet += m_conditionMet[i] ? 0 : 1;
    }
}

LogMatch LogScan::makeMatch(std::size_t issue, std::string_view line, std::size_t start) const
{
    const KnownIssue& ki = m_matcher.issues()[issue];
    return LogMatch{ki.id,
                    ki.title,
                    m_line,
                    1,
                    makeExcerpt(line.substr(0, kMaxLineBytes), start),
                    ki.remedy.text,
                    toString(ki.remedy.action)};
}

void LogScan::record(std::size_t issue, std::string_view line, std::size_t start)
{
    if (m_slot[issue] >= 0) {
        ++m_matches[static_cast<std::size_t>(m_slot[issue])].count;
        return;
    }
    if (m_held[issue]) {
        ++m_held[issue]->count;
        return;
    }
    commit(issue, makeMatch(issue, line, start));
}

// A match found earlier (held for its context, or outranked for a while) reported now,
// with the line it was found on.
void LogScan::commit(std::size_t issue, LogMatch m)
{
    if (m_slot[issue] >= 0) {
        m_matches[static_cast<std::size_t>(m_slot[issue])].count += m.count;
        return;
    }
    if (m_held[issue]) {
        m_held[issue]->count += m.count;
        return;
    }
    if (!m_conditionMet[issue]) {
        m_held[issue] = std::move(m);
        return;
    }
    m_slot[issue] = static_cast<std::ptrdiff_t>(m_matches.size());
    m_matches.push_back(std::move(m));
}

void LogScan::release(std::size_t issue)
{
    if (!m_held[issue] || m_slot[issue] >= 0)
        return;
    m_slot[issue] = static_cast<std::ptrdiff_t>(m_matches.size());
    m_matches.push_back(std::move(*m_held[issue]));
    m_held[issue].reset();
}

// The rule of another hit on this line that outranks hit k, or kNoRule.
std::uint32_t LogScan::outrankedBy(std::size_t k) const
{
    for (std::size_t j = 0; j < m_hits.size(); ++j) {
        if (j == k || m_rules[j] == kNoRule)
            continue;
        const auto& over = m_matcher.ruleOutranks(m_rules[j]);
        if (std::find(over.begin(), over.end(), m_hits[k]) != over.end())
            return m_rules[j];
    }
    return kNoRule;
}

void LogScan::onHit(std::size_t k, std::string_view line)
{
    const std::size_t issue = m_hits[k];
    const std::uint32_t rule = m_rules[k];
    if (const std::uint32_t by = outrankedBy(k); by != kNoRule) {
        if (!m_context.holds(m_matcher.ruleContext(by))) {
            m_nextDeadline = std::min(m_nextDeadline, m_line + kContextLines);
            m_deferred.push_back(
                {issue, by, m_line + kContextLines, makeMatch(issue, line, m_starts[k])});
        }
        return; // outranked: dropped when that cause's context holds
    }
    if (rule == kNoRule || m_slot[issue] >= 0 || m_context.holds(m_matcher.ruleContext(rule))) {
        record(issue, line, m_starts[k]);
        return;
    }
    for (auto& p : m_pending)
        if (p.issue == issue) {
            ++p.match.count;
            return;
        }
    m_pending.push_back({issue, rule, 0, makeMatch(issue, line, m_starts[k])});
}

// Matches waiting for their context get it, or outranked ones wait no longer.
void LogScan::resolve()
{
    const bool changed = m_context.changes() != m_seenChanges;
    m_seenChanges = m_context.changes();
    for (std::size_t i = 0; changed && i < m_pending.size();) {
        Waiting& p = m_pending[i];
        if (!m_context.holds(m_matcher.ruleContext(p.rule))) {
            ++i;
            continue;
        }
        const std::uint32_t rule = p.rule;
        commit(p.issue, std::move(p.match));
        m_pending.erase(m_pending.begin() + static_cast<std::ptrdiff_t>(i));
        std::erase_if(m_deferred, [&](const Waiting& d) { return d.rule == rule; });
    }
    m_nextDeadline = kNever;
    for (std::size_t i = 0; i < m_deferred.size();) {
        Waiting& d = m_deferred[i];
        // Outranked after all (the cause that outranks it was recorded before): dropped.
        const bool outranked = changed && m_context.holds(m_matcher.ruleContext(d.rule));
        if (!outranked && d.deadline > m_line) {
            m_nextDeadline = std::min(m_nextDeadline, d.deadline);
            ++i;
            continue;
        }
        if (!outranked)
            commit(d.issue, std::move(d.match));
        m_deferred.erase(m_deferred.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

std::size_t LogScan::feed(std::string_view line)
{
    const std::size_t before = m_matches.size();
    ++m_line;
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    // One scan finds the signatures, the conditions' literals and the context cues.
    unsigned cues = 0;
    m_conditionHits.clear();
    m_matcher.matchLine(line, m_hits, &m_starts, &m_rules, &cues,
                        m_unmet > 0 ? &m_conditionHits : nullptr);
    // The condition first, so a match on the line that shows it counts at once.
    m_newlyMet.clear();
    if (m_unmet > 0) {
        m_matcher.conditionsFound(line, m_conditionHits, m_conditionMet, m_newlyMet);
        m_unmet -= m_newlyMet.size();
    }
    if (m_tracksContext && cues != 0)
        m_context.line(line, cues);
    for (std::size_t k = 0; k < m_hits.size(); ++k)
        onHit(k, line);
    for (const std::size_t issue : m_newlyMet)
        release(issue);
    // Waiting matches are looked at again only when the context changed or a deadline
    // came: most lines of a long log change nothing.
    if ((!m_pending.empty() || !m_deferred.empty()) &&
        (m_context.changes() != m_seenChanges || m_line >= m_nextDeadline))
        resolve();
    return m_matches.size() - before;
}

std::size_t LogScan::feedBytes(std::string_view chunk)
{
    const std::size_t before = m_matches.size();
    // Keep one byte beyond the limit so a trailing '\r' is handled as in feed().
    constexpr std::size_t keep = kMaxLineBytes + 1;
    auto append = [&](std::string_view piece) {
        const std::size_t room = keep - std::min(keep, m_partial.size());
        m_partial.append(piece.substr(0, room));
    };
    while (!chunk.empty()) {
        const void* nl = std::memchr(chunk.data(), '\n', chunk.size());
        if (!nl) {
            append(chunk);
            break;
        }
        const auto len = static_cast<std::size_t>(static_cast<const char*>(nl) - chunk.data());
        if (m_partial.empty()) {
            feed(chunk.substr(0, len)); // the common case: no copy
        } else {
            append(chunk.substr(0, len));
            feed(m_partial);
            m_partial.clear();
        }
        chunk.remove_prefix(len + 1);
    }
    return m_matches.size() - before;
}

std::size_t LogScan::flush()
{
    const std::size_t before = m_matches.size();
    for (auto& d : m_deferred)
        commit(d.issue, std::move(d.match));
    m_deferred.clear();
    return m_matches.size() - before;
}

std::size_t LogScan::finish()
{
    std::size_t found = 0;
    if (!m_partial.empty())
        found = feed(m_partial);
    m_partial.clear();
    return found + flush();
}

Expected<std::vector<LogMatch>> scanFile(const LogMatcher& matcher,
                                         const std::filesystem::path& file, std::size_t* lineCount,
                                         const LogContext& seed)
{
    const std::string name = paths::toUtf8(file);
    // A missing file, a folder or a FIFO is a bad input (exit 3, as for every verb),
    // refused before anything opens it: a FIFO would block the read.
    std::error_code ec;
    const auto st = std::filesystem::status(file, ec);
    if (st.type() == std::filesystem::file_type::not_found)
        return Error::invalid(name + ": no such file");
    if (st.type() != std::filesystem::file_type::regular)
        return Error::invalid(name + ": is " +
                              (st.type() == std::filesystem::file_type::directory ? "a directory"
                               : st.type() == std::filesystem::file_type::fifo
                                   ? "a FIFO (named pipe)"
                                   : "not a regular file") +
                              ", not a log file");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return Error::invalid(name + ": cannot open: " + std::strerror(errno));

    LogScan scan(matcher, seed);
    std::vector<char> buffer(std::size_t{4} << 20);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0)
            break;
        scan.feedBytes(std::string_view(buffer.data(), got));
    }
    if (in.bad())
        return Error::runtime(name + ": read error");
    scan.finish();
    if (lineCount)
        *lineCount = scan.lineCount();
    return scan.matches();
}

} // namespace sp::logmatch
