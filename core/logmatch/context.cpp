#include "core/logmatch/context.h"

#include <algorithm>
#include <re2/re2.h>

namespace sp::logmatch {

namespace {

enum class Cue
{
    Windows,
    Linux,
    Rocm,
    Cuda,
    Zluda,
    Vulkan,
    Found,  // "found 2 ROCm devices"
    Device, // "  Device 1: AMD Radeon 740M Graphics, gfx1103"
    VulkanDevice,
    Failing
};

unsigned bit(Cue c)
{
    return 1u << static_cast<unsigned>(c);
}

// Which context a cue serves: only those some rule needs are looked for.
unsigned needOf(Cue c)
{
    switch (c) {
    case Cue::Windows:
        return kNeedWindows;
    case Cue::Linux:
        return kNeedLinux;
    case Cue::Rocm:
        return kNeedRuntime | kNeedRocmVersion;
    case Cue::Cuda:
    case Cue::Zluda:
    case Cue::Vulkan:
        return kNeedRuntime;
    default:
        return kNeedGpus;
    }
}

struct CueLiteral
{
    const char* text;
    Cue cue;
};

// The literals that show a context; each flags one cue on a line.
constexpr CueLiteral kCues[] = {
    {"WinError", Cue::Windows},
    {":\\", Cue::Windows},
    {".dll", Cue::Windows},
    {".DLL", Cue::Windows},
    {"Windows", Cue::Windows},
    {"/usr/", Cue::Linux},
    {"/home/", Cue::Linux},
    {"/opt/", Cue::Linux},
    {".so", Cue::Linux},
    {"Linux", Cue::Linux},
    {"ROCm", Cue::Rocm},
    {"rocm", Cue::Rocm},
    {"ROCM", Cue::Rocm},
    {"HIP", Cue::Rocm},
    {"CUDA", Cue::Cuda},
    {"cuda", Cue::Cuda},
    {"ZLUDA", Cue::Zluda},
    {"zluda", Cue::Zluda},
    {"Vulkan", Cue::Vulkan},
    {"vulkan", Cue::Vulkan},
    {"Device ", Cue::Device},
    {"devices", Cue::Found},
    {"ggml_vulkan: ", Cue::VulkanDevice},
    {"current device", Cue::Failing},
};

const MultiLiteral& cueScanner()
{
    static const MultiLiteral scanner = [] {
        std::vector<std::string> lits;
        for (const auto& c : kCues)
            lits.emplace_back(c.text);
        return MultiLiteral(lits);
    }();
    return scanner;
}

// APUs by gfx target: Raven/Picasso/Renoir, Rembrandt/Raphael, Phoenix, Strix (Halo).
constexpr const char* kApuGfx[] = {"gfx902",  "gfx909",  "gfx90c",  "gfx1033", "gfx1035", "gfx1036",
                                   "gfx1037", "gfx1103", "gfx1150", "gfx1151", "gfx1152"};

const RE2& re(const char* pattern)
{
    // Leaked on purpose: used from any thread until exit, never destroyed mid-scan.
    return *new RE2(pattern);
}

} // namespace

bool integratedGpu(std::string_view name, std::string_view gfx)
{
    if (!gfx.empty())
        return std::any_of(std::begin(kApuGfx), std::end(kApuGfx),
                           [&](const char* g) { return gfx == g; });
    static const RE2& byName =
        re("(?i)([0-9]{3,4}M Graphics|Radeon(\\(TM\\))? Graphics|Vega [0-9]+ "
           "Graphics|Intel(\\(R\\))? (UHD|Iris|HD)|Iris(\\(R\\))? Xe)");
    return RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), byName);
}

ContextTracker::ContextTracker(LogContext seed)
    : m_ctx(std::move(seed)), m_osKnown(m_ctx.windows || m_ctx.linux)
{}

void ContextTracker::runtime(const char* name)
{
    if (std::find(m_ctx.runtimes.begin(), m_ctx.runtimes.end(), name) == m_ctx.runtimes.end())
        m_ctx.runtimes.emplace_back(name);
}

unsigned contextNeeds(const CauseContext& when)
{
    unsigned os = 0;
    for (const auto& o : when.os)
        os |= o == "windows" ? kNeedWindows : kNeedLinux;
    return os | (when.runtimes.empty() ? 0u : kNeedRuntime) |
           (when.minGpus > 0 || when.igpuFailing ? kNeedGpus : 0u) |
           (when.rocmVersion ? kNeedRocmVersion : 0u);
}

std::vector<std::pair<std::string, unsigned>> contextCueLiterals(unsigned needs)
{
    std::vector<std::pair<std::string, unsigned>> out;
    for (const auto& c : kCues)
        if ((needOf(c.cue) & needs) != 0)
            out.emplace_back(c.text, bit(c.cue));
    return out;
}

unsigned contextCues(std::string_view line)
{
    unsigned seen = 0;
    cueScanner().scan(line, [&](std::uint32_t lit, std::size_t) {
        seen |= 1u << static_cast<unsigned>(kCues[lit].cue);
    });
    return seen;
}

void ContextTracker::line(std::string_view line)
{
    this->line(line, contextCues(line));
}

