// libFuzzer target: sp::parseHipinfo on arbitrary tool output.

#include "detectors/parsers/tool_parsers.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const sp::ParsedProbe p = sp::parseHipinfo(text, size > 0 ? data[0] % 3 : 0);
    // Every GPU a parser reports names where it came from, and a parser never
    // claims a timeout or a crash: only the runner can see those.
    for (const auto& g : p.gpus) {
        if (g.sources.size() != 1)
            std::abort();
    }
    if (p.probe.status == sp::ProbeStatus::Timeout || p.probe.status == sp::ProbeStatus::Crashed)
        std::abort();
    if (p.probe.status == sp::ProbeStatus::Ok && p.gpus.empty() && p.probe.name != "nvml" &&
        p.probe.name != "hip")
        std::abort();
    return 0;
}
