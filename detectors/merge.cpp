#include "detectors/merge.h"

#include "core/strings.h"
#include "detectors/nvidia_cc_table.h"
#include "detectors/parsers/parsed_probe.h"
#include "detectors/pci_table.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace sp {

namespace {

enum Field
{
    Vendor_,
    Name,
    PciId,
    Revision,
    Bus,
    Gfx,
    Cc,
    Vram,
    Gtt,
    Integrated,
    Driver,
    Cu,
    KfdNode,
    FieldCount
};

struct Slot
{
    GpuInfo gpu;
    std::array<int, FieldCount> rank{}; // 0 = unset
};

int rankOf(const GpuInfo& g)
{
    int best = 0;
    for (const auto& s : g.sources)
        best = std::max(best, sourceRank(s));
    return best == 0 ? 2 : best;
}

template <class T> bool isSet(const std::optional<T>& v)
{
    return v.has_value();
}
bool isSet(const std::string& v)
{
    return !v.empty();
}
bool isSet(Vendor v)
{
    return v != Vendor::Other;
}

template <class T> void take(Slot& slot, Field f, T& into, const T& from, int rank)
{
    if (isSet(from) && rank > slot.rank[f]) {
        into = from;
        slot.rank[f] = rank;
    }
}

void absorb(Slot& slot, const GpuInfo& g)
{
    const int r = rankOf(g);
    GpuInfo& t = slot.gpu;
    take(slot, Vendor_, t.vendor, g.vendor, r);
    take(slot, Name, t.name, g.name, r);
    take(slot, PciId, t.pciId, g.pciId, r);
    take(slot, Revision, t.pciRevision, g.pciRevision, r);
    take(slot, Bus, t.pciBus, normalizePciBus(g.pciBus), r);
    take(slot, Gfx, t.gfx, g.gfx, r);
    take(slot, Cc, t.computeCapability, g.computeCapability, r);
    take(slot, Vram, t.vramMb, g.vramMb, r);
    take(slot, Gtt, t.gttMb, g.gttMb, r);
    take(slot, Integrated, t.integrated, g.integrated, r);
    take(slot, Driver, t.driverVersion, g.driverVersion, r);
    take(slot, Cu, t.computeUnits, g.computeUnits, r);
    take(slot, KfdNode, t.kfdNode, g.kfdNode, r);
    for (const auto& [api, index] : g.indices)
        t.indices.emplace(api, index); // the first tool that numbered it keeps its number
    for (const auto& s : g.sources) {
        if (std::find(t.sources.begin(), t.sources.end(), s) == t.sources.end())
            t.sources.push_back(s);
    }
    if (g.extra.is_object()) {
        for (auto it = g.extra.begin(); it != g.extra.end(); ++it) {
            if (!t.extra.contains(it.key()))
                t.extra[it.key()] = it.value();
        }
    }
}

bool isHex(const std::string& s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) != 0;
    });
}

std::optional<std::uint32_t> hexValue(const std::string& s, std::size_t maxDigits)
{
    if (!isHex(s) || s.size() > maxDigits)
        return std::nullopt;
    return std::uint32_t(std::stoul(s, nullptr, 16));
}

// "AMD Radeon RX 7900 XTX (RADV NAVI31)", "Radeon(TM) RX 7900 XTX" -> "radeon rx 7900 xtx".
std::string plainName(const std::string& name)
{
    std::string n = lower(name);
    for (const char* mark : {"(tm)", "(r)"})
        for (auto at = n.find(mark); at != std::string::npos; at = n.find(mark))
            n.erase(at, std::string(mark).size());
    if (const auto paren = n.find(" ("); paren != std::string::npos)
        n.erase(paren);
    for (const char* brand : {"amd ", "nvidia "})
        if (n.rfind(brand, 0) == 0)
            n.erase(0, std::string(brand).size());
    return std::string(trim(n));
}

// A GPU with an id that no GPU met so far has: the one GPU without an id (hipInfo on
// Windows prints none) of the same vendor and name, at no other bus; else -1.
int slotByName(const std::vector<Slot>& slots, const std::vector<bool>& taken, const GpuInfo& g,
               const std::string& bus)
{
    const std::string name = plainName(g.name);
    int found = -1;
    for (std::size_t i = 0; i < slots.size() && !name.empty(); ++i) {
        const auto& s = slots[i].gpu;
        if (taken[i] || !s.pciId.empty() || s.vendor != g.vendor || plainName(s.name) != name ||
            (!bus.empty() && !s.pciBus.empty() && s.pciBus != bus))
            continue;
        if (found >= 0)
            return -1; // two such GPUs: which one is a guess
        found = int(i);
    }
    return found;
}

