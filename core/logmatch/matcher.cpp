#include "core/logmatch/matcher.h"

#include "core/logmatch/literals.h"
#include "core/logmatch/multi_literal.h"
#include "core/logmatch/signature.h"
#include "core/paths.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <re2/re2.h>
#include <system_error>

namespace sp::logmatch {

namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

} // namespace

struct LogMatcher::Impl
{
    // One compiled signature and the issue it belongs to. Nested rather than in an
    // anonymous namespace: Impl has external linkage.
    struct Signature
    {
        std::size_t issue = 0;
        std::shared_ptr<const re2::RE2> re;
    };
    std::vector<KnownIssue> issues;
    std::vector<Signature> signatures;                         // in catalog order: issue by issue
    std::vector<std::string> literals;                         // distinct
    std::vector<std::vector<std::uint32_t>> literalSignatures; // literal -> signatures
    std::vector<std::uint32_t> alwaysRun;
    MultiLiteral scanner{{}};
    // Per issue: its log_requires patterns (empty for most).
    std::vector<std::vector<std::shared_ptr<const re2::RE2>>> conditions;
    // The same prefilter for them: each pattern (numbered across issues, in order) runs
    // on a line only when one of its required literals is there, or always when it has
    // none. Most lines show no condition, and each pattern run on each of them would
    // cost more than the signatures do.
    std::vector<std::vector<std::uint32_t>> conditionIds;        // per issue, per pattern
    std::vector<char> conditionAlways;                           // per pattern: no literal
    std::vector<std::vector<std::uint32_t>> conditionLiteralIds; // literal -> patterns
    MultiLiteral conditionScanner{{}};
};

LogMatcher::LogMatcher(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
LogMatcher::LogMatcher(LogMatcher&&) noexcept = default;
LogMatcher& LogMatcher::operator=(LogMatcher&&) noexcept = default;
LogMatcher::~LogMatcher() = default;

namespace {

// The issues' log_requires patterns and their literal prefilter.
Expected<bool> compileConditions(LogMatcher::Impl& impl, const std::vector<KnownIssue>& issues)
{
    std::vector<std::string> literals;
    impl.conditions.resize(issues.size());
    impl.conditionIds.resize(issues.size());
    for (std::size_t i = 0; i < issues.size(); ++i) {
        for (const auto& pattern : issues[i].logRequires) {
            auto re = compileSignature(pattern);
            if (!re)
                return Error::invalid(issues[i].where.toString() + ": known issue '" +
                                      issues[i].id + "': log_requires \"" + pattern +
                                      "\": " + re.error().message);
            impl.conditions[i].push_back(std::move(*re));
            const auto id = static_cast<std::uint32_t>(impl.conditionAlways.size());
            impl.conditionIds[i].push_back(id);
            const std::vector<std::string> lits = requiredLiterals(pattern);
            impl.conditionAlways.push_back(lits.empty() ? 1 : 0);
            for (const auto& lit : lits) {
                auto at = std::find(literals.begin(), literals.end(), lit);
                if (at == literals.end()) {
                    literals.push_back(lit);
                    impl.conditionLiteralIds.emplace_back();
                    at = literals.end() - 1;
                }
                impl.conditionLiteralIds[std::size_t(at - literals.begin())].push_back(id);
            }
        }
    }
    impl.conditionScanner = MultiLiteral(literals);
    return true;
}

} // namespace

Expected<LogMatcher> LogMatcher::compile(std::vector<KnownIssue> issues)
{
    auto impl = std::make_unique<Impl>();
    auto literalIndex = [&](const std::string& lit) {
        const auto it = std::find(impl->literals.begin(), impl->literals.end(), lit);
        if (it != impl->literals.end())
            return static_cast<std::size_t>(it - impl->literals.begin());
        impl->literals.push_back(lit);
        impl->literalSignatures.emplace_back();
        return impl->literals.size() - 1;
    };

    for (std::size_t i = 0; i < issues.size(); ++i) {
        const KnownIssue& issue = issues[i];
        // Explicit literals gate every signature of the issue; an empty or
        // line-breaking one could never gate anything, so it disables the gate.
        bool explicitUsable = !issue.literals.empty();
        for (const auto& lit : issue.literals)
            if (lit.empty() || lit.find_first_of("\r\n") != std::string::npos)
                explicitUsable = false;

        for (const auto& pattern : issue.signatures) {
            const auto sigIndex = static_cast<std::uint32_t>(impl->signatures.size());
            auto re = compileSignature(pattern);
            if (!re)
                return Error::invalid(issue.where.toString() + ": known issue '" + issue.id +
                                      "': signature \"" + pattern + "\": " + re.error().message);
            impl->signatures.push_back({i, std::move(*re)});
            const std::vector<std::string> lits =
                explicitUsable ? issue.literals : requiredLiterals(pattern);
            if (lits.empty()) {
                impl->alwaysRun.push_back(sigIndex);
                continue;
            }
            for (const auto& lit : lits) {
                auto& sigs = impl->literalSignatures[literalIndex(lit)];
                if (std::find(sigs.begin(), sigs.end(), sigIndex) == sigs.end())
                    sigs.push_back(sigIndex);
            }
        }
    }
    if (auto conditions = compileConditions(*impl, issues); !conditions)
        return conditions.error();
    impl->scanner = MultiLiteral(impl->literals);
    impl->issues = std::move(issues);
    return LogMatcher(std::move(impl));
}

const std::vector<KnownIssue>& LogMatcher::issues() const
{
    return m_impl->issues;
}
std::size_t LogMatcher::signatureCount() const
{
    return m_impl->signatures.size();
}
std::size_t LogMatcher::literalCount() const
{
    return m_impl->literals.size();
}
std::size_t LogMatcher::alwaysRunCount() const
{
    return m_impl->alwaysRun.size();
}

void LogMatcher::matchLine(std::string_view line, std::vector<std::size_t>& hits,
                           std::vector<std::size_t>* matchStart) const
{
    hits.clear();
    if (matchStart)
        matchStart->clear();
    if (line.size() > kMaxLineBytes)
        line = line.substr(0, kMaxLineBytes);

    // Candidates: (signature, end of its first literal). Small and rare, so a
    // linear search beats any set.
    struct Candidate
    {
        std::uint32_t signature;
        std::size_t literalEnd;
    };
    thread_local std::vector<Candidate> candidates;
    candidates.clear();
    m_impl->scanner.scan(line, [&](std::uint32_t lit, std::size_t end) {
        for (const std::uint32_t sig : m_impl->literalSignatures[lit]) {
            const bool seen = std::any_of(candidates.begin(), candidates.end(),
                                          [&](const Candidate& c) { return c.signature == sig; });
            if (!seen)
                candidates.push_back({sig, end});
        }
    });
    for (const std::uint32_t sig : m_impl->alwaysRun)
        candidates.push_back({sig, 0});
    if (candidates.empty())
        return;
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& a, const Candidate& b) { return a.signature < b.signature; });

    std::size_t lastIssue = kNone;
    for (const Candidate& c : candidates) {
        const auto& sig = m_impl->signatures[c.signature];
        if (sig.issue == lastIssue)
            continue; // this issue already matched on this line
        std::size_t begin = 0;
        if (line.size() > kRegexWindow) {
            begin = c.literalEnd > kRegexWindow / 2 ? c.literalEnd - kRegexWindow / 2 : 0;
            begin = std::min(begin, line.size() - kRegexWindow);
        }
        const std::size_t end = std::min(line.size(), begin + kRegexWindow);
        // RE2 sees the whole line as context, so inside a long line '^', '$' and '\b'
        // still see the line's edges; it only searches [begin, end).
        re2::StringPiece match;
        const re2::StringPiece text(line.data(), line.size());
        if (!sig.re->Match(text, begin, end, re2::RE2::UNANCHORED, &match, 1))
            continue;
        lastIssue = sig.issue;
        hits.push_back(sig.issue);
        if (matchStart)
            matchStart->push_back(static_cast<std::size_t>(match.data() - line.data()));
    }
}

