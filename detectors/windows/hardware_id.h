#pragma once
// Pure parsers for what SetupAPI reports about a display device. No windows.h
// here: the Linux unit tests compile this file too.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sp::win {

// "PCI\VEN_1002&DEV_73DF&SUBSYS_24121462&REV_C0" (any case, any field order after
// the bus prefix; SUBSYS and REV may be missing in the shorter compatible ids).
struct PciHardwareId
{
    std::uint32_t vendorId = 0;
    std::uint32_t deviceId = 0;
    std::optional<std::uint32_t>
        subsysId; // high word: subsystem device, low word: subsystem vendor
    std::optional<std::uint32_t> revision;

    bool operator==(const PciHardwareId&) const = default;
};

// nullopt for non-PCI ids ("ROOT\BasicDisplay", "SWD\...") and malformed ones.
std::optional<PciHardwareId> parsePciHardwareId(std::string_view id);

// "1002:73df": the snapshot's pci_id.
std::string formatPciId(std::uint32_t vendorId, std::uint32_t deviceId);
// "c0": the snapshot's pci_revision.
std::string formatPciRevision(std::uint32_t revision);
// "0x24121462"
std::string formatSubsys(std::uint32_t subsysId);
// SPDRP_BUSNUMBER + SPDRP_ADDRESS ((device << 16) | function) -> "0000:03:00.0".
// Windows does not report the PCI domain through these properties; it is 0 on
// every desktop board we care about.
std::string formatPciBus(std::uint32_t busNumber, std::uint32_t address);

// Registry value "HardwareInformation.MemorySize" as older drivers write it:
// REG_DWORD, or REG_BINARY holding 4 or 8 little-endian bytes. nullopt when the
// bytes cannot be a size.
std::optional<std::uint64_t> memorySizeFromRegistryBytes(const unsigned char* data,
                                                         std::size_t size);

} // namespace sp::win
