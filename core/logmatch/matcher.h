#pragma once
// The log matcher: the catalog's known-issue signatures compiled once, then run over
// a workload's output, either a whole file (diagnose-log) or line by line while the
// workload runs. Both go through LogScan::feed, so they give the same result.
//
// Each line is first scanned for all prefilter literals at once (MultiLiteral);
// only the signatures whose literal occurs (plus the few with no derivable literal)
// are tried with RE2 (linear time, signature.h). A line is matched on its first
// kMaxLineBytes bytes, and a regex searches at most kRegexWindow bytes around its
// literal, which bounds the work per line.
//
// Results: the first line where each known issue appears, with how many lines it
// appeared on in total; ordered by that first line, then by catalog order. An issue
// with a log condition (`log_requires`) is held back until a line shows it; it is
// then reported with its first line, after the issues already reported.

#include "core/catalog/types.h"
#include "core/expected.h"
#include "core/logmatch/context.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sp::logmatch {

inline constexpr std::size_t kMaxLineBytes = 1 << 20;
inline constexpr std::size_t kRegexWindow = 2048;
inline constexpr std::size_t kExcerptBytes = 300;
inline constexpr std::uint32_t kNoRule = 0xffffffffu;

struct LogMatch
{
    std::string knownIssue; // id
    std::string title;
    std::size_t line = 0;  // 1-based, first occurrence
    std::size_t count = 0; // lines it matched on
    std::string excerpt;   // the line, trimmed, valid UTF-8, at most ~300 bytes
    std::string remedy;    // the remedy's text
    std::string action;    // the remedy's action
};

class LogMatcher
{
public:
    // Fails (InvalidInput, naming the issue and its signature) on a regex RE2 rejects.
    static Expected<LogMatcher> compile(std::vector<KnownIssue> issues);

    LogMatcher(LogMatcher&&) noexcept;
    LogMatcher& operator=(LogMatcher&&) noexcept;
    ~LogMatcher();

    const std::vector<KnownIssue>& issues() const;
    std::size_t signatureCount() const;
    std::size_t literalCount() const;
    std::size_t alwaysRunCount() const; // signatures with no literal prefilter

    // Indices (into issues()) of the issues whose signatures match this line, in
    // catalog order, each once; matchStart receives, per hit, the byte offset of
    // the first match in the line, and `rules` the context rule the match needs
    // (kNoRule: none; a cause with `when` gives one); `cues` the context cues the line
    // shows (context.h), found in the same scan when the catalog has context rules;
    // `conditions` the log_requires patterns whose literal the line holds (for
    // conditionsFound: the same scan serves both).
    void matchLine(std::string_view line, std::vector<std::size_t>& hits,
                   std::vector<std::size_t>* matchStart = nullptr,
                   std::vector<std::uint32_t>* rules = nullptr, unsigned* cues = nullptr,
                   std::vector<std::uint32_t>* conditions = nullptr) const;

    // Context rules: causes with `when`, each with the issues it outranks on its line.
    std::size_t ruleCount() const;
    unsigned contextNeeds() const; // what they need of the log's context (context.h)
    const CauseContext& ruleContext(std::uint32_t rule) const;
    const std::vector<std::size_t>& ruleOutranks(std::uint32_t rule) const;

    // Issues with `log_requires` (KnownIssue::logRequires): their matches count only
    // once a line shows the condition. hasCondition(i) says whether issue i has one;
    // conditionsOnLine marks in `met` (indexed by issue) the issues not yet marked whose
    // condition this line shows, and appends their indices to `newlyMet`.
    bool hasCondition(std::size_t issue) const;
    void conditionsOnLine(std::string_view line, std::vector<char>& met,
                          std::vector<std::size_t>& newlyMet) const;
    // The same with the patterns matchLine found the literals of (no second scan).
    void conditionsFound(std::string_view line, const std::vector<std::uint32_t>& ids,
                         std::vector<char>& met, std::vector<std::size_t>& newlyMet) const;

