#include "core/models/gguf.h"

#include "core/format.h"
#include "core/paths.h"

#include <array>
#include <cstring>
#include <fstream>

namespace sp::models {

namespace {

// GGUF's value types (gguf.md, "gguf_metadata_value_type").
enum ValueType : std::uint32_t
{
    U8 = 0,
    I8 = 1,
    U16 = 2,
    I16 = 3,
    U32 = 4,
    I32 = 5,
    F32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    U64 = 10,
    I64 = 11,
    F64 = 12,
};

// The width of a fixed-size value, 0 for strings and arrays, nullopt for no type.
std::optional<std::uint64_t> fixedWidth(std::uint32_t t)
{
    static constexpr std::array<std::uint8_t, 13> widths = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
    if (t >= widths.size())
        return std::nullopt;
    return widths[t];
}

constexpr std::uint64_t kMaxKeys = 1u << 16;    // real files: a few dozen
constexpr std::uint64_t kMaxTensors = 1u << 20; // a large MoE: tens of thousands
constexpr std::uint64_t kMaxString = 1u << 20;  // a chat template is a few KiB
constexpr std::uint32_t kMaxDims = 4;           // GGML_MAX_DIMS

class Cursor
{
public:
    Cursor(std::string_view bytes, std::uint64_t fileSize, const std::string& origin)
        : m_bytes(bytes), m_fileSize(fileSize), m_origin(origin)
    {}

    std::uint64_t at() const { return m_at; }
    const std::optional<Error>& error() const { return m_error; }

