#pragma once
// What a safetensors file is, read from its header alone: how many tensors, of which
// types, how many parameters, what kind of checkpoint the tensor names show, and the
// publisher's metadata. The header is a length (8 bytes, little-endian) and that many
// bytes of JSON; it is read only up to kMaxSafetensorsHeader (the format's own limit)
// and through the bounded JSON reader, and the tensors' offsets are checked against
// the file's size. Format: https://github.com/huggingface/safetensors (README, "Format")

#include "core/expected.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

namespace sp::models {

// safetensors refuses headers over 100 MB (MAX_HEADER_SIZE in its lib.rs).
inline constexpr std::uint64_t kMaxSafetensorsHeader = 100'000'000;

struct SafetensorsInfo
{
    std::uint64_t headerBytes = 0;
    std::uint64_t tensorCount = 0;
    std::uint64_t parameters = 0;
    std::uint64_t dataBytes = 0;                 // the largest end offset
    std::map<std::string, std::uint64_t> dtypes; // "F16" -> tensors of that type
    std::map<std::string, std::string> metadata; // "__metadata__", strings only
    std::string kind; // "sdxl-checkpoint", "sd15-checkpoint", "vae", "lora" or ""
};

// Parses the header: `head` holds the file's first bytes (at least 8 + its length);
// `fileSize` is the whole file's size. Errors name `origin` and what is wrong.
Expected<SafetensorsInfo> parseSafetensors(std::string_view head, std::uint64_t fileSize,
                                           const std::string& origin);
Expected<SafetensorsInfo> readSafetensors(const std::filesystem::path& file);

// "SDXL checkpoint, 3.5 B parameters, F16, 6.5 GiB".
std::string describe(const SafetensorsInfo& s);

} // namespace sp::models
