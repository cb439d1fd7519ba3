#include "core/logmatch/matcher.h"

#include "core/logmatch/causes.h"
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
        std::uint32_t rule = kNoRule; // a cause's context it needs, if any
    };
    // A cause with a context: what it needs and the issues it outranks on its line.
    struct Rule
    {
        std::size_t issue = 0;
        CauseContext when;
        std::vector<std::size_t> over;
    };
    std::vector<Rule> rules;
    // Per literal: the context cues it shows (context.h), 0 for most. With rules to
    // decide, the cue literals join the scan, so a line is scanned once for both.
    std::vector<unsigned> literalCues;
    unsigned contextNeeds = 0; // what the rules' contexts need (context.h)
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
    std::vector<std::string> conditionLiterals; // the scanner's, in its order
    // Per literal of the main scan: the condition patterns it lets run, so a LogScan
    // finds signatures' and conditions' literals in one pass over the line.
    std::vector<std::vector<std::uint32_t>> literalConditions;
    bool conditionAlwaysAny = false; // some pattern has no literal: it runs on every line
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
    impl.conditionLiterals = std::move(literals);
    impl.conditionAlwaysAny = std::find(impl.conditionAlways.begin(), impl.conditionAlways.end(),
                                        1) != impl.conditionAlways.end();
    return true;
}

} // namespace

namespace {

// Adds one signature, gated by `lits` (always run when empty).
Expected<bool> addSignature(LogMatcher::Impl& impl, std::size_t issue, const std::string& pattern,
                            const std::vector<std::string>& lits, std::uint32_t rule)
{
    const auto sigIndex = static_cast<std::uint32_t>(impl.signatures.size());
    auto re = compileSignature(pattern);
    if (!re)
        return Error::invalid(re.error().message);
    impl.signatures.push_back({issue, std::move(*re), rule});
    if (lits.empty()) {
        impl.alwaysRun.push_back(sigIndex);
        return true;
    }
    for (const auto& lit : lits) {
        auto it = std::find(impl.literals.begin(), impl.literals.end(), lit);
        if (it == impl.literals.end()) {
            impl.literals.push_back(lit);
            impl.literalSignatures.emplace_back();
            it = impl.literals.end() - 1;
        }
        auto& sigs = impl.literalSignatures[std::size_t(it - impl.literals.begin())];
        if (std::find(sigs.begin(), sigs.end(), sigIndex) == sigs.end())
            sigs.push_back(sigIndex);
    }
    return true;
}

// The issue's causes after its signatures: those without a context first, so that on a
// line where both match, the one that needs nothing more wins (matchLine keeps an
// issue's first matching signature).
Expected<bool> addCauses(LogMatcher::Impl& impl, const std::vector<KnownIssue>& issues,
                         std::size_t i)
{
    for (const bool contextual : {false, true}) {
        for (const auto& cause : issues[i].causes) {
            if (cause.when.empty() == contextual)
                continue;
            std::uint32_t rule = kNoRule;
            if (contextual) {
                rule = static_cast<std::uint32_t>(impl.rules.size());
                LogMatcher::Impl::Rule r{i, cause.when, {}};
                for (const auto& id : cause.over)
                    for (std::size_t k = 0; k < issues.size(); ++k)
                        if (issues[k].id == id && k != i)
                            r.over.push_back(k);
                impl.rules.push_back(std::move(r));
            }
            for (const auto& sig : causeSignatures(cause))
                if (auto ok = addSignature(impl, i, sig.pattern, {sig.literal}, rule); !ok)
                    return Error::invalid(cause.where.toString() + ": known issue '" +
                                          issues[i].id + "': cause: " + ok.error().message);
        }
    }
    return true;
}

// The condition literals in the main scan too (see literalConditions).
void addConditionLiterals(LogMatcher::Impl& impl)
{
    impl.literalConditions.assign(impl.literals.size(), {});
    for (std::size_t c = 0; c < impl.conditionLiterals.size(); ++c) {
        const std::string& lit = impl.conditionLiterals[c];
        auto it = std::find(impl.literals.begin(), impl.literals.end(), lit);
        if (it == impl.literals.end()) {
            impl.literals.push_back(lit);
            impl.literalSignatures.emplace_back();
            impl.literalCues.push_back(0);
            impl.literalConditions.emplace_back();
            it = impl.literals.end() - 1;
        }
        auto& ids = impl.literalConditions[std::size_t(it - impl.literals.begin())];
        ids.insert(ids.end(), impl.conditionLiteralIds[c].begin(),
                   impl.conditionLiteralIds[c].end());
    }
}

void addContextCues(LogMatcher::Impl& impl)
{
    impl.literalCues.assign(impl.literals.size(), 0);
    if (impl.rules.empty())
        return;
    for (const auto& r : impl.rules)
        impl.contextNeeds |= contextNeeds(r.when);
    for (const auto& [lit, cue] : contextCueLiterals(impl.contextNeeds)) {
        auto it = std::find(impl.literals.begin(), impl.literals.end(), lit);
        if (it == impl.literals.end()) {
            impl.literals.push_back(lit);
            impl.literalSignatures.emplace_back();
            impl.literalCues.push_back(0);
            it = impl.literals.end() - 1;
        }
        impl.literalCues[std::size_t(it - impl.literals.begin())] |= cue;
    }
}

} // namespace

