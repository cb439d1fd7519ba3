#pragma once
// The whole detection pass behind `stackpilot-cli detect` and the GUI: OS, home
// filesystem, GPUs from the OS (sysfs on Linux), then, unless switched off, the
// out-of-process vendor probes and tool parses, merged into one snapshot.

#include "core/snapshot.h"
#include "detectors/probe_runner.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sp {

struct DetectOptions
{
    // Read this folder where detection would read /sys; empty = the real /sys.
    std::filesystem::path sysfsRoot;
    // The KFD device checked for read-write access; empty = /dev/kfd, except that
    // with a fake sysfsRoot the check is skipped (reported missing).
    std::filesystem::path devKfdPath;
    bool probes = true;
    int probeTimeoutMs = 5000;
    std::string probeExecutable; // empty = stackpilot-probe next to the running binary
};

HardwareSnapshot detectHardware(const DetectOptions& options);
// The same, also handing back what every probe child and tool printed (when `raw` is
// not null), for the diagnostics bundle.
HardwareSnapshot detectHardware(const DetectOptions& options, std::vector<RawProbeOutput>* raw);

} // namespace sp
