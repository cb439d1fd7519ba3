#include "detectors/pci_table.h"

#include "core/paths.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

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

// The shipped file is flat: string and boolean fields in one object per device.
// This reader handles exactly that shape in one pass, several times faster than a
// general JSON parse; anything else (escapes, other types, a syntax error) makes
// it give up, and the general parser takes over and reports errors properly.
class FastReader
{
public:
    explicit FastReader(std::string_view text) : m_s(text) {}

    bool read(std::vector<PciTable::RawRow>& rows)
    {
        if (!expect('{'))
            return false;
        bool schemaOk = false, sawDevices = false;
        do {
            std::string_view key;
            if (!string(key) || !expect(':'))
                return false;
            if (key == "schema") {
                skipSpace();
                if (m_s.substr(m_i, 1) != "1")
                    return false;
                ++m_i;
                schemaOk = true;
            } else if (key == "source") {
                std::string_view ignored;
                if (!string(ignored))
                    return false;
            } else if (key == "devices") {
                if (!devices(rows))
                    return false;
                sawDevices = true;
            } else {
                return false;
            }
        } while (accept(','));
        if (!expect('}'))
            return false;
        skipSpace();
        return schemaOk && sawDevices && m_i == m_s.size();
    }

private:
    bool devices(std::vector<PciTable::RawRow>& rows)
    {
        if (!expect('['))
            return false;
        if (accept(']'))
            return true;
        do {
            PciTable::RawRow row;
            if (!expect('{'))
                return false;
            do {
                std::string_view key, value;
                if (!string(key) || !expect(':'))
                    return false;
                skipSpace();
                if (m_s.compare(m_i, 4, "true") == 0 || m_s.compare(m_i, 5, "false") == 0) {
                    const bool v = m_s[m_i] == 't';
                    m_i += v ? 4 : 5;
                    if (key == "apu")
                        row.apu = v;
                    continue;
                }
                if (!string(value))
                    return false;
                if (key == "device")
                    row.device = value;
                else if (key == "revision")
                    row.revision = value;
                else if (key == "gfx")
                    row.gfx = value;
                else if (key == "family")
                    row.family = value;
                else if (key == "name")
                    row.name = value;
                else if (key == "name_alt")
                    row.altName = value;
            } while (accept(','));
            if (!expect('}'))
                return false;
            rows.push_back(row);
        } while (accept(','));
        return expect(']');
    }

    void skipSpace()
    {
        while (m_i < m_s.size() &&
               (m_s[m_i] == ' ' || m_s[m_i] == '\n' || m_s[m_i] == '\r' || m_s[m_i] == '\t'))
            ++m_i;
    }
    bool accept(char c)
    {
        skipSpace();
        if (m_i < m_s.size() && m_s[m_i] == c) {
            ++m_i;
            return true;
        }
        return false;
    }
    bool expect(char c) { return accept(c); }
    bool string(std::string_view& out)
    {
        if (!accept('"'))
            return false;
        const auto end = m_s.find('"', m_i);
        if (end == std::string_view::npos)
            return false;
        out = m_s.substr(m_i, end - m_i);
        if (out.find('\\') != std::string_view::npos)
            return false; // escapes: leave them to the general parser
        for (unsigned char c : out) {
            if (c < 0x20)
                return false;
        }
        m_i = end + 1;
        return true;
    }

    std::string_view m_s;
    std::size_t m_i = 0;
};

// "AMD Radeon(TM) RX 6750 XT" and "Radeon RX 6750 XT" compare equal.
std::string nameKey(std::string_view name)
{
    std::string s;
    for (char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x80) // drops "™", "®"
            s += static_cast<char>(std::tolower(u));
    }
    for (std::string_view mark : {"(tm)", "(r)"})
        for (auto at = s.find(mark); at != std::string::npos; at = s.find(mark))
            s.erase(at, mark.size());
    std::string out;
    for (char c : s) {
        if (c == ' ' && (out.empty() || out.back() == ' '))
            continue;
        out += c;
    }
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    if (out.rfind("amd ", 0) == 0)
        out.erase(0, 4);
    return out;
}

} // namespace

std::optional<std::string> PciTable::gfxForName(std::string_view name) const
{
    const std::string key = nameKey(name);
    if (key.empty())
        return std::nullopt;
    std::call_once(m_names->once, [this] {
        for (const Row& r : m_rows) {
            for (const std::string* n : {&r.entry.name, &r.entry.altName})
                if (!n->empty())
                    m_names->keys.emplace_back(nameKey(*n), r.entry.gfx);
        }
        std::sort(m_names->keys.begin(), m_names->keys.end());
    });
    const auto& keys = m_names->keys;
    auto it = std::lower_bound(keys.begin(), keys.end(), std::make_pair(key, std::string()));
    std::optional<std::string> agreed;
    for (; it != keys.end() && it->first == key; ++it) {
        if (it->second.empty() || (agreed && *agreed != it->second))
            return std::nullopt;
        agreed = it->second;
    }
    return agreed;
}

Expected<PciTable> PciTable::fromRows(const std::vector<RawRow>& rows, const std::string& origin)
{
    PciTable table;
    table.m_rows.reserve(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        const auto device = parseHex(r.device, 4);
        const auto revision = parseHex(r.revision, 2);
        if (!device || !revision)
            return Error::invalid(origin + ": devices[" + std::to_string(i) +
                                  "]: device must be 4 and revision 2 hex digits");
        PciTableEntry e;
        // Only real targets count; a family name in the gfx column is not one.
        if (r.gfx.substr(0, 3) == "gfx")
            e.gfx = r.gfx;
        e.family = r.family;
        e.apu = r.apu;
        e.name = r.name;
        e.altName = r.altName;
        table.m_rows.push_back({*device << 8 | *revision, std::move(e)});
    }
    std::stable_sort(table.m_rows.begin(), table.m_rows.end(),
                     [](const Row& a, const Row& b) { return a.key < b.key; });
    return table;
}

Expected<PciTable> PciTable::parse(const std::string& text, const std::string& origin)
{
    std::vector<RawRow> rows;
    rows.reserve(1200);
    if (FastReader(text).read(rows))
        return fromRows(rows, origin);

    rows.clear();
    const auto doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object())
        return Error::invalid(origin + ": not a JSON object");
    const auto schema = doc.find("schema");
    if (schema == doc.end() || !schema->is_number_integer() || schema->get<std::int64_t>() != 1)
        return Error::invalid(origin + ": unsupported schema (expected 1)");
    auto devices = doc.find("devices");
    if (devices == doc.end() || !devices->is_array())
        return Error::invalid(origin + ": \"devices\" must be an array");
    std::size_t index = 0;
    for (const auto& row : *devices) {
        if (!row.is_object())
            return Error::invalid(origin + ": devices[" + std::to_string(index) +
                                  "]: expected an object");
        ++index;
        RawRow r;
        r.device = strField(row, "device");
        r.revision = strField(row, "revision");
        r.gfx = strField(row, "gfx");
        r.family = strField(row, "family");
        r.name = strField(row, "name");
        r.altName = strField(row, "name_alt");
        auto apu = row.find("apu");
        r.apu = apu != row.end() && apu->is_boolean() && apu->get<bool>();
        rows.push_back(std::move(r));
    }
    return fromRows(rows, origin);
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
    auto last = std::lower_bound(first, m_rows.end(), lo + 0x100,
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
