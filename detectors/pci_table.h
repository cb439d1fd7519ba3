#pragma once
// AMD's PCI device table (profiles/gpu/amd-pci-devices.json): maps a device id and
// revision to the gfx target, the APU flag and a marketing name. It is a guess
// from ids alone, so every value it gives ranks below what a driver or probe says.

#include "core/expected.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sp {

struct PciTableEntry
{
    std::string gfx;    // "gfx1031"; for GCN1-4 parts from their family (LLVM's processor table)
    std::string family; // "Tahiti" where AMD's table gives a family instead of a target
    bool apu = false;
    std::string name; // marketing name; empty when the table only has a placeholder
    // The other source's name where the two differ (libdrm's amdgpu.ids gives "name",
    // GPUOpen's table "name_alt"); gfxForName knows both.
    std::string altName;
};

class PciTable
{
public:
    static Expected<PciTable> parse(const std::string& text, const std::string& origin);
    static Expected<PciTable> load(const std::filesystem::path& file);
    // The shipped table, parsed on first use (so a machine without AMD GPUs never
    // pays for it). Missing or broken data gives an empty table; loadError() says why.
    static const PciTable& shipped();
    static std::filesystem::path shippedPath();

    // Exact (device, revision) first; else the device alone, where the gfx is the
    // one most of that device's revisions have (73ff: gfx1032, rev df: gfx1031) and
    // the name is kept only when every revision agrees on it.
    std::optional<PciTableEntry> lookup(std::uint16_t device,
                                        std::optional<std::uint8_t> revision) const;

    // The gfx target of a marketing name ("Radeon RX Vega", "AMD Radeon(TM) RX 6750 XT"),
    // when every device the table gives that name agrees on one; nullopt otherwise (most
    // integrated parts share "AMD Radeon(TM) Graphics").
    std::optional<std::string> gfxForName(std::string_view name) const;

    std::size_t size() const { return m_rows.size(); }
    const std::string& loadError() const { return m_error; }

    // One device as read from the file, before validation.
    struct RawRow
    {
        std::string device, revision, gfx, family, name, altName;
        bool apu = false;
    };

private:
    static Expected<PciTable> fromRows(const std::vector<RawRow>& rows, const std::string& origin);

    struct Row
    {
        std::uint32_t key; // device << 8 | revision
        PciTableEntry entry;
    };
    std::vector<Row> m_rows; // sorted by key
    std::string m_error;
    // Marketing-name keys, built on the first gfxForName (detection rarely needs them).
    struct NameIndex
    {
        std::once_flag once;
        std::vector<std::pair<std::string, std::string>> keys; // (name key, gfx), sorted
    };
    std::shared_ptr<NameIndex> m_names = std::make_shared<NameIndex>();
};

} // namespace sp
