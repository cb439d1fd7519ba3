#include "core/models/safetensors.h"

#include "core/format.h"
#include "core/json_file.h"
#include "core/paths.h"

#include <cstring>
#include <fstream>

namespace sp::models {

namespace {

using nlohmann::json;

// A tensor's element width by its dtype (safetensors' Dtype); 0 when not known here.
std::uint64_t widthOf(const std::string& dtype)
{
    static const std::map<std::string, std::uint64_t> widths = {
        {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E4M3", 1}, {"F8_E5M2", 1},
        {"I16", 2},  {"U16", 2}, {"F16", 2}, {"BF16", 2},    {"I32", 4},
        {"U32", 4},  {"F32", 4}, {"I64", 8}, {"U64", 8},     {"F64", 8}};
    const auto it = widths.find(dtype);
    return it == widths.end() ? 0 : it->second;
}

bool startsWith(const std::string& s, const char* prefix)
{
    return s.rfind(prefix, 0) == 0;
}

// What the tensor names show, by the key layouts ComfyUI's model detection reads
// (comfy/model_detection.py): SDXL's second text encoder, SD 1.x's CLIP under
// cond_stage_model, a VAE's encoder/decoder alone, LoRA's up/down pairs.
std::string kindOf(const json& header)
{
    bool sdxl = false, sd15 = false, unet = false, lora = false, vaeOnly = true;
    for (const auto& [name, _] : header.items()) {
        if (name == "__metadata__")
            continue;
        sdxl = sdxl || startsWith(name, "conditioner.embedders.1.");
        sd15 = sd15 || startsWith(name, "cond_stage_model.transformer.");
        unet = unet || startsWith(name, "model.diffusion_model.");
        lora = lora || name.find("lora_up") != std::string::npos ||
               name.find("lora_down") != std::string::npos ||
               name.find("lora_A") != std::string::npos;
        vaeOnly =
            vaeOnly && (startsWith(name, "encoder.") || startsWith(name, "decoder.") ||
                        startsWith(name, "quant_conv.") || startsWith(name, "post_quant_conv."));
    }
    if (lora)
        return "lora";
    if (unet && sdxl)
        return "sdxl-checkpoint";
    if (unet && sd15)
        return "sd15-checkpoint";
    if (vaeOnly && header.size() > (header.contains("__metadata__") ? 1u : 0u))
        return "vae";
    return "";
}

Expected<void> readTensor(SafetensorsInfo& s, const std::string& name, const json& t,
                          std::uint64_t room, const std::string& origin)
{
    const auto bad = [&](const std::string& what) {
        return Error::invalid(origin + ": tensor \"" + name + "\": " + what);
    };
    if (!t.is_object() || !t.contains("dtype") || !t["dtype"].is_string() || !t.contains("shape") ||
        !t["shape"].is_array() || !t.contains("data_offsets") || !t["data_offsets"].is_array() ||
        t["data_offsets"].size() != 2)
        return bad("needs \"dtype\", \"shape\" and two \"data_offsets\"");
    std::uint64_t elements = 1;
    for (const json& d : t["shape"]) {
        if (!d.is_number_unsigned())
            return bad("a dimension that is not a whole number");
        const std::uint64_t n = d.get<std::uint64_t>();
        if (n != 0 && elements > ~0ull / n)
            return bad("more elements than 2^64");
        elements *= n;
    }
    const json& o = t["data_offsets"];
    if (!o[0].is_number_unsigned() || !o[1].is_number_unsigned())
        return bad("offsets that are not whole numbers");
    const std::uint64_t begin = o[0].get<std::uint64_t>(), end = o[1].get<std::uint64_t>();
    if (begin > end || end > room)
        return bad("its bytes " + std::to_string(begin) + "-" + std::to_string(end) +
                   " lie outside the file's " + std::to_string(room) + " bytes of data");
    const std::string dtype = t["dtype"].get<std::string>();
    const std::uint64_t width = widthOf(dtype);
    if (width && elements <= ~0ull / width && end - begin != elements * width)
        return bad(std::to_string(end - begin) + " bytes for " + std::to_string(elements) + " " +
                   dtype + " values");
    s.parameters = elements > ~0ull - s.parameters ? ~0ull : s.parameters + elements;
    s.dataBytes = std::max(s.dataBytes, end);
    ++s.dtypes[dtype];
    ++s.tensorCount;
    return {};
}

} // namespace

Expected<SafetensorsInfo> parseSafetensors(std::string_view head, std::uint64_t fileSize,
                                           const std::string& origin)
{
    std::uint64_t n = 0;
    if (head.size() < 8)
        return Error::invalid(origin + ": shorter than a safetensors header (8 bytes)");
    std::memcpy(&n, head.data(), 8); // little-endian, as every machine StackPilot runs on
    if (n > kMaxSafetensorsHeader || n > fileSize - 8)
        return Error::invalid(origin + ": a header of " + std::to_string(n) +
                              " bytes in a file of " + std::to_string(fileSize));
    if (head.size() - 8 < n)
        return Error::runtime(origin + ": truncated header");
    auto header = parseJsonText(std::string(head.substr(8, n)), origin, {n + 1, 8});
    if (!header)
        return header.error();
    if (!header->is_object())
        return Error::invalid(origin + ": its header is not a JSON object");
    SafetensorsInfo s;
    s.headerBytes = n;
    const std::uint64_t room = fileSize - 8 - n;
    for (const auto& [name, t] : header->items()) {
        if (name == "__metadata__") {
            if (t.is_object())
                for (const auto& [k, v] : t.items())
                    if (v.is_string())
                        s.metadata[k] = v.get<std::string>();
            continue;
        }
        if (auto ok = readTensor(s, name, t, room, origin); !ok)
            return ok.error();
    }
    s.kind = kindOf(*header);
    return s;
}

Expected<SafetensorsInfo> readSafetensors(const std::filesystem::path& file)
{
    const std::string origin = paths::toUtf8(file);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        return Error::invalid(origin + ": not a regular file");
    const std::uint64_t size = std::filesystem::file_size(file, ec);
    std::ifstream in(file, std::ios::binary);
    if (ec || !in)
        return Error::runtime(origin + ": cannot be read");
    std::string head(std::min<std::uint64_t>(size, 8), '\0');
    in.read(head.data(), std::streamsize(head.size()));
    if (head.size() == 8) {
        std::uint64_t n = 0;
        std::memcpy(&n, head.data(), 8);
        if (n <= kMaxSafetensorsHeader && n <= size - 8) {
            head.resize(8 + n);
            in.read(head.data() + 8, std::streamsize(n));
        }
    }
    if (!in && size >= 8)
        return Error::runtime(origin + ": could not read its header");
    return parseSafetensors(head, size, origin);
}

std::string describe(const SafetensorsInfo& s)
{
    static const std::map<std::string, std::string> kinds = {
        {"sdxl-checkpoint", "SDXL checkpoint"},
        {"sd15-checkpoint", "SD 1.5 checkpoint"},
        {"vae", "VAE"},
        {"lora", "LoRA"}};
    const auto k = kinds.find(s.kind);
    std::string out = k != kinds.end() ? k->second : "safetensors";
    char params[32];
    std::snprintf(params, sizeof params, "%.1f", double(s.parameters) / 1e9);
    out += s.parameters >= 100'000'000 ? std::string(", ") + params + " B parameters"
                                       : ", " + std::to_string(s.parameters) + " parameters";
    std::string mostly;
    std::uint64_t most = 0;
    for (const auto& [dtype, count] : s.dtypes)
        if (count > most)
            most = count, mostly = dtype;
    if (!mostly.empty())
        out += ", " + mostly;
    return out + ", " + format::bytes(s.dataBytes);
}

} // namespace sp::models
