#pragma once
// Numbered right in every API: the chosen GPU's index in each API a profile's runtimes
// pick GPUs by, learned from what the snapshot recorded (core/gpu_indices.h), and the
// runtimes' "visible_devices" variables set to it, so that every other GPU, the iGPU
// included, is hidden. Where an index cannot be learned the plan says so and names the
// card the index is believed to be.

#include "core/catalog/types.h"
#include "core/select/plan.h"
#include "core/snapshot.h"

#include <optional>
#include <string>

namespace sp {

struct ApiIndex
{
    int index = 0;
    bool learned = false;
    std::string how; // where the number comes from, for the plan's reasons
};

// The index `api` gives snapshot GPU `gpu`; nullopt when the API numbers no GPU of that
// vendor (CUDA on an AMD card), or for Vulkan on a PC with one GPU and no vulkaninfo
// (then nothing needs hiding, and only vulkaninfo knows where CPU devices are).
std::optional<ApiIndex> apiIndex(const HardwareSnapshot& snap, int gpu, const std::string& api);

// Sets the visibility variables of the profile's runtimes for snapshot GPU `gpu`.
void applyVisibility(Plan& plan, const HardwareSnapshot& snap, const Catalog& cat,
                     const Profile& profile, int gpu);

} // namespace sp