    bool raw(void* out, std::uint64_t n)
    {
        if (m_error)
            return false;
        if (n > m_bytes.size() - m_at) {
            const bool more = m_bytes.size() < m_fileSize;
            fail(more ? "truncated header" : "the file ends inside its header",
                 more ? ErrorCode::Runtime : ErrorCode::InvalidInput);
            return false;
        }
        if (out)
            std::memcpy(out, m_bytes.data() + m_at, n);
        m_at += n;
        return true;
    }
    template <class T> std::optional<T> num()
    {
        T v{}; // GGUF is little-endian, as every machine StackPilot runs on
        return raw(&v, sizeof v) ? std::optional<T>(v) : std::nullopt;
    }
    std::optional<std::string> str()
    {
        const auto n = num<std::uint64_t>();
        if (!n)
            return std::nullopt;
        if (*n > kMaxString)
            return fail("a string of " + std::to_string(*n) + " bytes"), std::nullopt;
        std::string s(*n, '\0'); // at most kMaxString
        return raw(s.data(), *n) ? std::optional(std::move(s)) : std::nullopt;
    }
    void fail(const std::string& what, ErrorCode code = ErrorCode::InvalidInput)
    {
        if (!m_error)
            m_error = Error{code, m_origin + ": byte " + std::to_string(m_at) + ": " + what};
    }

private:
    std::string_view m_bytes;
    std::uint64_t m_fileSize;
    const std::string& m_origin;
    std::uint64_t m_at = 0;
    std::optional<Error> m_error;
};

// A value the reader keeps: a string or an unsigned number; the rest is skipped.
struct Value
{
    std::optional<std::string> text;
    std::optional<std::uint64_t> number;
};

bool skipArray(Cursor& c)
{
    const auto type = c.num<std::uint32_t>();
    const auto n = c.num<std::uint64_t>();
    if (!type || !n)
        return false;
    const auto width = fixedWidth(*type);
    if (!width || *type == Array)
        return c.fail("an array of type " + std::to_string(*type)), false;
    if (*type != String) {
        if (*n > ~0ull / *width)
            return c.fail("an array of " + std::to_string(*n) + " values"), false;
        return c.raw(nullptr, *n * *width);
    }
    for (std::uint64_t i = 0; i < *n; ++i) {
        const auto len = c.num<std::uint64_t>();
        if (!len || !c.raw(nullptr, *len))
            return false;
    }
    return true;
}

std::optional<Value> readValue(Cursor& c, std::uint32_t type)
{
    Value v;
    switch (type) {
    case String:
        if (!(v.text = c.str()))
            return std::nullopt;
        return v;
    case Array:
        return skipArray(c) ? std::optional(v) : std::nullopt;
    case U32:
    case I32:
        if (const auto n = c.num<std::uint32_t>())
            return v.number = *n, v;
        return std::nullopt;
    case U64:
    case I64:
        if (const auto n = c.num<std::uint64_t>())
            return v.number = *n, v;
        return std::nullopt;
    default:
        break;
    }
    const auto width = fixedWidth(type);
    if (!width)
        return c.fail("a value of type " + std::to_string(type)), std::nullopt;
    return c.raw(nullptr, *width) ? std::optional(v) : std::nullopt;
}

// The keys StackPilot reads; the architecture's own keys carry its name as a prefix.
void keep(GgufInfo& g, const std::string& key, const Value& v, std::uint32_t& alignment)
{
    if (v.text) {
        if (key == "general.architecture")
            g.architecture = *v.text;
        else if (key == "general.name")
            g.name = *v.text;
        else if (key == "general.size_label")
            g.sizeLabel = *v.text;
        return;
    }
    if (!v.number)
        return;
    if (key == "general.file_type")
        g.fileType = std::uint32_t(*v.number);
    else if (key == "general.alignment")
        alignment = std::uint32_t(*v.number);
    const auto dot = key.find('.');
    const std::string own = dot == std::string::npos ? key : key.substr(dot + 1);
    static const std::array<std::pair<const char*, std::optional<std::uint64_t> GgufInfo::*>, 7>
        shape = {{{"context_length", &GgufInfo::contextLength},
                  {"block_count", &GgufInfo::blockCount},
                  {"embedding_length", &GgufInfo::embeddingLength},
                  {"attention.head_count", &GgufInfo::headCount},
                  {"attention.head_count_kv", &GgufInfo::headCountKv},
                  {"attention.key_length", &GgufInfo::keyLength},
                  {"attention.value_length", &GgufInfo::valueLength}}};
    for (const auto& [name, field] : shape)
        if (own == name && dot != std::string::npos)
            g.*field = *v.number;
}

bool readTensor(Cursor& c, GgufInfo& g)
{
    if (!c.str())
        return false;
    const auto dims = c.num<std::uint32_t>();
    if (!dims)
        return false;
    if (*dims == 0 || *dims > kMaxDims)
        return c.fail("a tensor with " + std::to_string(*dims) + " dimensions"), false;
    std::uint64_t elements = 1;
    for (std::uint32_t d = 0; d < *dims; ++d) {
        const auto n = c.num<std::uint64_t>();
        if (!n)
            return false;
        if (*n != 0 && elements > ~0ull / *n)
            return c.fail("a tensor with more elements than 2^64"), false;
        elements *= *n;
    }
    g.parameters = elements > ~0ull - g.parameters ? ~0ull : g.parameters + elements;
    return c.num<std::uint32_t>() && c.num<std::uint64_t>(); // its type, its offset
}

bool readHead(Cursor& c, GgufInfo& g)
{
    std::array<char, 4> magic{};
    if (!c.raw(magic.data(), 4))
        return false;
    if (std::string_view(magic.data(), 4) != "GGUF")
        return c.fail("not a GGUF file (no \"GGUF\" at its start)"), false;
    const auto version = c.num<std::uint32_t>();
    if (!version)
        return false;
    g.version = *version;
    if (g.version < 2 || g.version > 3)
        return c.fail("GGUF version " + std::to_string(g.version) + " (2 and 3 are read)"), false;
    const auto tensors = c.num<std::uint64_t>();
    const auto keys = c.num<std::uint64_t>();
    if (!tensors || !keys)
        return false;
    if (*tensors > kMaxTensors || *keys > kMaxKeys)
        return c.fail(std::to_string(*tensors) + " tensors and " + std::to_string(*keys) +
                      " keys (at most " + std::to_string(kMaxTensors) + " and " +
                      std::to_string(kMaxKeys) + ")"),
               false;
    g.tensorCount = *tensors;
    g.keyCount = *keys;
    return true;
}

} // namespace

Expected<GgufInfo> parseGguf(std::string_view bytes, std::uint64_t fileSize,
                             const std::string& origin)
{
    Cursor c(bytes, std::max<std::uint64_t>(fileSize, bytes.size()), origin);
    GgufInfo g;
    std::uint32_t alignment = 32; // gguf.md: GGUF_DEFAULT_ALIGNMENT
    bool ok = readHead(c, g);
    for (std::uint64_t i = 0; ok && i < g.keyCount; ++i) {
        const auto key = c.str();
        const auto type = key ? c.num<std::uint32_t>() : std::nullopt;
        const auto value = type ? readValue(c, *type) : std::nullopt;
        if ((ok = value.has_value()))
            keep(g, *key, *value, alignment);
    }
    for (std::uint64_t i = 0; ok && i < g.tensorCount; ++i)
        ok = readTensor(c, g);
    if (!ok)
        return *c.error();
    if (alignment == 0 || alignment > (1u << 20) || (alignment & (alignment - 1)))
        return Error::invalid(origin + ": general.alignment " + std::to_string(alignment) +
                              " is not a power of two");
    g.dataOffset = (c.at() + alignment - 1) / alignment * alignment;
    g.weightBytes = fileSize > g.dataOffset ? fileSize - g.dataOffset : 0;
    if (g.fileType)
        g.quant = fileTypeName(*g.fileType);
    return g;
}

Expected<GgufInfo> readGguf(const std::filesystem::path& file)
{
    const std::string origin = paths::toUtf8(file);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        return Error::invalid(origin + ": not a regular file");
    const std::uint64_t size = std::filesystem::file_size(file, ec);
    std::ifstream in(file, std::ios::binary);
    if (ec || !in)
        return Error::runtime(origin + ": cannot be read");
    std::string head;
    for (std::uint64_t want = 1u << 20;; want *= 4) {
        const std::uint64_t n = std::min({want, size, kMaxGgufHeader});
        const std::size_t had = head.size();
        head.resize(n);
        in.read(head.data() + had, std::streamsize(n - had));
        if (std::uint64_t(in.gcount()) != n - had)
            return Error::runtime(origin + ": could not read " + std::to_string(n) + " bytes");
        auto parsed = parseGguf(head, size, origin);
        if (parsed || parsed.error().code != ErrorCode::Runtime)
            return parsed;
        if (n >= kMaxGgufHeader)
            return Error::invalid(origin + ": its header is larger than " +
                                  format::bytes(kMaxGgufHeader));
    }
}

std::string fileTypeName(std::uint32_t t)
{
    // llama.h, enum llama_ftype (4-6 and 33-35 were removed upstream).
    static constexpr std::array<const char*, 39> names = {
        "F32",    "F16",    "Q4_0",  "Q4_1",    "",       "",       "",         "Q8_0",
        "Q5_0",   "Q5_1",   "Q2_K",  "Q3_K_S",  "Q3_K_M", "Q3_K_L", "Q4_K_S",   "Q4_K_M",
        "Q5_K_S", "Q5_K_M", "Q6_K",  "IQ2_XXS", "IQ2_XS", "Q2_K_S", "IQ3_XS",   "IQ3_XXS",
        "IQ1_S",  "IQ4_NL", "IQ3_S", "IQ3_M",   "IQ2_S",  "IQ2_M",  "IQ4_XS",   "IQ1_M",
        "BF16",   "",       "",      "",        "TQ1_0",  "TQ2_0",  "MXFP4_MOE"};
    return t < names.size() ? names[t] : "";
}

std::optional<std::uint64_t> kvCacheBytes(const GgufInfo& g, std::uint64_t context)
{
    if (!g.blockCount || !g.headCount || *g.headCount == 0)
        return std::nullopt;
    const std::uint64_t kv = g.headCountKv.value_or(*g.headCount);
    const std::optional<std::uint64_t> perHead =
        g.embeddingLength ? std::optional(*g.embeddingLength / *g.headCount) : std::nullopt;
    const auto k = g.keyLength ? g.keyLength : perHead;
    const auto v = g.valueLength ? g.valueLength : perHead;
    if (!k || !v)
        return std::nullopt;
    const long double bytes = 2.0L * context * *g.blockCount * kv * (*k + *v); // f16
    return bytes >= 1.8e19L ? ~0ull : std::uint64_t(bytes);
}

std::string describe(const GgufInfo& g)
{
    std::string out = !g.name.empty() ? g.name : !g.architecture.empty() ? g.architecture : "GGUF";
    if (!g.sizeLabel.empty() && out.find(g.sizeLabel) == std::string::npos)
        out += " " + g.sizeLabel;
    if (!g.quant.empty())
        out += ", " + g.quant;
    out += ", " + format::bytes(g.weightBytes);
    if (g.contextLength)
        out += ", context " + std::to_string(*g.contextLength);
    return out;
}

} // namespace sp::models
