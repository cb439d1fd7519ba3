#pragma once
// Everything that loads a vendor library or runs a vendor tool happens in a child
// process with a timeout, so a driver that crashes or hangs costs one line in the
// report, never the launcher.

#include "core/snapshot.h"

#include <string>
#include <vector>

namespace sp {

struct ProbeOptions
{
    int timeoutMs = 5000;
    // Path of stackpilot-probe; empty = next to the running executable.
    std::string probeExecutable;
    // Which vendor probes to run inside stackpilot-probe ("hip", "nvml", "cuda").
    std::vector<std::string> vendorProbes = {"hip", "nvml", "cuda"};
};

// What a probe child or a vendor tool printed, kept as it came (the diagnostics bundle
// ships it: helpers ask for the raw rocminfo).
struct RawProbeOutput
{
    std::string name;    // "rocminfo", "hipinfo", "nvidia-smi", "probe-hip", ...
    std::string command; // program and arguments
    std::string outcome; // "exit 0", "timed out", "crashed: SIGSEGV (11)", "not started: ..."
    std::string stdoutText;
    std::string stderrText;
};

struct ProbeReport
{
    std::vector<GpuInfo> gpus;         // what the probes saw, with sources "hip", "nvml", ...
    std::vector<RuntimeInfo> runtimes; // HIP runtime / CUDA driver versions found
    std::vector<ProbeResult> probes;   // one entry per probe: ok|missing|failed|timeout|crashed
    std::vector<RawProbeOutput> raw;   // every child run, in the order they were started
};

// Statuses: ok = at least one GPU seen; missing = library/tool not found;
// failed = found but it errored, printed something unreadable, or saw no GPU
// (detail starts with "no device"); timeout = killed after timeoutMs;
// crashed = died on a signal ("SIGSEGV (11)") or an exception ("exception 0xC0000005").
// Children run side by side without HIP/ROCR/CUDA_VISIBLE_DEVICES and
// HSA_OVERRIDE_GFX_VERSION*, which would hide devices or misreport their target.

// Runs stackpilot-probe once per vendor probe (so one crash cannot hide the others).
// The probe is options.probeExecutable, else $STACKPILOT_PROBE, else next to the
// running executable.
ProbeReport runVendorProbes(const ProbeOptions& options);

// Runs rocminfo, hipinfo and nvidia-smi (PATH and their usual install folders).
ProbeReport runToolProbes(const ProbeOptions& options);

} // namespace sp
