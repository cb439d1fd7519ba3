#include "detectors/windows/hardware_id.h"

#include "core/strings.h"

#include <cstdio>

namespace sp::win {

namespace {

char upper(char c)
{
    return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}

// Exactly `digits` hex digits, nothing else: a truncated or padded field is
// rejected rather than guessed at.
std::optional<std::uint32_t> parseHexId(std::string_view s, std::size_t digits)
{
    if (s.size() != digits)
        return std::nullopt;
    std::uint32_t v = 0;
    for (char c : s) {
        int d = -1;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (upper(c) >= 'A' && upper(c) <= 'F')
            d = upper(c) - 'A' + 10;
        if (d < 0)
            return std::nullopt;
        v = (v << 4) | static_cast<std::uint32_t>(d);
    }
    return v;
}

} // namespace

std::optional<PciHardwareId> parsePciHardwareId(std::string_view id)
{
    if (!startsWithNoCase(id, "PCI\\"))
        return std::nullopt;
    id.remove_prefix(4);
    // An instance id ("PCI\VEN_...&REV_C0\4&2c0b8a8d&0&0008") carries a second
    // path element; the hardware part is the first one.
    if (auto slash = id.find('\\'); slash != std::string_view::npos)
        id = id.substr(0, slash);

    std::optional<std::uint32_t> vendor, device, subsys, rev;
    struct Field
    {
        std::string_view key;
        std::size_t digits;
        std::optional<std::uint32_t>* value;
    };
    const Field fields[] = {
        {"VEN_", 4, &vendor}, {"DEV_", 4, &device}, {"SUBSYS_", 8, &subsys}, {"REV_", 2, &rev}};
    while (!id.empty()) {
        const auto amp = id.find('&');
        const auto part = id.substr(0, amp);
        id = amp == std::string_view::npos ? std::string_view{} : id.substr(amp + 1);
        for (const auto& f : fields) {
            if (!startsWithNoCase(part, f.key))
                continue; // CC_0300 and friends match nothing: not needed
            if (f.value->has_value())
                return std::nullopt; // a field twice: we are not reading what we think
            *f.value = parseHexId(part.substr(f.key.size()), f.digits);
            if (!f.value->has_value())
                return std::nullopt;
        }
    }
    if (!vendor || !device)
        return std::nullopt;
    return PciHardwareId{*vendor, *device, subsys, rev};
}

std::string formatPciId(std::uint32_t vendorId, std::uint32_t deviceId)
{
    return hex(vendorId & 0xffff, 4) + ":" + hex(deviceId & 0xffff, 4);
}

std::string formatPciRevision(std::uint32_t revision)
{
    return hex(revision & 0xff, 2);
}

std::string formatSubsys(std::uint32_t subsysId)
{
    return "0x" + hex(subsysId, 8);
}

std::string formatPciBus(std::uint32_t busNumber, std::uint32_t address)
{
    const std::uint32_t device = (address >> 16) & 0x1f;
    const std::uint32_t function = address & 0x7;
    return "0000:" + hex(busNumber & 0xff, 2) + ":" + hex(device, 2) + "." + hex(function, 1);
}

std::optional<std::uint64_t> memorySizeFromRegistryBytes(const unsigned char* data,
                                                         std::size_t size)
{
    if (data == nullptr || (size != 4 && size != 8))
        return std::nullopt;
    std::uint64_t v = 0;
    for (std::size_t i = size; i-- > 0;)
        v = (v << 8) | data[i];
    if (v == 0)
        return std::nullopt;
    return v;
}

} // namespace sp::win
