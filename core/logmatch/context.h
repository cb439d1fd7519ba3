#pragma once
// What a log shows about the machine it ran on, gathered line by line: the OS, the
// runtimes it names, how many GPUs it lists, whether the failing device is an integrated
// GPU, which ROCm versions it names. A cause's context (CauseContext) is checked against
// it; the caller may seed what it knows for sure (the OS the workload runs on).
//
// Cheap on purpose: one literal scan per line, and a regex only on the few lines whose
// literal says they list devices, name the failing one or a ROCm version.

#include "core/catalog/types.h"
#include "core/logmatch/multi_literal.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace sp::logmatch {

struct LogContext
{
    bool windows = false;
    bool linux = false;
    std::vector<std::string> runtimes; // "rocm", "cuda", "zluda", "vulkan"
    int gpus = 0;
    bool igpuFailing = false;
    std::vector<std::string> rocmVersions; // "6.4", "7.2.1"
};

// What context the rules need (bits), so the rest is neither scanned for nor parsed.
enum ContextNeed : unsigned
{
    kNeedWindows = 1,
    kNeedLinux = 2,
    kNeedRuntime = 4,
    kNeedGpus = 8, // the device list and the failing device
    kNeedRocmVersion = 16,
    kNeedAll = 31,
};
unsigned contextNeeds(const CauseContext& when);

class ContextTracker
{
public:
    explicit ContextTracker(LogContext seed = {});
    void line(std::string_view line);
    // The same, with the line's cues already found (contextCues, or the matcher's scan,
    // which looks for the cue literals in the same pass as the signatures' literals).
    void line(std::string_view line, unsigned cues);
    bool holds(const CauseContext& when) const;
    void setNeeds(unsigned needs) { m_needs = needs; }
    // Counts the lines that changed the context: what waits for it looks again only then.
    std::uint64_t changes() const { return m_changes; }
    const LogContext& context() const { return m_ctx; }

private:
    void device(int index, std::string_view name, std::string_view gfx);
    void devices(std::string_view line, unsigned cues);
    void failingDevice(std::string_view line);
    void rocmVersion(std::string_view line);
    void runtime(const char* name);

    LogContext m_ctx;
    std::map<int, bool> m_integrated; // device index -> integrated GPU
    int m_failing = -1;
    bool m_osKnown = false;
    unsigned m_needs = kNeedAll;
    unsigned m_runtimesSeen = 0; // cue bits of the runtimes already in m_ctx
    std::uint64_t m_changes = 0;
    std::tuple<bool, bool, std::size_t, int, bool, std::size_t> shape() const;
};

// The literals that show a context, each with its cue bit, and the bits of one line.
std::vector<std::pair<std::string, unsigned>> contextCueLiterals(unsigned needs = kNeedAll);
unsigned contextCues(std::string_view line);

// Whether a GPU of this name (and gfx target, when the log gives one) is integrated: the
// gfx decides when known ("AMD Radeon Graphics" is an MI50's name too), else the name.
bool integratedGpu(std::string_view name, std::string_view gfx);

} // namespace sp::logmatch
