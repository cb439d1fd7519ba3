#pragma once
// What fits the card (docs/MODELS.md, "Fit"): for a GGUF model, the context and how many
// of its layers go on the GPU; for a family of quantizations, the largest that fits. An
// estimate, in words: the weights, the KV cache at the context (f16, every layer), and
// about 512 MiB of compute buffers, within 90 % of the card's memory.

#include "core/catalog/types.h"
#include "core/models/gguf.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sp::models {

inline constexpr std::uint64_t kComputeBuffers = 512u << 20;
inline constexpr std::uint64_t kDefaultContext = 8192;
inline constexpr std::uint64_t kSmallestContext = 2048;

struct ModelFit
{
    std::uint64_t context = 0;
    std::optional<std::uint64_t> gpuLayers; // nullopt: every layer on the card
    bool fits = true;                       // false: part or all of it runs on the CPU
    std::uint64_t needBytes = 0;            // what it takes on the card as chosen
    std::string why;
};

// `vramBytes`: the chosen card's memory (nullopt: none known, the model's own context up
// to kDefaultContext, every layer).
ModelFit fitToCard(const GgufInfo& g, std::optional<std::uint64_t> vramBytes,
                   std::uint64_t wantContext = kDefaultContext);

// Of `family` (one model in several quantizations), the largest whose files fit
// `vramBytes` with the compute buffers and 10 % headroom; the smallest when none does.
const Model* pickQuantization(const std::vector<const Model*>& family, std::uint64_t vramBytes,
                              std::string* why = nullptr);

} // namespace sp::models
