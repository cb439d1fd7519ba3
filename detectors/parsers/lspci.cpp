// `lspci` lines (with or without -nn, -v, -k) and Windows device instance ids
// (PCI\VEN_10DE&DEV_2C58&SUBSYS_...&REV_A1), as users paste them.

#include "detectors/parsers/tool_parsers.h"
#include "detectors/windows/hardware_id.h"

#include <cctype>

namespace sp {

using namespace parse_util;

namespace {

bool isHexText(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) != 0;
    });
}

// "0000:03:00.0 " or "03:00.0 " at the start of the line -> "0000:03:00.0"; the
// length of what was read goes to *used.
std::string leadingBus(std::string_view line, std::size_t* used)
{
    std::string_view domain = "0000";
    std::size_t at = 0;
    if (line.size() > 5 && line[4] == ':' && isHexText(line.substr(0, 4)) && line.size() > 12 &&
        line[7] == ':') {
        domain = line.substr(0, 4);
        at = 5;
    }
    const std::string_view b = line.substr(at, 7); // "03:00.0"
    if (b.size() != 7 || b[2] != ':' || b[5] != '.' || !isHexText(b.substr(0, 2)) ||
        !isHexText(b.substr(3, 2)) || !isHexText(b.substr(6, 1)))
        return {};
    if (line.size() > at + 7 && line[at + 7] != ' ')
        return {};
    *used = at + 7;
    return lower(domain) + ":" + lower(b);
}

bool isDisplayClass(std::string_view cls)
{
    return cls.find("VGA compatible controller") != std::string_view::npos ||
           cls.find("3D controller") != std::string_view::npos ||
           cls.find("Display controller") != std::string_view::npos;
}

Vendor vendorFromText(std::string_view rest)
{
    if (rest.substr(0, 6) == "NVIDIA")
        return Vendor::Nvidia;
    if (rest.find("Advanced Micro Devices") != std::string_view::npos ||
        rest.find("[AMD/ATI]") != std::string_view::npos || rest.substr(0, 3) == "ATI")
        return Vendor::Amd;
    if (rest.substr(0, 5) == "Intel")
        return Vendor::Intel;
    return Vendor::Other;
}

// The last "[vvvv:dddd" in the line, closed by ']' or by the end of the line (a paste
// that wrapped the id onto the next line).
std::optional<std::pair<std::uint16_t, std::uint16_t>> bracketIds(std::string_view rest)
{
    for (auto at = rest.rfind('['); at != std::string_view::npos;
         at = at == 0 ? std::string_view::npos : rest.rfind('[', at - 1)) {
        const std::string_view id = rest.substr(at + 1, 9);
        const std::size_t after = at + 10;
        if (id.size() == 9 && id[4] == ':' && isHexText(id.substr(0, 4)) &&
            isHexText(id.substr(5, 4)) && (after >= rest.size() || rest[after] == ']'))
            return std::make_pair(static_cast<std::uint16_t>(*hexNumber(id.substr(0, 4))),
                                  static_cast<std::uint16_t>(*hexNumber(id.substr(5, 4))));
        if (at == 0)
            break;
    }
    return std::nullopt;
}

// The product name lspci prints in brackets after the chip: "GP102 [GeForce GTX 1080 Ti]"
// -> "GeForce GTX 1080 Ti". Vendor tags, class codes and ids are skipped. A bracket runs
// from its '[' to the first ']' after it, and the last bracket that is a name wins: read
// from the end, so that a line of many '[' is one pass, not one search per '['.
std::string bracketName(std::string_view rest)
{
    std::size_t close = std::string_view::npos;
    for (std::size_t at = rest.size(); at-- > 0;) {
        if (rest[at] == ']') {
            close = at;
            continue;
        }
        if (rest[at] != '[' || close == std::string_view::npos)
            continue;
        const std::string_view inside = rest.substr(at + 1, close - at - 1);
        if (inside == "AMD/ATI" || inside == "AMD" || isHexText(inside) ||
            (inside.size() == 9 && inside[4] == ':' && isHexText(inside.substr(0, 4))))
            continue;
        return std::string(inside);
    }
    return {};
}

std::optional<std::string> revisionIn(std::string_view rest)
{
    const auto at = rest.find("(rev ");
    if (at == std::string_view::npos)
        return std::nullopt;
    const std::string_view r = rest.substr(at + 5, 2);
    if (r.size() != 2 || !isHexText(r))
        return std::nullopt;
    return lower(r);
}

