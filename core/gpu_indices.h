#pragma once
// Each GPU's device index in every API that numbers GPUs, as the snapshot records them
// ("indices": {"hip": 1, "rocr": 1, "vulkan": 0}). Only an index a tool or probe showed
// is recorded: a plan never takes one API's numbering for another's without saying so
// (core/select/gpu_index.h).

#include "core/expected.h"
#include "core/snapshot.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace sp {

inline constexpr const char* kApiHip = "hip";        // HIP device id (hipInfo's device#)
inline constexpr const char* kApiRocr = "rocr";      // ROCr GPU agent order (rocminfo, KFD)
inline constexpr const char* kApiCuda = "cuda";      // CUDA device id, PCI bus order
inline constexpr const char* kApiNvml = "nvml";      // NVML index (nvidia-smi's GPU column)
inline constexpr const char* kApiVulkan = "vulkan";  // Vulkan physical device (vulkaninfo GPUn)
inline constexpr const char* kApiAmdSmi = "amd-smi"; // amd-smi's GPU index (not HIP's id)

// The largest index any API is taken to give (a bound for hostile input).
inline constexpr int kMaxApiIndex = 255;

bool isKnownApi(std::string_view api);
// The vendor whose GPUs an API numbers; nullopt for Vulkan, which numbers every vendor's
// devices (and CPU ones such as llvmpipe) in one list.
std::optional<Vendor> apiVendor(std::string_view api);
// "HIP", "ROCr", "CUDA", "NVML", "Vulkan", "amd-smi": how messages name an API.
std::string apiTitle(std::string_view api);

nlohmann::json indicesToJson(const std::map<std::string, int>& indices);
// `where` names the field in messages ("snap.json: /gpus/1/indices").
Expected<std::map<std::string, int>> indicesFromJson(const nlohmann::json& j,
                                                     const std::string& where);

// One line when the snapshot's indices cannot be trusted: two GPUs with one index in an
// API, or an index of a one-vendor API past that vendor's GPUs in the snapshot (a probe
// that listed more HIP devices than the PCI list has AMD GPUs).
Expected<void> checkIndices(const HardwareSnapshot& snap, const std::string& origin);

} // namespace sp
