#include "core/select/visibility.h"

#include "core/gpu_identity.h"
#include "core/gpu_indices.h"
#include "core/select/env_stages.h"

#include <algorithm>
#include <set>

namespace sp {

namespace {

// The GPU's position among the snapshot's GPUs of its vendor sorted by `key`; nullopt
// unless every one of them has a key.
template <class Key>
std::optional<int> rankAmongVendor(const HardwareSnapshot& snap, int gpu, Key key)
{
    const Vendor v = snap.gpus[gpu].vendor;
    int rank = 0;
    const auto mine = key(snap.gpus[gpu]);
    if (!mine)
        return std::nullopt;
    for (const auto& g : snap.gpus) {
        if (g.vendor != v)
            continue;
        const auto k = key(g);
        if (!k)
            return std::nullopt;
        rank += *k < *mine ? 1 : 0;
    }
    return rank;
}

int vendorOrder(const HardwareSnapshot& snap, int gpu)
{
    int index = 0;
    for (int i = 0; i < gpu; ++i)
        index += snap.gpus[i].vendor == snap.gpus[gpu].vendor ? 1 : 0;
    return index;
}

// The order detection lists the vendor's GPUs in: certain for the only one (an API that
// numbers one vendor's GPUs calls it 0), a belief otherwise.
ApiIndex listedOrder(const HardwareSnapshot& snap, int gpu, const std::string& vendorName)
{
    const auto same = std::count_if(snap.gpus.begin(), snap.gpus.end(), [&](const GpuInfo& g) {
        return g.vendor == snap.gpus[gpu].vendor;
    });
    if (same == 1)
        return {0, true, "the only " + vendorName + " GPU"};
    return {vendorOrder(snap, gpu), false,
            "the order detection lists the " + vendorName + " GPUs in"};
}

std::optional<ApiIndex> recorded(const GpuInfo& g, const char* api, const std::string& how)
{
    const auto it = g.indices.find(api);
    if (it == g.indices.end())
        return std::nullopt;
    return ApiIndex{it->second, true, how};
}

std::optional<std::string> busKey(const GpuInfo& g)
{
    return g.pciBus.empty() ? std::nullopt : std::optional<std::string>(g.pciBus);
}

std::optional<int> kfdKey(const GpuInfo& g)
{
    return g.kfdNode;
}

ApiIndex amdIndex(const HardwareSnapshot& snap, int gpu, const std::string& api)
{
    const GpuInfo& g = snap.gpus[gpu];
    const bool linux = snap.os.family != "windows";
    const char* other = api == kApiHip ? kApiRocr : kApiHip;
    if (auto r = recorded(g, api.c_str(), apiTitle(api) + "'s own numbering in the snapshot"))
        return *r;
    if (linux) {
        if (auto r = recorded(g, other,
                              std::string(apiTitle(other)) +
                                  "'s numbering, which is ROCr's agent order on Linux"))
            return *r;
        if (auto k = rankAmongVendor(snap, gpu, kfdKey))
            return {*k, true, "the KFD node order ROCr enumerates GPUs in"};
    }
    return listedOrder(snap, gpu, "AMD");
}

ApiIndex nvidiaIndex(const HardwareSnapshot& snap, int gpu, const std::string& api)
{
    const GpuInfo& g = snap.gpus[gpu];
    if (auto r = recorded(g, api.c_str(), apiTitle(api) + "'s own numbering in the snapshot"))
        return *r;
    if (auto k = rankAmongVendor(snap, gpu, busKey))
        return {*k, true, "PCI bus order, which CUDA_DEVICE_ORDER=PCI_BUS_ID and NVML use"};
    if (auto r = recorded(g, kApiNvml, "nvidia-smi's index (NVML numbers GPUs in PCI bus order)"))
        return *r;
    return listedOrder(snap, gpu, "NVIDIA");
}

// Vulkan counts CPU devices too (llvmpipe can be device 0), so only vulkaninfo's number
// is known. Without it, a PC with one GPU is left alone (ggml's Vulkan backend skips CPU
// devices by itself; the variable would count them) and with several the snapshot's order
// is a belief.
std::optional<ApiIndex> vulkanIndex(const HardwareSnapshot& snap, int gpu)
{
    if (auto r = recorded(snap.gpus[gpu], kApiVulkan, "vulkaninfo's device number"))
        return *r;
    const auto gpus = std::count_if(snap.gpus.begin(), snap.gpus.end(),
                                    [](const GpuInfo& g) { return g.vendor != Vendor::Other; });
    if (gpus <= 1)
        return std::nullopt;
    return ApiIndex{gpu, false, "the order of the snapshot's GPUs (no vulkaninfo was read)"};
}

bool forOs(const VisibleDevices& v, const std::string& os)
{
    return v.os.empty() || std::find(v.os.begin(), v.os.end(), os) != v.os.end();
}

void setOne(Plan& plan, const HardwareSnapshot& snap, int gpu, const VisibleDevices& v,
            const std::string& runtime)
{
    const GpuInfo& g = snap.gpus[gpu];
    const std::string card = describeGpu(g);
    if (!v.after.empty() && plan.env.count(v.after)) {
        setPlanEnv(plan, v.variable, "0",
                   v.why + "; it numbers only what " + v.after + " leaves visible, so " + card +
                       " is 0 [runtime " + runtime + "]");
        return;
    }
    const auto idx = apiIndex(snap, gpu, v.api);
    if (!idx)
        return;
    const std::string n = std::to_string(idx->index);
    setPlanEnv(plan, v.variable, n,
               v.why + "; " + card + " is " + apiTitle(v.api) + " device " + n + " (" + idx->how +
                   "), so every other GPU is hidden [runtime " + runtime + "]");
    for (const auto& [name, value] : v.with)
        setPlanEnv(plan, name, value, "set with " + v.variable + " [runtime " + runtime + "]");
    if (!idx->learned)
        plan.warnings.push_back(
            "the " + apiTitle(v.api) + " index of " + card +
            " could not be learned from this snapshot; " + v.variable + "=" + n +
            " is believed to be that card by " + idx->how +
            " (a rocminfo, hipInfo, nvidia-smi or vulkaninfo paste would settle it)");
}

} // namespace

std::optional<ApiIndex> apiIndex(const HardwareSnapshot& snap, int gpu, const std::string& api)
{
    const Vendor v = snap.gpus[gpu].vendor;
    if (api == kApiVulkan)
        return vulkanIndex(snap, gpu);
    const auto need = apiVendor(api);
    if (!need || *need != v)
        return std::nullopt;
    return v == Vendor::Amd ? amdIndex(snap, gpu, api) : nvidiaIndex(snap, gpu, api);
}

void applyVisibility(Plan& plan, const HardwareSnapshot& snap, const Catalog& cat,
                     const Profile& profile, int gpu)
{
    std::set<std::string> done;
    for (const auto& id : profile.runtimes) {
        const Runtime* r = cat.runtime(id);
        if (!r)
            continue;
        for (const auto& v : r->visibleDevices) {
            if (!forOs(v, snap.os.family) || done.count(v.variable))
                continue;
            setOne(plan, snap, gpu, v, r->id);
            if (plan.env.count(v.variable))
                done.insert(v.variable);
        }
    }
}

} // namespace sp
