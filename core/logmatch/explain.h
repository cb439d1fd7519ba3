#pragma once
// An unknown failure explained: when no known issue matches a log, the line a person
// would point at, the component it comes from, and what to do with it (search for it,
// send the diagnostics bundle, report it). The window's failure card and `diagnose-log`
// show it; docs/SIGNATURES.md, "Unknown failures", has the rules.
//
// The decisive line is chosen in the failure at the end of the log (its last
// kTailLines lines): a fatal signal or crash, an exception's last line, an error, a
// non-zero exit. The earliest line of the highest rank wins, since what follows the
// first error is mostly its consequences; a line that names an error code (hipError...,
// HSA_STATUS_..., CUBLAS_STATUS_..., GGML_ASSERT) outranks one that only says "error",
// and an exit status ranks below both. Boilerplate (PyTorch's "Search for `hipError...'"
// hint, stack frames) is never chosen.

#include "core/logmatch/context.h"

#include <cstddef>
#include <deque>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace sp::logmatch {

inline constexpr std::size_t kTailLines = 200;

struct UnknownFailure
{
    bool found = false;             // false: the log shows no failure (nothing to explain)
    std::size_t line = 0;           // 1-based
    std::string decisive;           // the line, as makeExcerpt gives it
    std::string why;                // "fatal signal", "exception", "error", "non-zero exit"
    std::string component;          // "hip-runtime", "rocblas", ... (componentName gives words)
    std::vector<std::string> lines; // the decisive line with up to 2 before and 3 after
    std::size_t firstLine = 0;      // the number of lines.front()
    std::string searchText;         // the line without paths, addresses, numbers, times
};

// Collects the tail of a log and explains it on demand. Cheap per line: a ring of
// kTailLines lines, each cut to a few KB.
class FailureExplainer
{
public:
    void feed(std::string_view line);
    // `context`: what the scan saw of the machine (the matcher's LogScan::context()).
    UnknownFailure explain(const LogContext& context = {}) const;

private:
    std::deque<std::string> m_tail;
    std::size_t m_lines = 0;
};

// The same over a file: only its last few hundred KB are read.
UnknownFailure explainFile(const std::filesystem::path& file, std::size_t lineCount,
                           const LogContext& context = {});

// The component's name in English ("HIP runtime", "the workload itself"); the window
// has its own translations of the same ids.
std::string componentName(const std::string& component);

// A prefilled report of the failure (Markdown): what ran, the decisive lines, the
// component. Not redacted: the front ends pass it through their redactor.
std::string failureReport(const UnknownFailure& f, const std::string& logName);

} // namespace sp::logmatch