void ContextTracker::line(std::string_view line, unsigned seen)
{
    const auto before = shape();

    auto has = [&](Cue c) { return (seen & bit(c)) != 0; };
    if (!m_osKnown) { // the machine's own OS beats a path a log happens to quote
        m_ctx.windows = m_ctx.windows || has(Cue::Windows);
        m_ctx.linux = m_ctx.linux || has(Cue::Linux);
    }
    if (m_needs & kNeedRuntime) {
        for (const auto& [cue, name] :
             {std::pair{Cue::Rocm, "rocm"}, std::pair{Cue::Cuda, "cuda"},
              std::pair{Cue::Zluda, "zluda"}, std::pair{Cue::Vulkan, "vulkan"}})
            if (has(cue) && !(m_runtimesSeen & bit(cue))) {
                m_runtimesSeen |= bit(cue);
                runtime(name);
            }
    }
    if (has(Cue::Rocm) && (m_needs & kNeedRocmVersion))
        rocmVersion(line);
    if (m_needs & kNeedGpus)
        devices(line, seen);
    if (shape() != before)
        ++m_changes;
}

void ContextTracker::device(int index, std::string_view name, std::string_view gfx)
{
    m_integrated[index] = integratedGpu(name, gfx);
    m_ctx.gpus = std::max(m_ctx.gpus, static_cast<int>(m_integrated.size()));
    if (m_failing >= 0 && m_integrated.count(m_failing))
        m_ctx.igpuFailing = m_integrated[m_failing];
}

// ggml's device lists: "found 2 ROCm devices", "  Device 1: AMD Radeon 740M Graphics,
// gfx1103 (0x1103), ...", "ggml_vulkan: 0 = Intel(R) Iris(R) Xe Graphics (...)".
void ContextTracker::devices(std::string_view line, unsigned seen)
{
    if ((seen &
         (bit(Cue::Found) | bit(Cue::Device) | bit(Cue::VulkanDevice) | bit(Cue::Failing))) == 0)
        return;
    if (seen & bit(Cue::Failing))
        failingDevice(line);
    const re2::StringPiece text(line.data(), line.size());
    static const RE2& found = re("(?i)found ([0-9]+) (?:ROCm |CUDA |Vulkan |SYCL )?devices");
    static const RE2& ggml = re("^\\s*Device ([0-9]+): ([^,]+)(?:, (gfx[0-9a-f]+))?");
    static const RE2& vulkan = re("ggml_vulkan: ([0-9]+) = ([^(|]+)");
    int n = 0;
    std::string name;
    std::string gfx;
    if ((seen & bit(Cue::Found)) && RE2::PartialMatch(text, found, &n))
        m_ctx.gpus = std::max(m_ctx.gpus, std::min(n, 64));
    if (((seen & bit(Cue::Device)) && RE2::PartialMatch(text, ggml, &n, &name, &gfx)) ||
        ((seen & bit(Cue::VulkanDevice)) && RE2::PartialMatch(text, vulkan, &n, &name)))
        device(n, name, gfx);
}

void ContextTracker::failingDevice(std::string_view line)
{
    static const RE2& current = re("current device: ([0-9]+)");
    int n = 0;
    if (!RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), current, &n))
        return;
    m_failing = n;
    if (m_integrated.count(n))
        m_ctx.igpuFailing = m_integrated[n];
}

// "ROCm 6.4.1", "torch 2.9.0+rocm6.4", "/opt/rocm-6.2.0/lib", "ROCm version: 7.0".
void ContextTracker::rocmVersion(std::string_view line)
{
    static const RE2& version =
        re("(?i)rocm[-_ ]?(?:version:? ?|v)?([0-9]+\\.[0-9]+(?:\\.[0-9]+)?)");
    constexpr std::size_t kMaxVersions = 8;
    re2::StringPiece text(line.data(), line.size());
    std::string v;
    while (m_ctx.rocmVersions.size() < kMaxVersions && RE2::FindAndConsume(&text, version, &v))
        if (std::find(m_ctx.rocmVersions.begin(), m_ctx.rocmVersions.end(), v) ==
            m_ctx.rocmVersions.end())
            m_ctx.rocmVersions.push_back(v);
}

std::tuple<bool, bool, std::size_t, int, bool, std::size_t> ContextTracker::shape() const
{
    return {m_ctx.windows, m_ctx.linux,       m_ctx.runtimes.size(),
            m_ctx.gpus,    m_ctx.igpuFailing, m_ctx.rocmVersions.size()};
}

bool ContextTracker::holds(const CauseContext& when) const
{
    auto in = [](const std::vector<std::string>& list, const std::string& x) {
        return std::find(list.begin(), list.end(), x) != list.end();
    };
    if (!when.os.empty() &&
        !((in(when.os, "windows") && m_ctx.windows) || (in(when.os, "linux") && m_ctx.linux)))
        return false;
    if (!when.runtimes.empty() &&
        std::none_of(when.runtimes.begin(), when.runtimes.end(),
                     [&](const std::string& r) { return in(m_ctx.runtimes, r); }))
        return false;
    if (m_ctx.gpus < when.minGpus)
        return false;
    if (when.igpuFailing && !m_ctx.igpuFailing)
        return false;
    if (when.rocmVersion &&
        std::none_of(m_ctx.rocmVersions.begin(), m_ctx.rocmVersions.end(),
                     [&](const std::string& v) { return when.rocmVersion->range.contains(v); }))
        return false;
    return true;
}

} // namespace sp::logmatch
