#pragma once
// Parsers for the text of vendor tools. Each takes the tool's combined output
// and its exit code and never throws; a status of Failed with detail "no device"
// means the tool ran but saw no GPU (the same convention as stackpilot-probe).

#include "detectors/parsers/parsed_probe.h"

namespace sp {

// `rocminfo`: one "Agent N" block per HSA agent; CPU agents are skipped.
ParsedProbe parseRocminfo(std::string_view text, int exitCode);

// `hipinfo` / hipInfo.exe (HIP SDK sample): one block per "device#".
ParsedProbe parseHipinfo(std::string_view text, int exitCode);

// `nvidia-smi --query-gpu=name,pci.bus_id,memory.total,compute_cap,driver_version
//  --format=csv,noheader,nounits`. With `withComputeCap` false the compute_cap
// column is absent (older drivers reject that field).
ParsedProbe parseNvidiaSmiCsv(std::string_view text, int exitCode, bool withComputeCap = true);

// One JSON object printed by `stackpilot-probe NAME` (see detectors/probe/probes.h).
ParsedProbe parseProbeJson(std::string_view name, std::string_view text);

} // namespace sp
