#include "detectors/linux/sysfs_gpus.h"

#include "core/strings.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <system_error>

#ifdef __linux__
#include <fcntl.h>
#include <unistd.h>
#endif

namespace sp::sysfs {

namespace fs = std::filesystem;

namespace {

// sysfs attributes are a page at most; the cap keeps a hostile or fake tree
// (a FIFO, /dev/zero bound over a file) from costing more than a bounded read.
constexpr std::size_t kMaxFileBytes = 64 * 1024;

std::optional<std::string> readSmallFile(const fs::path& path)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::string data(kMaxFileBytes, '\0');
    in.read(data.data(), std::streamsize(data.size()));
    data.resize(std::size_t(in.gcount()));
    return data;
}

std::optional<std::uint64_t> parseUnsigned(std::string_view s, int base)
{
    s = trim(s);
    if (base == 16 && s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s.remove_prefix(2);
    if (s.empty())
        return std::nullopt;
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<std::uint64_t> readUnsigned(const fs::path& path, int base)
{
    auto text = readSmallFile(path);
    return text ? parseUnsigned(*text, base) : std::nullopt;
}

std::optional<int> toInt(std::uint64_t v)
{
    if (v > std::uint64_t(INT32_MAX))
        return std::nullopt;
    return int(v);
}

std::optional<std::int64_t> bytesToMb(std::optional<std::uint64_t> bytes)
{
    if (!bytes)
        return std::nullopt;
    return std::int64_t(*bytes / (1024 * 1024)); // < 2^44, always fits
}

struct Card
{
    int index = 0;
    std::uint32_t vendor = 0;
    std::uint32_t device = 0;
    std::optional<std::uint8_t> revision;
    std::optional<std::uint64_t> uniqueId;
    std::string bus;
    std::optional<std::int64_t> vramMb;
    std::optional<std::int64_t> gttMb;
    std::optional<bool> bootVga;
    bool used = false;
};

struct Node
{
    int index = 0;
    KfdProperties props;
    std::string bus; // from domain + location_id
};

// Indices of entries named <prefix><number>, sorted by number.
std::vector<std::pair<int, fs::path>> numberedEntries(const fs::path& dir, std::string_view prefix)
{
    std::vector<std::pair<int, fs::path>> out;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0)
            continue;
        const auto n = parseUnsigned(std::string_view(name).substr(prefix.size()), 10);
        if (n && *n < 100000)
            out.emplace_back(int(*n), it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string cardBus(const fs::path& deviceLink)
{
    std::error_code ec;
    // Real sysfs: card0/device -> ../../../0000:03:00.0; the link's last part is it.
    const auto target = fs::read_symlink(deviceLink, ec);
    if (!ec) {
        if (auto bus = pciBusFromName(target.filename().string()); !bus.empty())
            return bus;
    }
    const auto canonical = fs::weakly_canonical(deviceLink, ec);
    return ec ? std::string() : pciBusFromName(canonical.filename().string());
}

std::vector<Card> readCards(const fs::path& sysRoot)
{
    std::vector<Card> cards;
    for (const auto& [index, path] : numberedEntries(sysRoot / "class" / "drm", "card")) {
        const auto dev = path / "device";
        Card c;
        c.index = index;
        const auto vendor = readUnsigned(dev / "vendor", 16);
        const auto device = readUnsigned(dev / "device", 16);
        if (!vendor || !device || *vendor > 0xffff || *device > 0xffff)
            continue; // not a PCI GPU we can name (or garbage)
        c.vendor = std::uint32_t(*vendor);
        c.device = std::uint32_t(*device);
        if (auto rev = readUnsigned(dev / "revision", 16); rev && *rev <= 0xff)
            c.revision = std::uint8_t(*rev);
        c.uniqueId = readUnsigned(dev / "unique_id", 16);
        c.bus = cardBus(dev);
        c.vramMb = bytesToMb(readUnsigned(dev / "mem_info_vram_total", 10));
        c.gttMb = bytesToMb(readUnsigned(dev / "mem_info_gtt_total", 10));
        if (auto vga = readUnsigned(dev / "boot_vga", 10); vga && *vga <= 1)
            c.bootVga = *vga == 1;
        // Two card nodes for one device would list the GPU twice.
        const bool dup =
            !c.bus.empty() &&
            std::any_of(cards.begin(), cards.end(), [&](const Card& o) { return o.bus == c.bus; });
        if (!dup)
            cards.push_back(std::move(c));
    }
    return cards;
}

std::vector<Node> readNodes(const fs::path& sysRoot)
{
    std::vector<Node> nodes;
    const auto dir = sysRoot / "class" / "kfd" / "kfd" / "topology" / "nodes";
    for (const auto& [index, path] : numberedEntries(dir, "")) {
        auto text = readSmallFile(path / "properties");
        if (!text)
            continue;
        Node n;
        n.index = index;
        n.props = parseKfdProperties(*text);
        if (!gfxFromTargetVersion(n.props.gfxTargetVersion))
            continue; // CPU node, or a target we cannot name
        if (n.props.locationId && *n.props.locationId <= 0xffff && n.props.domain &&
            *n.props.domain <= 0xffff) {
            const auto loc = *n.props.locationId;
            n.bus = hex(*n.props.domain, 4) + ":" + hex(loc >> 8, 2) + ":" +
                    hex((loc >> 3) & 0x1f, 2) + "." + hex(loc & 7, 1);
        }
        nodes.push_back(std::move(n));
    }
    return nodes;
}

GpuInfo gpuFromCard(const Card& c)
{
    GpuInfo g;
    g.vendor = vendorFromPciId(c.vendor);
    g.pciId = hex(c.vendor, 4) + ":" + hex(c.device, 4);
    if (c.revision)
        g.pciRevision = hex(*c.revision, 2);
    g.pciBus = c.bus;
    g.vramMb = c.vramMb;
    g.gttMb = c.gttMb;
    if (c.bootVga)
        g.extra["boot_vga"] = *c.bootVga;
    g.sources.push_back("drm");
    return g;
}

void addKfd(GpuInfo& g, const Node& n)
{
    g.gfx = gfxFromTargetVersion(n.props.gfxTargetVersion);
    if (n.props.simdPerCu > 0)
        g.computeUnits = toInt(n.props.simdCount / n.props.simdPerCu);
    g.kfdNode = n.index;
    if (g.pciBus.empty())
        g.pciBus = n.bus;
    g.sources.insert(g.sources.begin(), "kfd");
}

Card* matchCard(std::vector<Card>& cards, const Node& n, int pass)
{
    for (auto& c : cards) {
        if (c.used || c.vendor != n.props.vendorId || c.device != n.props.deviceId)
            continue;
        if (pass == 0 && !(n.props.uniqueId && c.uniqueId && *n.props.uniqueId == *c.uniqueId))
            continue;
        if (pass == 1 && !(!n.bus.empty() && n.bus == c.bus))
            continue;
        return &c;
    }
    return nullptr;
}

// A display-class PCI device (class 0x03xxxx) of a GPU vendor that has no DRM card:
// NVIDIA's driver makes none without nvidia-drm (a datacenter H200, 2026-11-28:
// docs/research/device-h200.md), nor does a GPU with no driver bound.
std::optional<GpuInfo> pciOnlyGpu(const fs::path& dev, const std::vector<GpuInfo>& known)
{
    Card c;
    c.bus = pciBusFromName(dev.filename().string());
    const auto cls = readUnsigned(dev / "class", 16);
    if (c.bus.empty() || !cls || (*cls >> 16) != 0x03 ||
        std::any_of(known.begin(), known.end(),
                    [&](const GpuInfo& o) { return o.pciBus == c.bus; }))
        return std::nullopt;
    const auto vendor = readUnsigned(dev / "vendor", 16);
    const auto device = readUnsigned(dev / "device", 16);
    if (!vendor || !device || *vendor > 0xffff || *device > 0xffff ||
        vendorFromPciId(std::uint32_t(*vendor)) == Vendor::Other)
        return std::nullopt; // a BMC's or a virtual machine's display, never a compute GPU
    c.vendor = std::uint32_t(*vendor);
    c.device = std::uint32_t(*device);
    if (auto rev = readUnsigned(dev / "revision", 16); rev && *rev <= 0xff)
        c.revision = std::uint8_t(*rev);
    GpuInfo g = gpuFromCard(c);
    g.sources = {"pci"};
    std::error_code ec;
    const auto driver = fs::read_symlink(dev / "driver", ec);
    g.extra["kernel_driver"] = ec ? std::string() : driver.filename().string();
    return g;
}

std::vector<GpuInfo> pciOnlyGpus(const fs::path& sysRoot, const std::vector<GpuInfo>& known)
{
    std::vector<GpuInfo> out;
    std::error_code ec;
    fs::directory_iterator it(sysRoot / "bus" / "pci" / "devices", ec);
    for (; !ec && it != fs::directory_iterator() && out.size() < 64; it.increment(ec)) {
        if (auto g = pciOnlyGpu(it->path(), known))
            out.push_back(std::move(*g));
    }
    std::sort(out.begin(), out.end(),
              [](const GpuInfo& a, const GpuInfo& b) { return a.pciBus < b.pciBus; });
    return out;
}

} // namespace

std::string pciBusFromName(std::string_view name)
{
    // dddd:bb:dd.f, hex
    if (name.size() != 12 || name[4] != ':' || name[7] != ':' || name[10] != '.')
        return {};
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (i == 4 || i == 7 || i == 10) {
            out += c;
            continue;
        }
        if (c >= '0' && c <= '9')
            out += c;
        else if (c >= 'a' && c <= 'f')
            out += c;
        else if (c >= 'A' && c <= 'F')
            out += char(c - 'A' + 'a');
        else
            return {};
    }
    return out;
}

std::vector<GpuInfo> detectGpus(const fs::path& sysRoot)
{
    std::vector<GpuInfo> gpus;
    try {
        auto cards = readCards(sysRoot);
        const auto nodes = readNodes(sysRoot);
        std::vector<const Card*> nodeCard(nodes.size(), nullptr);
        // unique_id first, then the PCI address, then vendor:device in order.
        for (int pass = 0; pass < 3; ++pass) {
            for (std::size_t i = 0; i < nodes.size(); ++i) {
                if (nodeCard[i])
                    continue;
                if (Card* c = matchCard(cards, nodes[i], pass)) {
                    c->used = true;
                    nodeCard[i] = c;
                }
            }
        }
        const auto driver = amdgpuVersion(sysRoot);
        for (const auto& c : cards) {
            GpuInfo g = gpuFromCard(c);
            for (std::size_t i = 0; i < nodes.size(); ++i) {
                if (nodeCard[i] == &c)
                    addKfd(g, nodes[i]);
            }
            if (g.vendor == Vendor::Amd && driver)
                g.driverVersion = driver;
            gpus.push_back(std::move(g));
        }
        // A KFD node without a DRM card still is a GPU ROCm can use.
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            if (nodeCard[i])
                continue;
            GpuInfo g;
            g.vendor = vendorFromPciId(nodes[i].props.vendorId);
            g.pciId = hex(nodes[i].props.vendorId, 4) + ":" + hex(nodes[i].props.deviceId, 4);
            addKfd(g, nodes[i]);
            if (g.vendor == Vendor::Amd && driver)
                g.driverVersion = driver;
            gpus.push_back(std::move(g));
        }
        for (auto& g : pciOnlyGpus(sysRoot, gpus))
            gpus.push_back(std::move(g));
    } catch (...) {
        // Out of memory or a filesystem error we did not foresee: report what we have.
    }
    return gpus;
}

std::optional<std::string> amdgpuVersion(const fs::path& sysRoot)
{
    auto text = readSmallFile(sysRoot / "module" / "amdgpu" / "version");
    if (!text)
        return std::nullopt;
    std::string out;
    for (char c : trim(*text)) {
        if (c >= 0x20 && c < 0x7f)
            out += c;
        if (out.size() >= 64)
            break;
    }
    if (out.empty())
        return std::nullopt;
    return out;
}

ProbeResult checkKfdAccess(const fs::path& devKfd)
{
    ProbeResult r;
    r.name = "kfd-access";
#ifdef __linux__
    const int fd = ::open(devKfd.c_str(), O_RDWR | O_CLOEXEC);
    if (fd >= 0) {
        ::close(fd);
        r.status = ProbeStatus::Ok;
        r.detail = devKfd.string() + " opens read-write";
        return r;
    }
    const int err = errno;
    if (err == ENOENT || err == ENODEV || err == ENXIO) {
        r.status = ProbeStatus::Missing;
        r.detail = devKfd.string() + " does not exist (no amdgpu KFD driver)";
    } else if (err == EACCES || err == EPERM) {
        r.status = ProbeStatus::Failed;
        r.detail = "not in render group: cannot open " + devKfd.string() + " read-write";
    } else {
        r.status = ProbeStatus::Failed;
        r.detail = devKfd.string() + ": " + std::strerror(err);
    }
#else
    r.status = ProbeStatus::Missing;
    r.detail = "no KFD on this OS";
    (void)devKfd;
#endif
    return r;
}

} // namespace sp::sysfs
