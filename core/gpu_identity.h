#pragma once
// How a chosen GPU is remembered (settings.json workloads.<id>.gpu): by its PCI bus
// address and device id, falling back to the device id and name where the bus is not
// known or has changed. Never by a position, which changes when a card is added.

#include "core/snapshot.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sp {

struct GpuIdentity
{
    std::string pciBus; // "0000:03:00.0"; empty when detection did not see it
    std::string pciId;  // "1002:744c"
    std::string name;

    bool operator==(const GpuIdentity&) const = default;
};

GpuIdentity identityOf(const GpuInfo& gpu);
nlohmann::json toJson(const GpuIdentity& id);
// nullopt when `j` is no object or names neither a bus nor an id nor a name.
std::optional<GpuIdentity> gpuIdentityFromJson(const nlohmann::json& j);
// "Radeon RX 7900 XTX at 0000:03:00.0": how messages name a GPU.
std::string describeGpu(const GpuInfo& gpu);
std::string describeGpu(const GpuIdentity& id);

} // namespace sp
