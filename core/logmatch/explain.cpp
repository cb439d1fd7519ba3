#include "core/logmatch/explain.h"

#include "core/logmatch/matcher.h"
#include "core/paths.h"

#include <algorithm>
#include <fstream>
#include <re2/re2.h>

namespace sp::logmatch {

namespace {

constexpr std::size_t kKeepBytes = 4096;                  // of one line, in the tail
constexpr std::size_t kReadTail = std::size_t{512} << 10; // of a file
constexpr std::size_t kSearchBytes = 160;

// How telling a line is; the earliest line of the highest rank is the decisive one.
enum LineRank
{
    kRankNone = 0,
    kRankExit = 1,      // a non-zero exit: the consequence, told last
    kRankError = 2,     // says error, failed, cannot, not found ...
    kRankException = 3, // an exception's line: "RuntimeError: ...", ComfyUI's report
    kRankCoded = 4,     // names an error code, or is a fatal signal or crash
};

const RE2& explainRe(const char* pattern)
{
    // Leaked on purpose: shared by every thread until exit.
    return *new RE2(pattern);
}

bool holds(std::string_view line, const RE2& re)
{
    return RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), re);
}

// Stack frames, hints printed after every error of a kind, report headers: never the
// decisive line, whatever words they hold.
bool boilerplate(std::string_view line, bool afterFrame)
{
    static const RE2& re =
        explainRe("^[\\s>]*(Search for \\W?(hip|cuda)Error|(HIP|CUDA) kernel errors might|For "
                  "debugging consider|Compile "
                  "with `TORCH_USE|Traceback \\(most recent call last\\)|Stack \\(most recent|"
                  "Stacktrace:|stack backtrace:|note: run with|Current thread|Thread 0x|File \"|at "
                  "[\\w.$<>]+\\(|#[0-9]+ |0x[0-9A-Fa-f]{8,}|@ +0x|<no Python frame>|[0-9]+: 0x)|"
                  "\\(\\+0x[0-9a-fA-F]+\\) \\[0x");
    // The source line Python prints under a frame, indented deeper than it.
    if (afterFrame && line.size() > 4 && line.substr(0, 4) == "    ")
        return true;
    return holds(line, re);
}

bool fatal(std::string_view line)
{
    static const RE2& re = explainRe(
        "Windows fatal exception|Exception Code: 0x|Segmentation fault|SIG(SEGV|ABRT|BUS|ILL|"
        "FPE)|Fatal Python error|core dumped|HW Exception by GPU|terminate called|panicked "
        "at|SEH exception|[Aa]ccess violation");
    return holds(line, re);
}

bool coded(std::string_view line)
{
    static const RE2& re = explainRe(
        "\\b[A-Z][A-Z0-9]*_(STATUS|ERROR)_[A-Z0-9_]+|\\b(hip|cuda|cu)Error[A-Za-z]+|"
        "\\bmiopenStatus[A-Za-z]+|\\bGGML_ASSERT\\b|\\b0x[cC]0000[0-9a-fA-F]{3}\\b|\\bWinError "
        "[0-9]+|\\bVK_ERROR_[A-Z_]+|\\brocblas_status_[a-z_]+|\\[ONNXRuntimeError\\]");
    return holds(line, re);
}

LineRank rank(std::string_view line, bool afterFrame)
{
    static const RE2& warning =
        explainRe("(?i)^\\W*(warning|warn)\\b|Warning: |level=(INFO|WARN|DEBUG)|\\[(W|I)[: ]|"
                  ": Could not collect$");
    static const RE2& exception =
        explainRe("^[\\s`>]*(- \\*\\*Exception Message:\\*\\*|!!! Exception during processing !!!|"
                  "[A-Za-z_][\\w.]*(Error|Exception|Interrupt)(: |$))");
    static const RE2& exit =
        explainRe("(?i)exit ?(status|code):? ?(-?[1-9]|0x0*[1-9a-f])|non-zero exit status|exited "
                  "with (code|status) -?[1-9]");
    static const RE2& error = explainRe(
        "(?i)\\b(error|failed|failure|fatal|exception|cannot|can't|could not|couldn't|unable "
        "to|not found|not supported|unsupported|insufficient|undefined (reference|symbol)|"
        "assert(ion)?|aborted)\\b|\\bno [a-z]+( [a-z]+)? available\\b");
    if (boilerplate(line, afterFrame))
        return kRankNone;
    if (fatal(line))
        return kRankCoded;
    if (holds(line, warning))
        return coded(line) ? kRankCoded : kRankNone;
    // An exit status is told after the cause, even when it is a code (0xc0000409).
    if (holds(line, exit))
        return kRankExit;
    if (coded(line))
        return kRankCoded;
    if (holds(line, exception))
        return kRankException;
    return holds(line, error) ? kRankError : kRankNone;
}

