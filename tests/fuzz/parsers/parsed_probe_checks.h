#pragma once
// What every vendor-tool parser must hold to, whatever bytes it was given: each GPU it
// reports names where it came from, and it never claims a timeout or a crash (only the
// runner can see those), and every device number is in range. Aborts, for libFuzzer, when one does
// not hold.

#include "detectors/parsers/parsed_probe.h"

#include <cstdlib>

namespace sp::fuzz {

inline void checkParsedProbe(const sp::ParsedProbe& p)
{
    for (const auto& g : p.gpus) {
        if (g.sources.size() != 1)
            std::abort();
        for (const auto& [api, index] : g.indices) // a device number is small and known
            if (index < 0 || index > 255 || api.empty())
                std::abort();
    }
    if (p.gpus.size() > sp::kMaxParsedGpus)
        std::abort();
    if (p.probe.status == sp::ProbeStatus::Timeout || p.probe.status == sp::ProbeStatus::Crashed)
        std::abort();
    if (p.probe.status == sp::ProbeStatus::Ok && p.gpus.empty() && p.probe.name != "nvml" &&
        p.probe.name != "hip")
        std::abort();
}

} // namespace sp::fuzz
