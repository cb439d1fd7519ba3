#pragma once
// Real model files, small: a GGUF (version 3 header, metadata of each kind the reader
// meets, tensor infos, aligned tensor data) and a safetensors file (length, JSON
// header, data), built byte by byte as the formats say, for the model readers, the
// vault and the launch tests. Header-only: the fuzz preset builds no test libraries.

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace sp::test {

class GgufBuilder
{
public:
    GgufBuilder& text(const std::string& key, const std::string& value)
    {
        return entry(key, 8, str(value));
    }
    GgufBuilder& u32(const std::string& key, std::uint32_t value)
    {
        return entry(key, 4, bytes(value));
    }
    GgufBuilder& u64(const std::string& key, std::uint64_t value)
    {
        return entry(key, 10, bytes(value));
    }
    GgufBuilder& f32(const std::string& key, float value) { return entry(key, 6, bytes(value)); }
    // An array of strings (as tokenizer.ggml.tokens is).
    GgufBuilder& strings(const std::string& key, const std::vector<std::string>& items)
    {
        std::string v = bytes(std::uint32_t(8)) + bytes(std::uint64_t(items.size()));
        for (const auto& s : items)
            v += str(s);
        return entry(key, 9, v);
    }
    // An F32 tensor (ggml type 0) of `dims`, its values 0, 1, 2, ...
    GgufBuilder& tensor(const std::string& name, std::vector<std::uint64_t> dims)
    {
        m_tensors.push_back({name, std::move(dims)});
        return *this;
    }
    std::string build(std::uint32_t alignment = 32) const
    {
        std::string out = "GGUF" + bytes(std::uint32_t(3)) +
                          bytes(std::uint64_t(m_tensors.size())) + bytes(std::uint64_t(m_count)) +
                          m_kv;
        std::uint64_t offset = 0;
        std::vector<std::uint64_t> sizes;
        for (const auto& [name, dims] : m_tensors) {
            out += str(name) + bytes(std::uint32_t(dims.size()));
            std::uint64_t n = 1;
            for (std::uint64_t d : dims)
                out += bytes(d), n *= d;
            out += bytes(std::uint32_t(0)) + bytes(offset);
            sizes.push_back(n * 4);
            offset += (n * 4 + alignment - 1) / alignment * alignment;
        }
        out.resize((out.size() + alignment - 1) / alignment * alignment, '\0');
        for (std::uint64_t size : sizes) {
            for (std::uint64_t i = 0; i < size / 4; ++i)
                out += bytes(float(i));
            out.resize((out.size() + alignment - 1) / alignment * alignment, '\0');
        }
        return out;
    }

    template <class T> static std::string bytes(T v)
    {
        std::string s(sizeof v, '\0');
        std::memcpy(s.data(), &v, sizeof v);
        return s;
    }
    static std::string str(const std::string& s) { return bytes(std::uint64_t(s.size())) + s; }

private:
    GgufBuilder& entry(const std::string& key, std::uint32_t type, const std::string& value)
    {
        m_kv += str(key) + bytes(type) + value;
        ++m_count;
        return *this;
    }
    std::string m_kv;
    std::uint64_t m_count = 0;
    std::vector<std::pair<std::string, std::vector<std::uint64_t>>> m_tensors;
};

// A llama-shaped GGUF: 2 layers, 4 heads (2 for K/V), 16-wide, context 4096, Q4_K_M as
// its file type (the data itself is F32: the readers do not look at it).
inline std::string tinyLlamaGguf()
{
    return GgufBuilder()
        .text("general.architecture", "llama")
        .text("general.name", "Tiny Llama Test")
        .text("general.size_label", "1K")
        .u32("general.file_type", 15)
        .u32("general.alignment", 32)
        .u64("llama.context_length", 4096)
        .u64("llama.block_count", 2)
        .u64("llama.embedding_length", 16)
        .u64("llama.attention.head_count", 4)
        .u64("llama.attention.head_count_kv", 2)
        .f32("llama.rope.freq_base", 10000.0f)
        .strings("tokenizer.ggml.tokens", {"<s>", "</s>", "hello"})
        .tensor("token_embd.weight", {16, 3})
        .tensor("output_norm.weight", {16})
        .build();
}

// A safetensors file of F16 tensors named as `names` say, each of `shape`.
inline std::string tinySafetensors(const std::vector<std::string>& names,
                                   std::vector<std::uint64_t> shape = {4, 4})
{
    nlohmann::json header = {{"__metadata__", {{"format", "pt"}}}};
    std::uint64_t n = 1;
    for (std::uint64_t d : shape)
        n *= d;
    std::uint64_t offset = 0;
    for (const auto& name : names) {
        header[name] = {
            {"dtype", "F16"}, {"shape", shape}, {"data_offsets", {offset, offset + 2 * n}}};
        offset += 2 * n;
    }
    const std::string text = header.dump();
    return GgufBuilder::bytes(std::uint64_t(text.size())) + text + std::string(offset, '\x3c');
}

// `n` bytes that do not compress and differ by `seed` (xorshift32).
inline std::string patternedBytes(std::size_t n, unsigned seed)
{
    std::string s(n, '\0');
    std::uint32_t x = seed * 2654435761u + 1;
    for (char& c : s) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        c = char(x & 0xff);
    }
    return s;
}

} // namespace sp::test
