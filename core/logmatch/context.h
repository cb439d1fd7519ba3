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

#include <map>
#include <string>
#include <string_view>
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

class ContextTracker
{
public:
    explicit ContextTracker(LogContext seed = {});
    void line(std::string_view line);
    bool holds(const CauseContext& when) const;
    const LogContext& context() const { return m_ctx; }

private:
    void device(int index, std::string_view name, std::string_view gfx);
    void devices(std::string_view line);
    void failingDevice(std::string_view line);
    void rocmVersion(std::string_view line);
    void runtime(const char* name);

    LogContext m_ctx;
    std::map<int, bool> m_integrated; // device index -> integrated GPU
    int m_failing = -1;
    bool m_osKnown = false;
};

// Whether a GPU of this name (and gfx target, when the log gives one) is integrated: the
// gfx decides when known ("AMD Radeon Graphics" is an MI50's name too), else the name.
bool integratedGpu(std::string_view name, std::string_view gfx);

} // namespace sp::logmatch
