#include "detectors/probe_runner.h"

namespace sp {

// Placeholder so that callers link; the real runner follows.
ProbeReport runVendorProbes(const ProbeOptions& options)
{
    ProbeReport report;
    for (const auto& name : options.vendorProbes)
        report.probes.push_back(
            {name, ProbeStatus::Missing, "not implemented yet", nlohmann::json::object()});
    return report;
}

ProbeReport runToolProbes(const ProbeOptions& /*options*/)
{
    ProbeReport report;
    for (const char* name : {"rocminfo", "hipinfo", "nvidia-smi"})
        report.probes.push_back(
            {name, ProbeStatus::Missing, "not implemented yet", nlohmann::json::object()});
    return report;
}

} // namespace sp
