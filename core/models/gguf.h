#pragma once
// What a GGUF model file is, read from its header alone: the format version, the
// architecture and name, the quantization, the context it was trained for, the shape
// the KV cache needs, the parameter count and the bytes of its weights. Bounded: the
// header is read in growing pieces up to kMaxGgufHeader, and every count and length is
// checked before anything is allocated, so no file can exhaust memory or hang it.
// Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md

#include "core/expected.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace sp::models {

// A vocabulary of 256 k tokens with merges is about 10 MiB; four times that is room.
inline constexpr std::uint64_t kMaxGgufHeader = 64u << 20;

struct GgufInfo
{
    std::uint32_t version = 0;
    std::uint64_t tensorCount = 0;
    std::uint64_t keyCount = 0;
    std::string architecture;                   // general.architecture: "llama", "qwen2", ...
    std::string name;                           // general.name, as the publisher wrote it
    std::string sizeLabel;                      // general.size_label: "3B", "8x7B"
    std::optional<std::uint32_t> fileType;      // general.file_type (llama.h's llama_ftype)
    std::string quant;                          // its name: "Q4_K_M", "F16"; "" when unknown
    std::optional<std::uint64_t> contextLength; // <arch>.context_length
    std::optional<std::uint64_t> blockCount;    // <arch>.block_count (layers)
    std::optional<std::uint64_t> embeddingLength;
    std::optional<std::uint64_t> headCount;
    std::optional<std::uint64_t> headCountKv;
    std::optional<std::uint64_t> keyLength;   // <arch>.attention.key_length
    std::optional<std::uint64_t> valueLength; // <arch>.attention.value_length
    std::uint64_t parameters = 0;             // the tensors' elements, summed
    std::uint64_t dataOffset = 0;             // where the tensor data begins
    std::uint64_t weightBytes = 0;            // the file's bytes from dataOffset on
};

// Parses a GGUF header held in `bytes` (the file's start; `fileSize` is the whole
// file's size, for weightBytes). An error names `origin` and the byte offset. A header
// that runs past `bytes` gives ErrorCode::Runtime with "truncated" when bytes is
// shorter than fileSize (the caller reads more), InvalidInput otherwise.
Expected<GgufInfo> parseGguf(std::string_view bytes, std::uint64_t fileSize,
                             const std::string& origin);

// Reads the header from the file: 1 MiB first, more as needed, at most kMaxGgufHeader.
Expected<GgufInfo> readGguf(const std::filesystem::path& file);

// llama.h's llama_ftype by number ("Q4_K_M" for 15), "" when not known.
std::string fileTypeName(std::uint32_t fileType);

// The KV cache at `context` tokens, in bytes (f16 keys and values, every layer); nullopt
// when the header lacks the shape.
std::optional<std::uint64_t> kvCacheBytes(const GgufInfo& g, std::uint64_t context);

// "Llama 3.2 3B Instruct, Q4_K_M, 1.9 GiB, context 131072".
std::string describe(const GgufInfo& g);

} // namespace sp::models
