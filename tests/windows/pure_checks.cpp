#include "pure_checks.h"

#include "detectors/windows/adapters.h"
#include "detectors/windows/hardware_id.h"
#include "detectors/windows/home_classify.h"

#include <sstream>

namespace sp::wintest {

using namespace sp::win;

namespace {

struct Checker
{
    std::vector<std::string>& failures;
    int count = 0;

    void expect(bool ok, const char* what, int line)
    {
        ++count;
        if (!ok) {
            std::ostringstream s;
            s << __FILE__ << ":" << line << ": " << what;
            failures.push_back(s.str());
        }
    }
};

#define EXPECT(c, cond) (c).expect((cond), #cond, __LINE__)

} // namespace

int checkHardwareIds(std::vector<std::string>& failures)
{
    Checker c{failures};

    const auto full = parsePciHardwareId("PCI\\VEN_1002&DEV_73DF&SUBSYS_24121462&REV_C0");
    EXPECT(c, full.has_value());
    if (full) {
        EXPECT(c, full->vendorId == 0x1002);
        EXPECT(c, full->deviceId == 0x73df);
        EXPECT(c, full->subsysId == 0x24121462u);
        EXPECT(c, full->revision == 0xc0u);
        EXPECT(c, formatPciId(full->vendorId, full->deviceId) == "1002:73df");
        EXPECT(c, formatPciRevision(*full->revision) == "c0");
        EXPECT(c, formatSubsys(*full->subsysId) == "0x24121462");
    }

    // Lower case, the less specific compatible ids, an instance id, CC_ fields.
    const auto lower = parsePciHardwareId("pci\\ven_10de&dev_1b81&rev_a1");
    EXPECT(c, lower && lower->vendorId == 0x10de && lower->deviceId == 0x1b81 && !lower->subsysId &&
                  lower->revision == 0xa1u);
    const auto shortest = parsePciHardwareId("PCI\\VEN_8086&DEV_A780");
    EXPECT(c,
           shortest && shortest->deviceId == 0xa780 && !shortest->revision && !shortest->subsysId);
    const auto cc = parsePciHardwareId("PCI\\VEN_1002&DEV_15BF&CC_030000");
    EXPECT(c, cc && cc->deviceId == 0x15bf && !cc->revision);
    const auto instance =
        parsePciHardwareId("PCI\\VEN_1002&DEV_73FF&SUBSYS_E4511DA2&REV_DF\\4&2C0B8A8D&0&0008");
    EXPECT(c, instance && instance->deviceId == 0x73ff && instance->revision == 0xdfu &&
                  instance->subsysId == 0xe4511da2u);

    // Not PCI, or not well formed: no guess.
    EXPECT(c, !parsePciHardwareId("ROOT\\BasicDisplay"));
    EXPECT(c, !parsePciHardwareId("SWD\\RemoteDisplayEnum"));
    EXPECT(c, !parsePciHardwareId(""));
    EXPECT(c, !parsePciHardwareId("PCI\\"));
    EXPECT(c, !parsePciHardwareId("PCI\\DEV_73DF&VEN_10"));
    EXPECT(c, !parsePciHardwareId("PCI\\VEN_1002"));
    EXPECT(c, !parsePciHardwareId("PCI\\VEN_1002&DEV_73D"));
    EXPECT(c, !parsePciHardwareId("PCI\\VEN_1002&DEV_73DFF"));
    EXPECT(c, !parsePciHardwareId("PCI\\VEN_10G2&DEV_73DF"));
    EXPECT(c, !parsePciHardwareId("PCI\\VEN_1002&DEV_73DF&REV_C"));
    EXPECT(c, !parsePciHardwareId("PCI\\VEN_1002&DEV_73DF&VEN_10DE"));
    const auto reordered = parsePciHardwareId("PCI\\DEV_73DF&VEN_1002");
    EXPECT(c, reordered && reordered->vendorId == 0x1002 && reordered->deviceId == 0x73df);

    EXPECT(c, formatPciBus(3, 0) == "0000:03:00.0");
    EXPECT(c, formatPciBus(0x0a, (0x1f << 16) | 7) == "0000:0a:1f.7");
    EXPECT(c, formatPciRevision(0x0) == "00");

    const unsigned char dword[4] = {0x00, 0x00, 0x00, 0xc0}; // 3 GiB
    EXPECT(c, memorySizeFromRegistryBytes(dword, 4) == 0xc0000000ull);
    const unsigned char qword[8] = {0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00}; // 12 GiB
    EXPECT(c, memorySizeFromRegistryBytes(qword, 8) == 12ull * 1024 * 1024 * 1024);
    EXPECT(c, !memorySizeFromRegistryBytes(dword, 3));
    EXPECT(c, !memorySizeFromRegistryBytes(nullptr, 4));
    const unsigned char zero[4] = {};
    EXPECT(c, !memorySizeFromRegistryBytes(zero, 4));
    return c.count;
}

int checkHomeClassification(std::vector<std::string>& failures)
{
    Checker c{failures};

    EXPECT(c, isUncPath("\\\\server\\share\\u"));
    EXPECT(c, isUncPath("\\\\server\\share"));
    EXPECT(c, isUncPath("//server/share/u"));
    EXPECT(c, isUncPath("\\\\?\\UNC\\server\\share\\u"));
    EXPECT(c, !isUncPath("\\\\?\\C:\\Users\\u"));
    EXPECT(c, !isUncPath("\\\\.\\C:"));
    EXPECT(c, !isUncPath("C:\\Users\\u"));
    EXPECT(c, !isUncPath("\\\\server"));
    EXPECT(c, !isUncPath("\\\\server\\"));
    EXPECT(c, !isUncPath(""));

    EXPECT(c, volumeRootOf("C:\\Users\\u") == "C:\\");
    EXPECT(c, volumeRootOf("d:/home") == "D:\\");
    EXPECT(c, volumeRootOf("\\\\srv\\share\\u\\x") == "\\\\srv\\share\\");
    EXPECT(c, volumeRootOf("//srv/share") == "\\\\srv\\share\\");
    EXPECT(c, volumeRootOf("\\\\?\\C:\\Users\\u") == "C:\\");
    EXPECT(c, volumeRootOf("\\\\?\\UNC\\srv\\share\\u") == "\\\\srv\\share\\");
    EXPECT(c, volumeRootOf("Users\\u").empty());
    EXPECT(c, volumeRootOf("").empty());

    const auto local = classifyWindowsHome("C:\\Users\\u", DriveType::Fixed, "NTFS");
    EXPECT(c, local.filesystem == "ntfs" && !local.network && local.path == "C:\\Users\\u");
    EXPECT(c, local.extra["drive_type"] == "fixed");

    const auto unc = classifyWindowsHome("\\\\fs01\\home\\u", DriveType::Remote, "NTFS");
    EXPECT(c, unc.filesystem == "unc" && unc.network);
    EXPECT(c, unc.extra["volume_filesystem"] == "NTFS");
    EXPECT(c, isNetworkFilesystem(unc.filesystem));

    // An unreachable share: no drive type answer, no volume name, still network.
    const auto uncDown = classifyWindowsHome("\\\\fs01\\home\\u", DriveType::NoRootDir, "");
    EXPECT(c, uncDown.filesystem == "unc" && uncDown.network);

    // A mapped drive reports the server's filesystem; it is still the network.
    const auto mapped = classifyWindowsHome("H:\\", DriveType::Remote, "NTFS");
    EXPECT(c, mapped.filesystem == "network" && mapped.network);
    EXPECT(c, isNetworkFilesystem(mapped.filesystem));

    const auto usb = classifyWindowsHome("E:\\u", DriveType::Removable, "exFAT");
    EXPECT(c, usb.filesystem == "exfat" && !usb.network);

    const auto unknown = classifyWindowsHome("", std::nullopt, "");
    EXPECT(c, unknown.filesystem == "unknown" && !unknown.network &&
                  !unknown.extra.contains("drive_type"));
    return c.count;
}

int checkCombine(std::vector<std::string>& failures)
{
    Checker c{failures};
    constexpr std::uint64_t MiB = 1024ull * 1024ull;

    WinAdapter basic; // always present on real Windows
    basic.vendorId = 0x1414;
    basic.deviceId = 0x008c;
    basic.description = "Microsoft Basic Render Driver";
    basic.software = true;
    EXPECT(c, isSoftwareAdapter(basic));
    basic.software = false; // some drivers leave the flag off; the id still says it
    EXPECT(c, isSoftwareAdapter(basic));

    WinAdapter igpu;
    igpu.vendorId = 0x1002;
    igpu.deviceId = 0x164e;
    igpu.revision = 0xc1;
    igpu.dedicatedVideoMemory = 512 * MiB;
    igpu.sharedSystemMemory = 16384 * MiB;
    igpu.description = "AMD Radeon(TM) Graphics";
    igpu.luid = (std::uint64_t{1} << 32) | 0x2345;

    WinAdapter dgpu;
    dgpu.vendorId = 0x1002;
    dgpu.deviceId = 0x73df;
    dgpu.subsysId = 0x24121462;
    dgpu.revision = 0xc0;
    dgpu.dedicatedVideoMemory = 12272 * MiB;
    dgpu.description = "AMD Radeon RX 6750 XT";

    WinDisplayDevice dgpuDev;
    dgpuDev.instanceId = "PCI\\VEN_1002&DEV_73DF&SUBSYS_24121462&REV_C0\\6&1A2B3C4D&0&00000019";
    dgpuDev.hardwareIds = {"PCI\\VEN_1002&DEV_73DF&SUBSYS_24121462&REV_C0",
                           "PCI\\VEN_1002&DEV_73DF&SUBSYS_24121462",
                           "PCI\\VEN_1002&DEV_73DF&CC_030000"};
    dgpuDev.deviceDesc = "AMD Radeon RX 6750 XT";
    dgpuDev.busNumber = 3;
    dgpuDev.address = 0;
    dgpuDev.driverDesc = "AMD Radeon RX 6750 XT";
    dgpuDev.driverVersion = "31.0.24027.1012";
    dgpuDev.memorySize = 12ull * 1024 * MiB;
    dgpuDev.registryRead = true;

    WinDisplayDevice basicDev;
    basicDev.instanceId = "ROOT\\BasicDisplay\\0000";
    basicDev.hardwareIds = {"ROOT\\BasicDisplay"};

    // The iGPU drives the display, so DXGI lists it first; SetupAPI lists the dGPU
    // first and has no iGPU entry at all (say its driver key is missing).
    const auto gpus = combineWindowsGpus({igpu, dgpu, basic}, {dgpuDev, basicDev});
    EXPECT(c, gpus.size() == 2);
    if (gpus.size() == 2) {
        const auto& a = gpus[0];
        EXPECT(c, a.pciId == "1002:164e" && a.vendor == Vendor::Amd);
        EXPECT(c, a.name == "AMD Radeon(TM) Graphics");
        EXPECT(c, a.sources == std::vector<std::string>{"dxgi"});
        EXPECT(c, a.vramMb == 512 && a.pciRevision == "c1" && a.pciBus.empty());
        EXPECT(c, a.extra["luid"] == "00000001:00002345");
        EXPECT(c, a.extra["dxgi_shared_mb"] == 16384);

        const auto& d = gpus[1];
        EXPECT(c, d.pciId == "1002:73df" && d.pciRevision == "c0" && d.pciBus == "0000:03:00.0");
        EXPECT(c, (d.sources == std::vector<std::string>{"setupapi", "registry", "dxgi"}));
        EXPECT(c, d.vramMb == 12288); // the registry's exact size wins over DXGI's 12272
        EXPECT(c, d.driverVersion == std::string("31.0.24027.1012"));
        EXPECT(c, d.extra["subsys"] == "0x24121462" && d.extra["dxgi_dedicated_mb"] == 12272);
        EXPECT(c, !d.gfx && !d.integrated); // the pci table decides those, not us
    }

    // Two identical cards pair up in order; a subsystem mismatch blocks a pairing;
    // a device whose driver failed (code 43, no DXGI adapter) is still reported.
    WinAdapter nv1;
    nv1.vendorId = 0x10de;
    nv1.deviceId = 0x1b81;
    nv1.subsysId = 0x11111111;
    nv1.luid = 1;
    WinAdapter nv2 = nv1;
    nv2.luid = 2;
    WinDisplayDevice nvDev1;
    nvDev1.hardwareIds = {"PCI\\VEN_10DE&DEV_1B81&SUBSYS_11111111&REV_A1"};
    nvDev1.busNumber = 1;
    nvDev1.address = 0;
    WinDisplayDevice nvDev2 = nvDev1;
    nvDev2.busNumber = 2;
    WinDisplayDevice nvOther = nvDev1;
    nvOther.hardwareIds = {"PCI\\VEN_10DE&DEV_1B81&SUBSYS_22222222&REV_A1"};
    nvOther.busNumber = 5;
    nvOther.problemCode = 43;
    nvOther.registryRead = true; // key opened but empty: no "registry" source

    const auto two = combineWindowsGpus({nv1, nv2}, {nvDev1, nvOther, nvDev2});
    EXPECT(c, two.size() == 3);
    if (two.size() == 3) {
        EXPECT(c, two[0].pciBus == "0000:01:00.0" && two[0].extra["luid"] == "00000000:00000001");
        EXPECT(c, two[1].pciBus == "0000:02:00.0" && two[1].extra["luid"] == "00000000:00000002");
        EXPECT(c, two[2].pciBus == "0000:05:00.0" && !two[2].extra.contains("luid"));
        EXPECT(c, two[2].extra["problem_code"] == 43);
        EXPECT(c, two[2].sources == std::vector<std::string>{"setupapi"});
        EXPECT(c, two[0].vendor == Vendor::Nvidia && two[0].pciRevision == "a1");
    }

    // What Wine 8 reports under Xvfb: a SetupAPI "Wine Adapter" with vendor 0000
    // and a DXGI adapter it made up from the GL renderer.
    WinDisplayDevice wineDev;
    wineDev.instanceId = "PCI\\VEN_0000&DEV_0000&SUBSYS_00000000&REV_00\\00000000";
    wineDev.hardwareIds = {"PCI\\VEN_0000&DEV_0000&SUBSYS_00000000&REV_00"};
    wineDev.driverDesc = "Wine Adapter";
    wineDev.registryRead = true;
    WinAdapter wineDxgi;
    wineDxgi.vendorId = 0x10de;
    wineDxgi.deviceId = 0x06cd;
    wineDxgi.description = "NVIDIA GeForce GTX 470";
    wineDxgi.dedicatedVideoMemory = 1024 * MiB;
    WinAdapter zeroVendor;
    EXPECT(c, isSoftwareAdapter(zeroVendor));
    const auto wine = combineWindowsGpus({wineDxgi, zeroVendor}, {wineDev});
    EXPECT(c, wine.size() == 1 && wine[0].pciId == "10de:06cd" && wine[0].vramMb == 1024);

    EXPECT(c, combineWindowsGpus({}, {}).empty());
    EXPECT(c, combineWindowsGpus({basic}, {basicDev}).empty());
    return c.count;
}

} // namespace sp::wintest
