#include "detectors/pci_table.h"

#include "core/paths.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace sp {

namespace {

std::optional<std::uint32_t> parseHex(const std::string& s, std::size_t digits)
{
    if (s.size() != digits)
        return std::nullopt;
    std::uint32_t v = 0;
    for (char c : s) {
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= std::uint32_t(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= std::uint32_t(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= std::uint32_t(c - 'A' + 10);
        else
            return std::nullopt;
    }
    return v;
}

std::string strField(const nlohmann::json& row, const char* key)
{
    auto it = row.find(key);
    return it != row.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

Expected<PciTable> PciTable::parse(const std::string& text, const std::string& origin)
{
    const auto doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object())
        return Error::invalid(origin + ": not a JSON object");
    if (doc.value("schema", 0) != 1)
        return Error::invalid(origin + ": unsupported schema (expected 1)");
    auto devices = doc.find("devices");
    if (devices == doc.end() || !devices->is_array())
        return Error::invalid(origin + ": \"devices\" must be an array");

    PciTable table;
    table.m_rows.reserve(devices->size());
    std::size_t index = 0;
    for (const auto& row : *devices) {
        const auto where = origin + ": devices[" + std::to_string(index++) + "]";
        if (!row.is_object())
            return Error::invalid(where + ": expected an object");
        const auto device = parseHex(strField(row, "device"), 4);
        const auto revision = parseHex(strField(row, "revision"), 2);
        if (!device || !revision)
            return Error::invalid(where + ": device must be 4 and revision 2 hex digits");
        PciTableEntry e;
        e.gfx = strField(row, "gfx");
        // Only real targets count; a family name in the gfx column is not one.
        if (e.gfx.rfind("gfx", 0) != 0)
            e.gfx.clear();
        e.family = strField(row, "family");
        auto apu = row.find("apu");
        e.apu = apu != row.end() && apu->is_boolean() && apu->get<bool>();
        e.name = strField(row, "name");
        table.m_rows.push_back({*device << 8 | *revision, std::move(e)});
    }
    std::stable_sort(table.m_rows.begin(), table.m_rows.end(),
                     [](const Row& a, const Row& b) { return a.key < b.key; });
    return table;
}

Expected<PciTable> PciTable::load(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return Error::runtime(paths::toUtf8(file) + ": cannot open");
    std::ostringstream buf;
    buf << in.rdbuf();
    return parse(buf.str(), paths::toUtf8(file));
}

std::filesystem::path PciTable::shippedPath()
{
    return paths::shippedDataDir() / "gpu" / "amd-pci-devices.json";
}

const PciTable& PciTable::shipped()
{
    static const PciTable table = [] {
        auto loaded = load(shippedPath());
        if (loaded)
            return std::move(loaded).value();
        PciTable empty;
        empty.m_error = loaded.error().message;
        return empty;
    }();
    return table;
}

std::optional<PciTableEntry> PciTable::lookup(std::uint16_t device,
                                              std::optional<std::uint8_t> revision) const
{
    const std::uint32_t lo = std::uint32_t(device) << 8;
    auto first = std::lower_bound(m_rows.begin(), m_rows.end(), lo,
                                  [](const Row& r, std::uint32_t k) { return r.key < k; });
    auto last = std::lower_bound(first, m_rows.end(), lo | 0x100,
                                 [](const Row& r, std::uint32_t k) { return r.key < k; });
    if (first == last)
        return std::nullopt;
    if (revision) {
        for (auto it = first; it != last; ++it) {
            if (it->key == (lo | *revision))
                return it->entry;
        }
    }

    PciTableEntry out = first->entry;
    std::map<std::string, int> gfxVotes;
    int apuVotes = 0;
    int total = 0;
    for (auto it = first; it != last; ++it) {
        ++total;
        if (!it->entry.gfx.empty())
            ++gfxVotes[it->entry.gfx];
        apuVotes += it->entry.apu ? 1 : 0;
        if (it->entry.name != out.name)
            out.name.clear();
    }
    out.gfx.clear();
    int best = 0;
    for (const auto& [gfx, votes] : gfxVotes) {
        if (votes > best) {
            best = votes;
            out.gfx = gfx;
        }
    }
    out.apu = apuVotes * 2 > total;
    return out;
}

} // namespace sp