const char* why(LineRank r, std::string_view line)
{
    if (r == kRankExit)
        return "non-zero exit";
    if (r == kRankException)
        return "exception";
    if (r == kRankCoded && fatal(line))
        return "fatal signal";
    return "error";
}

struct ComponentRule
{
    const char* pattern;
    const char* id;
    const char* name;
};

// Most specific first: a rocBLAS line also says HIP, a ZLUDA one CUDA.
const ComponentRule kComponents[] = {
    {"(?i)hipblaslt|rocblaslt", "hipblaslt", "hipBLASLt"},
    {"(?i)rocblas|tensile", "rocblas", "rocBLAS"},
    {"(?i)miopen", "miopen", "MIOpen"},
    {"(?i)zluda", "zluda", "ZLUDA"},
    {"(?i)migraphx", "migraphx", "MIGraphX"},
    {"(?i)onnxruntime", "onnxruntime", "ONNX Runtime"},
    {"HSA_STATUS|HW Exception by GPU|(?i:hsa api)|\\bROCr\\b", "hsa-runtime", "HSA runtime (ROCr)"},
    {"amdgpu:|\\bkfd\\b", "amdgpu-driver", "amdgpu kernel driver"},
    {"WinError (126|127|193|1114)|DLL load failed|specified module could not be found",
     "windows-loader", "Windows loader"},
    {"hipError|HIP error|amdhip64|\\bHIP\\b", "hip-runtime", "HIP runtime"},
    {"VK_ERROR|vk::|(?i)vulkan|radv", "vulkan-driver", "Vulkan driver"},
    {"CUBLAS_STATUS|(?i)cublas", "cublas", "cuBLAS"},
    {"cudaError|CUDA error|CUDA driver|CUDA failed|libcuda", "cuda-runtime", "CUDA runtime"},
    {"(?i)torch|Traceback|RuntimeError|nvrtc", "pytorch", "PyTorch"},
    {"/usr/bin/ld|undefined reference", "linker", "the linker (a build)"},
};

std::string componentOf(const std::vector<std::string>& lines, std::size_t at)
{
    static const std::vector<const RE2*> compiled = [] {
        std::vector<const RE2*> out;
        for (const auto& rule : kComponents)
            out.push_back(&explainRe(rule.pattern));
        return out;
    }();
    // The decisive line first, then ever more lines around it.
    for (std::size_t reach = 0; reach <= lines.size(); reach += 3) {
        const std::size_t lo = at > reach ? at - reach : 0;
        const std::size_t hi = std::min(lines.size(), at + reach + 1);
        for (std::size_t k = 0; k < compiled.size(); ++k)
            for (std::size_t i = lo; i < hi; ++i)
                if (holds(lines[i], *compiled[k]))
                    return kComponents[k].id;
    }
    return "workload";
}

// What to paste into a search box: the message, without what differs between machines.
std::string searchTextOf(std::string_view line)
{
    std::string s(line.substr(0, kKeepBytes));
    static const RE2& prefix = explainRe("^.*?level=[A-Z]+ source=[^ ]+ ");
    static const RE2& time =
        explainRe("[0-9]{4}[-/][0-9]{2}[-/][0-9]{2}[T ][0-9:.+Z-]+|[0-9]{1,2}:[0-9]{2}:"
                  "[0-9]{2}[.,0-9-]*");
    static const RE2& path = explainRe("[A-Za-z]:\\\\[^\\s\"'`]+|(/[^\\s\"'`:/]+){2,}/?");
    // Addresses, not codes: 0xC0000005 (8 digits) stays.
    static const RE2& hex = explainRe("\\b0x[0-9a-fA-F]{9,}\\b");
    static const RE2& spaces = explainRe("\\s+");
    RE2::Replace(&s, prefix, "");
    RE2::GlobalReplace(&s, time, "");
    RE2::GlobalReplace(&s, path, "");
    RE2::GlobalReplace(&s, hex, "");
    RE2::GlobalReplace(&s, spaces, " ");
    const auto first = s.find_first_not_of(" -*#>!`");
    s = first == std::string::npos ? std::string() : s.substr(first);
    while (!s.empty() && s.back() == ' ')
        s.pop_back();
    return makeExcerpt(s.substr(0, kSearchBytes));
}

