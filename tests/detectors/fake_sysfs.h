#pragma once
// Builds a fake /sys tree the way the kernel lays it out: PCI device folders under
// devices/, class/drm/cardN/device as a relative symlink into them, and KFD
// topology nodes with their `properties` files. Tests point --sysfs-root at it.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace sp::test {

class FakeSysfs
{
public:
    explicit FakeSysfs(std::filesystem::path root) : m_root(std::move(root))
    {
        std::filesystem::create_directories(m_root);
    }

    const std::filesystem::path& root() const { return m_root; }

    struct Card
    {
        int index = 0;
        std::string bus = "0000:03:00.0";
        std::string vendor = "0x1002";
        std::string device = "0x73df";
        std::string revision = "0xc0";
        std::string vramBytes; // empty = no file (NVIDIA's driver has none)
        std::string gttBytes;
        std::string bootVga = "1";
        std::string uniqueId; // hex, as amdgpu prints it; empty = no file
    };

    // A PCI device with no DRM card (NVIDIA without nvidia-drm, a BMC's display, a
    // bridge): its folder, the bus/pci/devices link to it, and the bound driver's link.
    std::filesystem::path addPciDevice(const Card& c, const std::string& pciClass,
                                       const std::string& driver = {})
    {
        const auto pciDir = m_root / "devices" / "pci0000:00" / "0000:00:01.0" / c.bus;
        std::filesystem::create_directories(pciDir);
        write(pciDir / "class", pciClass + "\n");
        write(pciDir / "vendor", c.vendor + "\n");
        write(pciDir / "device", c.device + "\n");
        write(pciDir / "revision", c.revision + "\n");
        const auto busDir = m_root / "bus" / "pci" / "devices";
        std::filesystem::create_directories(busDir);
        std::filesystem::create_directory_symlink(
            std::filesystem::path("../../../devices/pci0000:00/0000:00:01.0") / c.bus,
            busDir / c.bus);
        if (!driver.empty()) {
            const auto driverDir = m_root / "bus" / "pci" / "drivers" / driver;
            std::filesystem::create_directories(driverDir);
            std::filesystem::create_directory_symlink(
                std::filesystem::path("../../../../bus/pci/drivers") / driver, pciDir / "driver");
        }
        return pciDir;
    }

    // Returns the PCI device folder, for tests that want to spoil a file in it.
    std::filesystem::path addCard(const Card& c)
    {
        const auto pciDir = addPciDevice(c, "0x030000");
        write(pciDir / "boot_vga", c.bootVga + "\n");
        if (!c.vramBytes.empty())
            write(pciDir / "mem_info_vram_total", c.vramBytes + "\n");
        if (!c.gttBytes.empty())
            write(pciDir / "mem_info_gtt_total", c.gttBytes + "\n");
        if (!c.uniqueId.empty())
            write(pciDir / "unique_id", c.uniqueId + "\n");
        const auto cardDir = m_root / "class" / "drm" / ("card" + std::to_string(c.index));
        std::filesystem::create_directories(cardDir);
        std::filesystem::create_directory_symlink(
            std::filesystem::path("../../../devices/pci0000:00/0000:00:01.0") / c.bus,
            cardDir / "device");
        // Connectors sit beside the cards and must not count as GPUs.
        std::filesystem::create_directories(m_root / "class" / "drm" /
                                            ("card" + std::to_string(c.index) + "-DP-1"));
        return pciDir;
    }

    std::filesystem::path addKfdNode(int index, const std::string& properties)
    {
        const auto dir =
            m_root / "class" / "kfd" / "kfd" / "topology" / "nodes" / std::to_string(index);
        std::filesystem::create_directories(dir);
        write(dir / "properties", properties);
        return dir / "properties";
    }

    void addCpuNode(int index)
    {
        addKfdNode(index,
                   "cpu_cores_count 16\nsimd_count 0\nmem_banks_count 1\ngfx_target_version 0\n"
                   "vendor_id 0\ndevice_id 0\nlocation_id 0\ndomain 0\nunique_id 0\n");
    }

    // A GPU node as amdgpu prints it (ids and location decimal).
    void addGpuNode(int index, std::uint32_t gfxTargetVersion, std::uint32_t device,
                    std::uint32_t locationId, int simdCount, const std::string& uniqueId = "0")
    {
        addKfdNode(index, "cpu_cores_count 0\nsimd_count " + std::to_string(simdCount) +
                              "\nmem_banks_count 1\ncaches_count 0\nio_links_count 1\n"
                              "gfx_target_version " +
                              std::to_string(gfxTargetVersion) + "\nvendor_id 4098\ndevice_id " +
                              std::to_string(device) + "\nlocation_id " +
                              std::to_string(locationId) + "\ndomain 0\nunique_id " + uniqueId +
                              "\nsimd_per_cu 2\nmax_waves_per_simd 16\nlds_size_in_kb 64\n");
    }

    void setAmdgpuVersion(const std::string& v)
    {
        std::filesystem::create_directories(m_root / "module" / "amdgpu");
        write(m_root / "module" / "amdgpu" / "version", v);
    }

    static void write(const std::filesystem::path& p, const std::string& data)
    {
        std::ofstream out(p, std::ios::binary | std::ios::trunc);
        out << data;
    }

private:
    std::filesystem::path m_root;
};

} // namespace sp::test