    struct Impl;

private:
    explicit LogMatcher(std::unique_ptr<Impl> impl);
    void runConditions(std::string_view line, const std::vector<char>& mayMatch,
                       std::vector<char>& met, std::vector<std::size_t>& newlyMet) const;
    std::unique_ptr<Impl> m_impl;
};

class LogScan
{
public:
    // `seed`: what the caller knows of the machine the log comes from (its OS); the
    // rest of the context a cause may need comes from the log's own lines.
    explicit LogScan(const LogMatcher& matcher, LogContext seed = {});

    // One complete line without its newline; a trailing '\r' is ignored. Returns how
    // many known issues appeared for the first time on it (a live view's cue to
    // show matches().back() and the ones before it).
    std::size_t feed(std::string_view line);
    // Any chunk of a byte stream; complete lines are fed, the rest is kept.
    std::size_t feedBytes(std::string_view chunk);
    // At the end of the output: reports the matches still waiting to see whether a
    // cause outranks them (the same count as feed). A live view calls it once.
    std::size_t flush();
    // Feeds the last line when the stream did not end with a newline, then flushes.
    std::size_t finish();

    std::size_t lineCount() const { return m_line; }
    const std::vector<LogMatch>& matches() const { return m_matches; }
    const LogContext& context() const { return m_context.context(); }

private:
    // A match that waits: for its cause's context (pending), or for the context of the
    // cause that outranks it on its line, until `deadline` (deferred).
    struct Waiting
    {
        std::size_t issue = 0;
        std::uint32_t rule = kNoRule;
        std::size_t deadline = 0;
        LogMatch match;
    };

    const LogMatcher& m_matcher;
    ContextTracker m_context;
    bool m_tracksContext = false;
    std::size_t m_line = 0;
    std::string m_partial;
    LogMatch makeMatch(std::size_t issue, std::string_view line, std::size_t start) const;
    void record(std::size_t issue, std::string_view line, std::size_t start);
    void commit(std::size_t issue, LogMatch m);
    void release(std::size_t issue);
    std::uint32_t outrankedBy(std::size_t hit) const;
    void onHit(std::size_t hit, std::string_view line);
    void resolve();

    std::vector<LogMatch> m_matches;
    std::vector<std::ptrdiff_t> m_slot;          // per issue: index into m_matches, -1 = none yet
    std::vector<char> m_conditionMet;            // per issue: its log condition was seen
    std::vector<std::optional<LogMatch>> m_held; // per issue: matched, condition not yet seen
    std::size_t m_unmet = 0;                     // issues whose condition is not yet seen
    static constexpr std::size_t kNever = ~std::size_t{0};
    std::vector<Waiting> m_pending;
    std::vector<Waiting> m_deferred;
    std::uint64_t m_seenChanges = 0;     // the context's changes() when last looked at
    std::size_t m_nextDeadline = kNever; // the earliest deferred match's deadline
    std::vector<std::size_t> m_newlyMet;
    std::vector<std::size_t> m_hits;
    std::vector<std::size_t> m_starts;
    std::vector<std::uint32_t> m_rules;
    std::vector<std::uint32_t> m_conditionHits;
};

// Reads the file in large blocks through one LogScan. Runtime error when the file
// cannot be opened or read.
Expected<std::vector<LogMatch>> scanFile(const LogMatcher& matcher,
                                         const std::filesystem::path& file,
                                         std::size_t* lineCount = nullptr,
                                         const LogContext& seed = {});

// The line, trimmed, with invalid UTF-8 and control characters replaced by U+FFFD,
// cut to about kExcerptBytes on a character boundary; starts near `focus` (a byte
// offset into the line) when the line is longer than that.
std::string makeExcerpt(std::string_view line, std::size_t focus = 0);

} // namespace sp::logmatch