Expected<LogMatcher> LogMatcher::compile(std::vector<KnownIssue> issues)
{
    auto impl = std::make_unique<Impl>();
    for (std::size_t i = 0; i < issues.size(); ++i) {
        const KnownIssue& issue = issues[i];
        // Explicit literals gate every signature of the issue; an empty or
        // line-breaking one could never gate anything, so it disables the gate.
        bool explicitUsable = !issue.literals.empty();
        for (const auto& lit : issue.literals)
            if (lit.empty() || lit.find_first_of("\r\n") != std::string::npos)
                explicitUsable = false;
        for (const auto& pattern : issue.signatures) {
            const auto lits = explicitUsable ? issue.literals : requiredLiterals(pattern);
            if (auto ok = addSignature(*impl, i, pattern, lits, kNoRule); !ok)
                return Error::invalid(issue.where.toString() + ": known issue '" + issue.id +
                                      "': signature \"" + pattern + "\": " + ok.error().message);
        }
        if (auto ok = addCauses(*impl, issues, i); !ok)
            return ok.error();
    }
    if (auto conditions = compileConditions(*impl, issues); !conditions)
        return conditions.error();
    addContextCues(*impl);
    addConditionLiterals(*impl);
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
unsigned LogMatcher::contextNeeds() const
{
    return m_impl->contextNeeds;
}
std::size_t LogMatcher::ruleCount() const
{
    return m_impl->rules.size();
}
const CauseContext& LogMatcher::ruleContext(std::uint32_t rule) const
{
    return m_impl->rules[rule].when;
}
const std::vector<std::size_t>& LogMatcher::ruleOutranks(std::uint32_t rule) const
{
    return m_impl->rules[rule].over;
}

void LogMatcher::matchLine(std::string_view line, std::vector<std::size_t>& hits,
                           std::vector<std::size_t>* matchStart, std::vector<std::uint32_t>* rules,
                           unsigned* cues, std::vector<std::uint32_t>* conditions) const
{
    hits.clear();
    if (matchStart)
        matchStart->clear();
    if (rules)
        rules->clear();
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
    unsigned lineCues = 0;
    m_impl->scanner.scan(line, [&](std::uint32_t lit, std::size_t end) {
        lineCues |= m_impl->literalCues[lit];
        if (conditions)
            for (const std::uint32_t id : m_impl->literalConditions[lit])
                conditions->push_back(id);
        for (const std::uint32_t sig : m_impl->literalSignatures[lit]) {
            const bool seen = std::any_of(candidates.begin(), candidates.end(),
                                          [&](const Candidate& c) { return c.signature == sig; });
            if (!seen)
                candidates.push_back({sig, end});
        }
    });
    if (cues)
        *cues = lineCues;
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
        if (rules)
            rules->push_back(sig.rule);
    }
}

bool LogMatcher::hasCondition(std::size_t issue) const
{
    return issue < m_impl->conditions.size() && !m_impl->conditions[issue].empty();
}

void LogMatcher::conditionsFound(std::string_view line, const std::vector<std::uint32_t>& ids,
                                 std::vector<char>& met, std::vector<std::size_t>& newlyMet) const
{
    if (ids.empty() && !m_impl->conditionAlwaysAny)
        return; // most lines: no condition's literal, nothing to run
    if (line.size() > kMaxLineBytes)
        line = line.substr(0, kMaxLineBytes);
    thread_local std::vector<char> mayMatch;
    mayMatch = m_impl->conditionAlways;
    for (const std::uint32_t id : ids)
        mayMatch[id] = 1;
    runConditions(line, mayMatch, met, newlyMet);
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
    runConditions(line, mayMatch, met, newlyMet);
}

void LogMatcher::runConditions(std::string_view line, const std::vector<char>& mayMatch,
                               std::vector<char>& met, std::vector<std::size_t>& newlyMet) const
{
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

} // namespace sp::logmatch