bool LogMatcher::hasCondition(std::size_t issue) const
{
    return issue < m_impl->conditions.size() && !m_impl->conditions[issue].empty();
}

void LogMatcher::conditionsOnLine(std::string_view line, std::vector<char>& met,
                                  std::vector<std::size_t>& newlyMet) const
{
    if (line.size() > kMaxLineBytes)
        line = line.substr(0, kMaxLineBytes);
    // Which patterns may match here: those without a literal, and those whose literal is in
    // the line (a pattern's every match holds one of its literals).
    thread_local std::vector<char> mayMatch;
    mayMatch = m_impl->conditionAlways;
    m_impl->conditionScanner.scan(line, [&](std::uint32_t lit, std::size_t) {
        for (const std::uint32_t id : m_impl->conditionLiteralIds[lit])
            mayMatch[id] = 1;
    });
    const re2::StringPiece text(line.data(), line.size());
    for (std::size_t i = 0; i < m_impl->conditions.size() && i < met.size(); ++i) {
        if (met[i])
            continue;
        for (std::size_t k = 0; k < m_impl->conditions[i].size(); ++k) {
            const auto& re = m_impl->conditions[i][k];
            if (mayMatch[m_impl->conditionIds[i][k]] && re2::RE2::PartialMatch(text, *re)) {
                met[i] = 1;
                newlyMet.push_back(i);
                break;
            }
        }
    }
}

LogScan::LogScan(const LogMatcher& matcher)
    : m_matcher(matcher), m_slot(matcher.issues().size(), -1),
      m_conditionMet(matcher.issues().size(), 0), m_held(matcher.issues().size())
{
    for (std::size_t i = 0; i < m_conditionMet.size(); ++i) {
        m_conditionMet[i] = matcher.hasCondition(i) ? 0 : 1;
        m_unmet += m_conditionMet[i] ? 0 : 1;
    }
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
    const KnownIssue& ki = m_matcher.issues()[issue];
    LogMatch m{ki.id,
               ki.title,
               m_line,
               1,
               makeExcerpt(line.substr(0, kMaxLineBytes), start),
               ki.remedy.text,
               toString(ki.remedy.action)};
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

std::size_t LogScan::feed(std::string_view line)
{
    const std::size_t before = m_matches.size();
    ++m_line;
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    // The condition first, so a match on the line that shows it counts at once.
    m_newlyMet.clear();
    if (m_unmet > 0) {
        m_matcher.conditionsOnLine(line, m_conditionMet, m_newlyMet);
        m_unmet -= m_newlyMet.size();
    }
    m_matcher.matchLine(line, m_hits, &m_starts);
    for (std::size_t k = 0; k < m_hits.size(); ++k)
        record(m_hits[k], line, m_starts[k]);
    for (const std::size_t issue : m_newlyMet)
        release(issue);
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

std::size_t LogScan::finish()
{
    std::size_t found = 0;
    if (!m_partial.empty())
        found = feed(m_partial);
    m_partial.clear();
    return found;
}

Expected<std::vector<LogMatch>> scanFile(const LogMatcher& matcher,
                                         const std::filesystem::path& file, std::size_t* lineCount)
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

    LogScan scan(matcher);
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
