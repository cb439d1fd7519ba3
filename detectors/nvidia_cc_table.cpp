#include "detectors/nvidia_cc_table.h"

#include "core/json_file.h"
#include "core/paths.h"
#include "core/strings.h"
#include "detectors/parsers/parsed_probe.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace sp {

namespace {

constexpr JsonLimits kTableLimits{4u << 20, 8};

bool isBoundary(char c)
{
    return c == ' ' || c == '/' || c == '(' || c == ',';
}

// Removes every occurrence of the word sequence `phrase` from `s` (space-separated).
void dropPhrase(std::string& s, std::string_view phrase)
{
    for (auto at = s.find(phrase); at != std::string::npos; at = s.find(phrase, at)) {
        const bool startOk = at == 0 || s[at - 1] == ' ';
        const std::size_t end = at + phrase.size();
        const bool endOk = end == s.size() || isBoundary(s[end]);
        if (startOk && endOk)
            s.erase(at, phrase.size());
        else
            at = end;
    }
}

// An NVIDIA vGPU profile as a guest sees it ("GRID RTX6000-24Q", normalized "grid rtx6000
// 24q"; "GRID V100D-8C"): the word after "grid" is the physical board, the rest its frame
// buffer size and series. Returns the board as NVIDIA's CUDA list names it, or empty.
std::string vgpuBoard(std::string_view q)
{
    if (q.substr(0, 5) != "grid ")
        return {};
    q.remove_prefix(5);
    std::string board(q.substr(0, q.find(' ')));
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    if (board.size() > 3 && board.compare(0, 3, "rtx") == 0 && digit(board[3])) {
        std::size_t n = 3;
        while (n < board.size() && digit(board[n]))
            ++n;
        return "quadro rtx " + board.substr(3, n - 3); // RTX6000, RTX8000P
    }
    // V100D, V100DX, V100L, V100S, P100C: a board variant's letters after the model number.
    std::size_t end = board.size();
    while (end > 0 && !digit(board[end - 1]))
        --end;
    board.resize(end);
    return board.size() > 1 ? board : std::string();
}

} // namespace

std::string NvidiaCcTable::normalizeName(std::string_view name)
{
    std::string s;
    for (char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x80) // "®", "™" and other marks some tools print
            continue;
        s += (c == '-' || c == '_' || c == '\t') ? ' ' : static_cast<char>(std::tolower(u));
    }
    for (const char* p : {"(tm)", "(r)"})
        for (auto at = s.find(p); at != std::string::npos; at = s.find(p))
            s.erase(at, std::string_view(p).size());
    // Brand words that one tool prints and NVIDIA's list omits (or the reverse), and the
    // suffixes of laptop parts, which share their model's compute capability.
    for (const char* p : {"with max q design", "laptop gpu", "max q", "mobile", "nvidia", "geforce",
                          "tesla", "corporation"})
        dropPhrase(s, p);
    std::string out;
    for (char c : s) {
        if (c == ' ' && (out.empty() || out.back() == ' '))
            continue;
        out += c;
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '/'))
        out.pop_back();
    return out;
}

