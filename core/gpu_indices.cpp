#include "core/gpu_indices.h"

#include <set>

namespace sp {

namespace {

struct ApiInfo
{
    const char* key;
    const char* title;
    std::optional<Vendor> vendor;
};

const ApiInfo kApis[] = {
    {kApiHip, "HIP", Vendor::Amd},        {kApiRocr, "ROCr", Vendor::Amd},
    {kApiCuda, "CUDA", Vendor::Nvidia},   {kApiNvml, "NVML", Vendor::Nvidia},
    {kApiVulkan, "Vulkan", std::nullopt}, {kApiAmdSmi, "amd-smi", Vendor::Amd}};

const ApiInfo* find(std::string_view api)
{
    for (const auto& a : kApis)
        if (api == a.key)
            return &a;
    return nullptr;
}

std::string vendorWord(Vendor v)
{
    return v == Vendor::Amd ? "AMD" : v == Vendor::Nvidia ? "NVIDIA" : toString(v);
}

Expected<void> checkApi(const HardwareSnapshot& snap, const ApiInfo& api, const std::string& origin)
{
    int vendorCount = 0;
    for (const auto& g : snap.gpus)
        vendorCount += api.vendor && g.vendor == *api.vendor ? 1 : 0;
    std::set<int> seen;
    for (const auto& g : snap.gpus) {
        const auto it = g.indices.find(api.key);
        if (it == g.indices.end())
            continue;
        if (!seen.insert(it->second).second)
            return Error::invalid(origin + ": two GPUs have " + api.title + " device " +
                                  std::to_string(it->second) +
                                  ": the snapshot's device numbering cannot be trusted");
        if (api.vendor && it->second >= vendorCount)
            return Error::invalid(origin + ": " + g.name + " is " + api.title + " device " +
                                  std::to_string(it->second) + " but the snapshot lists " +
                                  std::to_string(vendorCount) + " " + vendorWord(*api.vendor) +
                                  " GPU(s): a probe saw " + "more " + api.title +
                                  " devices than the PCI list has; import or detect again " +
                                  "with the PCI list (lspci) of the same PC");
    }
    return {};
}

} // namespace

bool isKnownApi(std::string_view api)
{
    return find(api) != nullptr;
}

std::optional<Vendor> apiVendor(std::string_view api)
{
    const ApiInfo* a = find(api);
    return a ? a->vendor : std::nullopt;
}

std::string apiTitle(std::string_view api)
{
    const ApiInfo* a = find(api);
    return a ? a->title : std::string(api);
}

nlohmann::json indicesToJson(const std::map<std::string, int>& indices)
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [api, index] : indices)
        j[api] = index;
    return j;
}

Expected<std::map<std::string, int>> indicesFromJson(const nlohmann::json& j,
                                                     const std::string& where)
{
    std::map<std::string, int> out;
    if (j.is_null())
        return out;
    if (!j.is_object())
        return Error::invalid(where + ": expected an object of device indices");
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!it.value().is_number_integer() || it.value().get<long long>() < 0 ||
            it.value().get<long long>() > kMaxApiIndex)
            return Error::invalid(where + "/" + it.key() + ": expected a device index 0-" +
                                  std::to_string(kMaxApiIndex));
        out[it.key()] = it.value().get<int>(); // unknown APIs are kept: a newer writer's
    }
    return out;
}

Expected<void> checkIndices(const HardwareSnapshot& snap, const std::string& origin)
{
    for (const auto& api : kApis)
        if (auto ok = checkApi(snap, api, origin); !ok)
            return ok;
    return {};
}

} // namespace sp
