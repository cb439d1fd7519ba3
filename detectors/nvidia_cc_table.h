#pragma once
// NVIDIA compute capability by product name or PCI device id
// (profiles/gpu/nvidia-compute-capability.json: NVIDIA's CUDA GPU list, and the product
// names NVIDIA's open kernel modules give each device id; make_nvidia_cc_table.py builds
// it). Like the AMD PCI table it is a guess from names and ids, so every value it gives
// ranks below what the driver or NVML says: nvidia-smi often omits the compute
// capability, and a pasted table or lspci line never has it.

#include "core/expected.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sp {

class NvidiaCcTable
{
public:
    static Expected<NvidiaCcTable> parse(const std::string& text, const std::string& origin);
    static Expected<NvidiaCcTable> load(const std::filesystem::path& file);
    // The shipped table, parsed on first use; an empty table when it is missing or broken
    // (loadError() says why).
    static const NvidiaCcTable& shipped();
    static std::filesystem::path shippedPath();

    // A product name as tools print it ("NVIDIA GeForce RTX 3060 Laptop GPU", "Tesla
    // V100-SXM2-16GB", "GP102 [TITAN X]"'s "TITAN X"): the longest listed model the name
    // starts with, word for word. Laptop and Max-Q parts take their model's value (NVIDIA
    // names them after it). A name cut short (`truncated`, as nvidia-smi's table cuts
    // them) matches only when every model it could be agrees.
    std::optional<std::string> byName(std::string_view name, bool truncated = false) const;
    // Through the product names NVIDIA gives the device id; nullopt when they disagree
    // or none is listed.
    std::optional<std::string> byDevice(std::uint16_t device) const;
    // The product name NVIDIA gives the device id, when it gives exactly one
    // (2335 -> "NVIDIA H200"); nullopt for none or several (a board sold under two names).
    std::optional<std::string> nameOf(std::uint16_t device) const;

    std::size_t size() const { return m_models.size(); }
    const std::string& loadError() const { return m_error; }

    // "NVIDIA GeForce RTX 3060 Laptop GPU" -> "rtx 3060": the key names are compared by.
    static std::string normalizeName(std::string_view name);

private:
    struct Model
    {
        std::string key; // normalizeName(name)
        std::string cc;
    };
    struct Device
    {
        std::uint16_t id = 0;
        std::vector<std::string> names;
    };
    std::vector<Model> m_models;
    std::vector<Device> m_devices; // sorted by id
    std::string m_error;
};

} // namespace sp