// The GPU a tool numbered the same earlier in the pastes (`amd-smi list`, then `amd-smi
// static`: GPU 0 both times), where neither bus nor id says otherwise; else -1.
int slotByIndex(const std::vector<Slot>& slots, const std::vector<bool>& taken, const GpuInfo& g,
                const std::string& bus)
{
    for (std::size_t i = 0; i < slots.size(); ++i) {
        const auto& s = slots[i].gpu;
        const bool otherBus = !bus.empty() && !s.pciBus.empty() && s.pciBus != bus;
        const bool otherId =
            !g.pciId.empty() && !s.pciId.empty() && lower(s.pciId) != lower(g.pciId);
        if (taken[i] || s.vendor != g.vendor || otherBus || otherId)
            continue;
        for (const auto& [api, index] : g.indices)
            if (const auto it = s.indices.find(api); it != s.indices.end() && it->second == index)
                return int(i);
    }
    return -1;
}

// Index of the slot `g` is the same GPU as, or -1. `taken` marks slots already
// paired with an entry of the current list.
int findSlot(const std::vector<Slot>& slots, const std::vector<bool>& taken, const GpuInfo& g)
{
    const auto bus = normalizePciBus(g.pciBus);
    const auto id = lower(g.pciId);
    if (!bus.empty()) {
        for (std::size_t i = 0; i < slots.size(); ++i) {
            if (!taken[i] && slots[i].gpu.pciBus == bus)
                return int(i);
        }
    }
    if (!id.empty()) {
        for (std::size_t i = 0; i < slots.size(); ++i) {
            const auto& s = slots[i].gpu;
            // Two different known addresses are two GPUs, even with equal ids.
            if (!taken[i] && lower(s.pciId) == id && (bus.empty() || s.pciBus.empty()))
                return int(i);
        }
        const int named = slotByName(slots, taken, g, bus);
        return named >= 0 ? named : slotByIndex(slots, taken, g, bus);
    }
    if (bus.empty() && g.vendor != Vendor::Other) {
        for (std::size_t i = 0; i < slots.size(); ++i) {
            const auto& s = slots[i].gpu;
            const bool gfxAgrees = !s.gfx || !g.gfx || *s.gfx == *g.gfx;
            const bool ccAgrees = !s.computeCapability || !g.computeCapability ||
                                  *s.computeCapability == *g.computeCapability;
            if (!taken[i] && s.vendor == g.vendor && gfxAgrees && ccAgrees)
                return int(i);
        }
    }
    return -1;
}

// A GPU without a bus address that could be any of several GPUs met (two of the same
// card): whichever it is merged into, its device numbers would be a guess, so it brings
// none.
bool ambiguousIndices(const std::vector<Slot>& slots, const GpuInfo& g)
{
    if (g.indices.empty() || !normalizePciBus(g.pciBus).empty())
        return false;
    int candidates = 0;
    for (std::size_t i = 0; i < slots.size(); ++i) {
        const auto& s = slots[i].gpu;
        const bool same = g.pciId.empty() ? s.vendor == g.vendor && s.gfx == g.gfx &&
                                                s.computeCapability == g.computeCapability
                                          : lower(s.pciId) == lower(g.pciId);
        candidates += same ? 1 : 0;
    }
    return candidates > 1;
}

void addSource(GpuInfo& g, const char* source)
{
    if (std::find(g.sources.begin(), g.sources.end(), source) == g.sources.end())
        g.sources.push_back(source);
}

} // namespace

int sourceRank(const std::string& source)
{
    if (source.rfind("import:", 0) == 0) {
        const int r = sourceRank(source.substr(7));
        return r == 1 ? 1 : 2; // a pasted tool output is a tool's word, never the driver's
    }
    static const char* const kDriver[] = {"kfd",  "drm",  "pci",      "hip",     "nvml",
                                          "cuda", "dxgi", "setupapi", "registry"};
    static const char* const kTool[] = {"rocminfo", "hipinfo", "nvidia-smi"};
    for (const char* s : kDriver) {
        if (source == s)
            return 3;
    }
    for (const char* s : kTool) {
        if (source == s)
            return 2;
    }
    return source == "pci-table" || source == "nvidia-cc-table" ? 1 : 2;
}

std::string normalizePciBus(const std::string& bus)
{
    // [domain:]bus:device.function, hex
    std::string s = lower(bus);
    const auto dot = s.rfind('.');
    const auto c2 = s.rfind(':');
    if (dot == std::string::npos || c2 == std::string::npos || c2 > dot)
        return {};
    const auto c1 = s.rfind(':', c2 == 0 ? std::string::npos : c2 - 1);
    std::string domain = c1 == std::string::npos ? "0" : s.substr(0, c1);
    const std::string b =
        s.substr(c1 == std::string::npos ? 0 : c1 + 1, c2 - (c1 == std::string::npos ? 0 : c1 + 1));
    const std::string d = s.substr(c2 + 1, dot - c2 - 1);
    const std::string f = s.substr(dot + 1);
    const auto dv = hexValue(domain, 8);
    const auto bv = hexValue(b, 2);
    const auto devv = hexValue(d, 2);
    const auto fv = hexValue(f, 1);
    if (!dv || !bv || !devv || !fv || *dv > 0xffff || *devv > 0x1f || *fv > 7)
        return {};
    static const char digits[] = "0123456789abcdef";
    std::string out = "0000:00:00.0";
    for (int i = 3; i >= 0; --i)
        out[std::size_t(i)] = digits[(*dv >> (4 * (3 - i))) & 0xf];
    out[5] = digits[*bv >> 4];
    out[6] = digits[*bv & 0xf];
    out[8] = digits[*devv >> 4];
    out[9] = digits[*devv & 0xf];
    out[11] = digits[*fv];
    return out;
}