UnknownFailure explainLines(const std::vector<std::string>& lines, std::size_t firstNumber,
                            const LogContext& context)
{
    UnknownFailure f;
    LineRank best = kRankNone;
    std::size_t at = 0;
    bool afterFrame = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const LineRank r = rank(lines[i], afterFrame);
        afterFrame = lines[i].find("File \"") != std::string::npos;
        if (r > best) {
            best = r;
            at = i;
        }
    }
    if (best == kRankNone)
        return f;
    f.found = true;
    f.line = firstNumber + at;
    f.decisive = makeExcerpt(lines[at]);
    f.why = why(best, lines[at]);
    f.component = componentOf(lines, at);
    // Under ZLUDA a cuBLAS or CUDA call is ZLUDA's: there is no NVIDIA library to blame.
    const bool zluda = std::find(context.runtimes.begin(), context.runtimes.end(), "zluda") !=
                       context.runtimes.end();
    if (zluda && (f.component == "cublas" || f.component == "cuda-runtime"))
        f.component = "zluda";
    const std::size_t lo = at >= 2 ? at - 2 : 0;
    const std::size_t hi = std::min(lines.size(), at + 4);
    f.firstLine = firstNumber + lo;
    for (std::size_t i = lo; i < hi; ++i)
        f.lines.push_back(makeExcerpt(lines[i]));
    f.searchText = searchTextOf(lines[at]);
    return f;
}

} // namespace

void FailureExplainer::feed(std::string_view line)
{
    ++m_lines;
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    if (m_tail.size() == kTailLines)
        m_tail.pop_front();
    m_tail.emplace_back(line.substr(0, kKeepBytes));
}

UnknownFailure FailureExplainer::explain(const LogContext& context) const
{
    const std::vector<std::string> lines(m_tail.begin(), m_tail.end());
    return explainLines(lines, m_lines - lines.size() + 1, context);
}

UnknownFailure explainFile(const std::filesystem::path& file, std::size_t lineCount,
                           const LogContext& context)
{
    std::ifstream in(file, std::ios::binary | std::ios::ate);
    if (!in)
        return {};
    const auto size = static_cast<std::size_t>(in.tellg());
    const std::size_t start = size > kReadTail ? size - kReadTail : 0;
    in.seekg(static_cast<std::streamoff>(start));
    std::string text(size - start, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    std::vector<std::string> lines;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t nl = std::min(text.find('\n', pos), text.size());
        lines.push_back(text.substr(pos, std::min(nl - pos, kKeepBytes)));
        pos = nl + 1;
    }
    if (start > 0 && !lines.empty())
        lines.erase(lines.begin()); // cut by the read: not a whole line
    for (auto& l : lines)
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
    if (lines.size() > kTailLines)
        lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(kTailLines));
    const std::size_t first = lineCount >= lines.size() ? lineCount - lines.size() + 1 : 1;
    return explainLines(lines, first, context);
}

std::string componentName(const std::string& component)
{
    for (const auto& rule : kComponents)
        if (component == rule.id)
            return rule.name;
    return "the workload itself";
}

std::string failureReport(const UnknownFailure& f, const std::string& logName)
{
    std::string r = "## A failure StackPilot does not know yet\n\n";
    r += "- Log: " + logName + ", line " + std::to_string(f.line) + "\n";
    r += "- Component: " + componentName(f.component) + "\n";
    r += "- Why this line: " + f.why + "\n\n### Decisive lines\n\n```text\n";
    for (const auto& l : f.lines)
        r += l + "\n";
    r += "```\n\n### Search text\n\n" + f.searchText + "\n";
    return r;
}

} // namespace sp::logmatch