Expected<NvidiaCcTable> NvidiaCcTable::parse(const std::string& text, const std::string& origin)
{
    auto doc = parseJsonText(text, origin, kTableLimits);
    if (!doc)
        return doc.error();
    const auto& j = *doc;
    if (!j.is_object() || j.value("schema", 0) != 1)
        return Error::invalid(origin + ": unsupported schema (expected 1)");
    const auto models = j.find("models");
    const auto devices = j.find("devices");
    if (models == j.end() || !models->is_array() || devices == j.end() || !devices->is_array())
        return Error::invalid(origin + ": \"models\" and \"devices\" must be arrays");
    NvidiaCcTable t;
    for (std::size_t i = 0; i < models->size(); ++i) {
        const auto& m = (*models)[i];
        const std::string name = m.is_object() ? m.value("name", "") : "";
        const std::string cc = m.is_object() ? m.value("cc", "") : "";
        if (name.empty() || !parse_util::looksLikeComputeCap(cc) || trim(cc) != cc)
            return Error::invalid(origin + ": models[" + std::to_string(i) +
                                  "]: needs a name and a cc such as \"8.6\"");
        t.m_models.push_back({normalizeName(name), cc});
    }
    for (std::size_t i = 0; i < devices->size(); ++i) {
        const auto& d = (*devices)[i];
        const std::string id = d.is_object() ? d.value("device", "") : "";
        const auto names = d.is_object() ? d.find("names") : d.end();
        const bool ok = id.size() == 4 && std::all_of(id.begin(), id.end(), [](char c) {
                            return std::isxdigit(static_cast<unsigned char>(c)) != 0;
                        });
        if (!ok || names == d.end() || !names->is_array())
            return Error::invalid(origin + ": devices[" + std::to_string(i) +
                                  "]: needs a 4-digit hex device and a list of names");
        Device dev;
        dev.id = static_cast<std::uint16_t>(std::stoul(id, nullptr, 16));
        for (const auto& n : *names)
            if (n.is_string())
                dev.names.push_back(n.get<std::string>());
        t.m_devices.push_back(std::move(dev));
    }
    std::sort(t.m_devices.begin(), t.m_devices.end(),
              [](const Device& a, const Device& b) { return a.id < b.id; });
    return t;
}

Expected<NvidiaCcTable> NvidiaCcTable::load(const std::filesystem::path& file)
{
    auto text = readRegularFile(file, kTableLimits.maxBytes, "NVIDIA compute capability table");
    if (!text)
        return text.error();
    return parse(*text, paths::toUtf8(file));
}

std::filesystem::path NvidiaCcTable::shippedPath()
{
    return paths::shippedDataDir() / "gpu" / "nvidia-compute-capability.json";
}

const NvidiaCcTable& NvidiaCcTable::shipped()
{
    static const NvidiaCcTable table = [] {
        auto loaded = load(shippedPath());
        if (loaded)
            return std::move(loaded).value();
        NvidiaCcTable empty;
        empty.m_error = loaded.error().message;
        return empty;
    }();
    return table;
}

std::optional<std::string> NvidiaCcTable::byName(std::string_view name, bool truncated) const
{
    const std::string q = normalizeName(name);
    if (q.empty())
        return std::nullopt;
    if (const std::string board = vgpuBoard(q); !board.empty())
        return byName(board); // a vGPU runs the kernels of its physical card
    const Model* best = nullptr;
    for (const Model& m : m_models) {
        const bool prefix = q.compare(0, m.key.size(), m.key) == 0 &&
                            (q.size() == m.key.size() || isBoundary(q[m.key.size()]));
        if (prefix && (!best || m.key.size() > best->key.size()))
            best = &m;
    }
    if (best)
        return best->cc;
    if (!truncated)
        return std::nullopt;
    // "NVIDIA GeForce RTX 4060 ..." could be the 4060 or the 4060 Ti: both 8.9.
    std::optional<std::string> agreed;
    for (const Model& m : m_models) {
        if (m.key.compare(0, q.size(), q) != 0)
            continue;
        if (agreed && *agreed != m.cc)
            return std::nullopt;
        agreed = m.cc;
    }
    return agreed;
}

std::optional<std::string> NvidiaCcTable::byDevice(std::uint16_t device) const
{
    const auto it = std::lower_bound(m_devices.begin(), m_devices.end(), device,
                                     [](const Device& d, std::uint16_t id) { return d.id < id; });
    if (it == m_devices.end() || it->id != device)
        return std::nullopt;
    std::optional<std::string> agreed;
    for (const std::string& n : it->names) {
        const auto cc = byName(n);
        if (!cc)
            continue; // a name the CUDA list does not carry ("NVIDIA PG509-210")
        if (agreed && *agreed != *cc)
            return std::nullopt;
        agreed = cc;
    }
    return agreed;
}

std::optional<std::string> NvidiaCcTable::nameOf(std::uint16_t device) const
{
    const auto it = std::lower_bound(m_devices.begin(), m_devices.end(), device,
                                     [](const Device& d, std::uint16_t id) { return d.id < id; });
    if (it == m_devices.end() || it->id != device || it->names.size() != 1)
        return std::nullopt;
    return it->names.front();
}

} // namespace sp