std::vector<GpuInfo> mergeGpuLists(const std::vector<std::vector<GpuInfo>>& lists)
{
    std::vector<Slot> slots;
    for (const auto& list : lists) {
        std::vector<bool> taken(slots.size(), false);
        for (const auto& g : list) {
            int i = findSlot(slots, taken, g);
            if (i < 0 && slots.size() >= kMaxParsedGpus)
                continue; // a GPU past the bound: the first kMaxParsedGpus are kept
            if (i < 0) {
                slots.emplace_back();
                taken.push_back(false);
                i = int(slots.size() - 1);
            }
            taken[std::size_t(i)] = true;
            if (ambiguousIndices(slots, g)) {
                GpuInfo unnumbered = g;
                unnumbered.indices.clear();
                absorb(slots[std::size_t(i)], unnumbered);
                continue;
            }
            absorb(slots[std::size_t(i)], g);
        }
    }
    std::vector<GpuInfo> out;
    out.reserve(slots.size());
    for (auto& s : slots)
        out.push_back(std::move(s.gpu));
    return out;
}

std::vector<std::vector<GpuInfo>> listsBySource(std::vector<GpuInfo> gpus)
{
    std::vector<std::string> keys;
    std::vector<std::vector<GpuInfo>> lists;
    for (auto& g : gpus) {
        const std::string key = g.sources.empty() ? std::string() : g.sources.front();
        const auto at = std::size_t(std::find(keys.begin(), keys.end(), key) - keys.begin());
        if (at == keys.size()) {
            keys.push_back(key);
            lists.emplace_back();
        }
        lists[at].push_back(std::move(g));
    }
    return lists;
}

void completeFromTable(std::vector<GpuInfo>& gpus, const PciTable& table)
{
    for (auto& g : gpus) {
        const auto colon = g.pciId.find(':');
        if (g.vendor == Vendor::Amd && colon != std::string::npos) {
            const auto device = hexValue(g.pciId.substr(colon + 1), 4);
            const auto rev = hexValue(g.pciRevision, 2);
            std::optional<std::uint8_t> revision;
            if (rev)
                revision = std::uint8_t(*rev);
            if (device) {
                if (auto e = table.lookup(std::uint16_t(*device), revision)) {
                    bool used = false;
                    if (!g.gfx && !e->gfx.empty()) {
                        g.gfx = e->gfx;
                        used = true;
                    }
                    if (g.name.empty() && !e->name.empty()) {
                        g.name = e->name;
                        used = true;
                    }
                    if (!g.integrated) {
                        g.integrated = e->apu;
                        used = true;
                    }
                    // Listed only where the table supplied a value.
                    if (used)
                        addSource(g, "pci-table");
                }
            }
        }
        if (g.vendor == Vendor::Amd && !g.gfx && !g.name.empty()) {
            if (auto gfx = table.gfxForName(g.name)) {
                g.gfx = *gfx;
                addSource(g, "pci-table");
            }
        }
        if (!g.integrated && g.vramMb && g.gttMb) {
            const std::int64_t vram = *g.vramMb, gtt = *g.gttMb;
            g.integrated = vram <= 4096 && gtt >= 8192 && gtt >= 4 * vram;
        }
        if (g.name.empty()) {
            const char* vendor = g.vendor == Vendor::Amd      ? "AMD"
                                 : g.vendor == Vendor::Nvidia ? "NVIDIA"
                                 : g.vendor == Vendor::Intel  ? "Intel"
                                                              : "Unknown";
            g.name = std::string(vendor) + " GPU" + (g.pciId.empty() ? "" : " " + g.pciId);
        }
    }
}

void completeNvidiaFromTable(std::vector<GpuInfo>& gpus, const NvidiaCcTable& table)
{
    for (auto& g : gpus) {
        if (g.vendor != Vendor::Nvidia)
            continue;
        std::optional<std::uint32_t> device;
        if (const auto colon = g.pciId.find(':'); colon != std::string::npos)
            device = hexValue(g.pciId.substr(colon + 1), 4);
        // Seen only on the PCI bus (no probe, no nvidia-smi): the name NVIDIA gives the id
        // beats completeFromTable's "NVIDIA GPU 10de:2335".
        if (device && g.name == "NVIDIA GPU " + g.pciId) {
            if (auto name = table.nameOf(std::uint16_t(*device))) {
                g.name = *name;
                addSource(g, "nvidia-cc-table");
            }
        }
        if (g.computeCapability)
            continue;
        std::optional<std::string> cc;
        if (device)
            cc = table.byDevice(std::uint16_t(*device));
        if (!cc && !g.name.empty()) {
            const auto t = g.extra.find("name_truncated");
            cc = table.byName(g.name, t != g.extra.end() && t->is_boolean() && t->get<bool>());
        }
        if (cc) {
            g.computeCapability = *cc;
            addSource(g, "nvidia-cc-table");
        }
    }
}

} // namespace sp
