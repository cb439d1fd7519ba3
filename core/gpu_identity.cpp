#include "core/gpu_identity.h"

namespace sp {

GpuIdentity identityOf(const GpuInfo& gpu)
{
    return {gpu.pciBus, gpu.pciId, gpu.name};
}

nlohmann::json toJson(const GpuIdentity& id)
{
    return {{"pci_bus", id.pciBus}, {"pci_id", id.pciId}, {"name", id.name}};
}

std::optional<GpuIdentity> gpuIdentityFromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return std::nullopt;
    GpuIdentity id;
    auto text = [&](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    id.pciBus = text("pci_bus");
    id.pciId = text("pci_id");
    id.name = text("name");
    if (id.pciBus.empty() && id.pciId.empty() && id.name.empty())
        return std::nullopt;
    return id;
}

std::string describeGpu(const GpuInfo& gpu)
{
    return describeGpu(identityOf(gpu));
}

std::string describeGpu(const GpuIdentity& id)
{
    const std::string name = id.name.empty() ? "GPU " + id.pciId : id.name;
    return id.pciBus.empty() ? name : name + " at " + id.pciBus;
}

} // namespace sp
