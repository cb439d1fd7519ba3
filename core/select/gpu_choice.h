#pragma once
// Which GPU a plan is for: the one `--gpu` names, else the one settings.json remembers
// for the workload (workloads.<id>.gpu), else the default rule (chooseGpu). A remembered
// GPU that is gone costs one warning that names it, and the default rule picks.

#include "core/expected.h"
#include "core/gpu_identity.h"
#include "core/snapshot.h"

#include <optional>
#include <string>
#include <vector>

namespace sp {

struct GpuPick
{
    std::optional<int> index; // into the snapshot's gpus; nullopt: no usable GPU
    std::string chosenBy;     // "default" | "--gpu" | "settings"
    std::vector<std::string> warnings;
};

// `spec` as the user typed it: an index into the snapshot's GPUs ("1", one or two digits), a PCI
// bus address ("0000:03:00.0", "03:00.0") or a name (whole, case-insensitive, or a part that names
// one GPU). Usage errors, one line each: it names nothing, an index past the end, or a name two
// GPUs share (then it asks for the bus address).
Expected<int> resolveGpuSpec(const HardwareSnapshot& snap, const std::string& spec);

// The GPU `id` remembers: same bus and device id; else, where the remembered GPU or the
// snapshot's has no bus address, the only GPU with that device id and name. A GPU of the
// same model at another bus is another card. nullopt when it is gone.
std::optional<int> findGpu(const HardwareSnapshot& snap, const GpuIdentity& id);

Expected<GpuPick> pickGpu(const HardwareSnapshot& snap, const std::string& spec,
                          const std::optional<GpuIdentity>& remembered);

} // namespace sp