std::optional<GpuInfo> lspciLine(std::string_view line)
{
    std::size_t used = 0;
    const std::string bus = leadingBus(line, &used);
    if (bus.empty())
        return std::nullopt;
    const std::string_view afterBus = trim(line.substr(used));
    const auto colon = afterBus.find(": ");
    if (colon == std::string_view::npos || !isDisplayClass(afterBus.substr(0, colon)))
        return std::nullopt;
    const std::string_view rest = trim(afterBus.substr(colon + 2));
    GpuInfo g;
    g.pciBus = bus;
    g.vendor = vendorFromText(rest);
    std::optional<std::uint16_t> device;
    if (const auto ids = bracketIds(rest)) {
        g.vendor = vendorFromPciId(ids->first);
        g.pciId = hex(ids->first, 4) + ":" + hex(ids->second, 4);
    } else if ((device = deviceIdFromPlaceholder(rest))) { // "NVIDIA Corporation Device 2684"
        const std::uint16_t vendor = g.vendor == Vendor::Nvidia  ? 0x10de
                                     : g.vendor == Vendor::Amd   ? 0x1002
                                     : g.vendor == Vendor::Intel ? 0x8086
                                                                 : 0;
        if (vendor != 0)
            g.pciId = hex(vendor, 4) + ":" + hex(*device, 4);
    }
    if (const auto rev = revisionIn(rest))
        g.pciRevision = *rev;
    g.name = clip(bracketName(rest));
    g.sources = {"lspci"};
    return g;
}

bool isIdChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '&' || c == '\\';
}

// The first "PCI\VEN_...&DEV_..." in the line that is a whole word (not the end of
// "ACPI\", not a "VEN_" inside "HDAUDIO\FUNC_01&VEN_10DE&..."): its start, and the id.
std::optional<std::pair<std::size_t, win::PciHardwareId>> pciIdIn(std::string_view line)
{
    for (std::size_t at = line.find("PCI\\"); at != std::string_view::npos;
         at = line.find("PCI\\", at + 4)) {
        if (at > 0 && isIdChar(line[at - 1]))
            continue;
        std::size_t end = at;
        while (end < line.size() && isIdChar(line[end]))
            ++end;
        if (auto id = win::parsePciHardwareId(line.substr(at, end - at)))
            return std::make_pair(at, *id);
    }
    return std::nullopt;
}

bool isPnpStatus(std::string_view word)
{
    return word == "OK" || word == "Error" || word == "Degraded" || word == "Unknown";
}

std::string_view firstWord(std::string_view s)
{
    return s.substr(0, s.find_first_of(" \t"));
}

// A device instance id as Windows prints it: "NVIDIA GeForce RTX 5090 Laptop GPU
// PCI\VEN_10DE&DEV_2C58&SUBSYS_30111A58&REV_A1\...", or a Get-PnpDevice row, "OK  Display
// NVIDIA GeForce RTX 4090  PCI\VEN_10DE&...". Only a display device counts: a row of
// another class (MEDIA: the card's audio function) or a device named "... Audio ..." does
// not, nor an id of another bus (HDAUDIO\FUNC_01&VEN_10DE&DEV_0098).
std::optional<GpuInfo> windowsIdLine(std::string_view line)
{
    const auto found = pciIdIn(line);
    if (!found)
        return std::nullopt;
    const auto& [at, id] = *found;
    std::string_view name = trim(line.substr(0, at));
    if (const std::string_view status = firstWord(name); isPnpStatus(status)) {
        name = trim(name.substr(status.size()));
        const std::string_view cls = firstWord(name);
        if (lower(cls) != "display")
            return std::nullopt;
        name = trim(name.substr(cls.size()));
    }
    if (name.find("Audio") != std::string_view::npos)
        return std::nullopt;
    GpuInfo g;
    g.vendor = vendorFromPciId(static_cast<std::uint16_t>(id.vendorId));
    g.pciId = win::formatPciId(id.vendorId, id.deviceId);
    if (id.revision)
        g.pciRevision = win::formatPciRevision(*id.revision);
    if (!name.empty() && name.find_first_of("`|") == std::string_view::npos && name.back() != ':')
        g.name = clip(name);
    g.sources = {"windows-device-id"};
    return g;
}

} // namespace

ParsedProbe parseLspci(std::string_view text)
{
    ParsedProbe out;
    out.probe.name = "lspci";
    for (std::string_view raw : cleanLines(text)) {
        if (out.gpus.size() >= kMaxParsedGpus)
            break;
        const std::string_view line = trim(raw);
        if (auto g = lspciLine(line))
            out.gpus.push_back(std::move(*g));
        else if (auto w = windowsIdLine(line);
                 w && (w->vendor == Vendor::Amd || w->vendor == Vendor::Nvidia))
            out.gpus.push_back(std::move(*w));
    }
    out.probe.status = out.gpus.empty() ? ProbeStatus::Failed : ProbeStatus::Ok;
    out.probe.detail =
        out.gpus.empty() ? "no device" : std::to_string(out.gpus.size()) + " device(s)";
    return out;
}

} // namespace sp
