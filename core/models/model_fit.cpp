#include "core/models/model_fit.h"

#include "core/format.h"

#include <algorithm>

namespace sp::models {

namespace {

std::uint64_t budgetOf(std::uint64_t vram)
{
    return vram / 10 * 9; // 10 % headroom for the desktop and the driver
}

std::uint64_t need(const GgufInfo& g, std::uint64_t context)
{
    return g.weightBytes + kvCacheBytes(g, context).value_or(0) + kComputeBuffers;
}

} // namespace

ModelFit fitToCard(const GgufInfo& g, std::optional<std::uint64_t> vramBytes,
                   std::uint64_t wantContext)
{
    const std::uint64_t trained = g.contextLength.value_or(wantContext);
    ModelFit fit;
    fit.context = std::min(wantContext, trained);
    if (!vramBytes) {
        fit.needBytes = need(g, fit.context);
        fit.why = "no GPU memory is known: context " + std::to_string(fit.context);
        return fit;
    }
    const std::uint64_t budget = budgetOf(*vramBytes);
    // Whole on the card, at the longest context that leaves room.
    for (std::uint64_t c = fit.context; c >= std::min(kSmallestContext, trained); c /= 2) {
        if (need(g, c) <= budget) {
            fit.context = c;
            fit.needBytes = need(g, c);
            fit.why = "every layer on the card, context " + std::to_string(c) + ": about " +
                      format::bytes(fit.needBytes) + " of " + format::bytes(*vramBytes);
            return fit;
        }
        if (c <= 1)
            break;
    }
    // Part of it: the layers that fit at the smallest context, the rest on the CPU.
    fit.context = std::min(kSmallestContext, trained);
    fit.fits = false;
    const std::uint64_t layers = g.blockCount.value_or(0);
    const std::uint64_t perLayer =
        layers ? (g.weightBytes + kvCacheBytes(g, fit.context).value_or(0)) / layers : 0;
    const std::uint64_t room = budget > kComputeBuffers ? budget - kComputeBuffers : 0;
    fit.gpuLayers = perLayer ? std::min(layers, room / perLayer) : 0;
    fit.needBytes = *fit.gpuLayers * perLayer + kComputeBuffers;
    fit.why =
        *fit.gpuLayers == 0
            ? "it does not fit in " + format::bytes(*vramBytes) + ": it runs on the CPU, slowly"
            : std::to_string(*fit.gpuLayers) + " of " + std::to_string(layers) + " layers fit in " +
                  format::bytes(*vramBytes) + "; the rest run on the CPU, slower";
    return fit;
}

const Model* pickQuantization(const std::vector<const Model*>& family, std::uint64_t vramBytes,
                              std::string* why)
{
    const Model* best = nullptr;
    const Model* smallest = nullptr;
    for (const Model* m : family) {
        if (!smallest || m->bytes() < smallest->bytes())
            smallest = m;
        if (m->bytes() + kComputeBuffers <= budgetOf(vramBytes) &&
            (!best || m->bytes() > best->bytes()))
            best = m;
    }
    if (why && (best || smallest))
        *why = best ? (best->quant.empty() ? best->id : best->quant) + " (" +
                          format::bytes(best->bytes()) + ") is the largest that fits " +
                          format::bytes(vramBytes)
                    : "none fits " + format::bytes(vramBytes) + "; the smallest, " +
                          (smallest->quant.empty() ? smallest->id : smallest->quant) +
                          ", runs partly on the CPU";
    return best ? best : smallest;
}

} // namespace sp::models
