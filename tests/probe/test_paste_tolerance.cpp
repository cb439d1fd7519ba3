// The shared parsers on tool output as users paste it: partial, grepped, quoted, fenced,
// timestamped, interleaved. Real pastes are in tests/import/corpus; these pin each rule.

#include "detectors/parsers/kfd_properties.h"
#include "detectors/parsers/tool_parsers.h"

#include <QtTest>

using namespace sp;
using namespace sp::parse_util;

namespace {

std::vector<std::string> gfxOf(const ParsedProbe& p)
{
    std::vector<std::string> out;
    for (const auto& g : p.gpus)
        out.push_back(g.gfx.value_or("-"));
    return out;
}

} // namespace

class TestPasteTolerance : public QObject
{
    Q_OBJECT

private slots:
    void cleanLineRemovesWhatPastingAdds()
    {
        QCOMPARE(cleanLine("> > ```bash"), std::string_view());
        QCOMPARE(cleanLine("```*******"), std::string_view("*******"));
        QCOMPARE(cleanLine(">   Name:   gfx1031\r"), std::string_view("  Name:   gfx1031"));
        QCOMPARE(cleanLine("  Name: gfx1031```"), std::string_view("  Name: gfx1031"));
        QCOMPARE(cleanLine("[06/23/2021-13:23:23] [I] Selected Device"),
                 std::string_view("[I] Selected Device"));
        QCOMPARE(cleanLine("17:36:06-588150 INFO     Device: n=1"),
                 std::string_view("INFO     Device: n=1"));
        QCOMPARE(cleanLine("2024-05-01T11:05:13.123+03:00 msg"), std::string_view("msg"));
        // Tool output itself is left alone.
        for (std::string_view raw : {"0000:03:00.0 VGA compatible controller", "03:00.0 VGA",
                                     "  Node:                    1", "|   0  TITAN Xp   On   |",
                                     ":3:rocdevice.cpp :465 : 159550074485 us: x"})
            QCOMPARE(cleanLine(raw), raw);
    }

    void helpers()
    {
        QCOMPARE(deviceIdFromPlaceholder("[AMD/ATI] Device 73df (rev c1)").value_or(0), 0x73df);
        QCOMPARE(deviceIdFromPlaceholder("Device 687f").value_or(0), 0x687f);
        QVERIFY(!deviceIdFromPlaceholder("Device 73dfe"));
        QVERIFY(!deviceIdFromPlaceholder("Radeon RX Vega"));
        QCOMPARE(gfxFromVersion(10, 3, 1), std::string("gfx1031"));
        QCOMPARE(gfxFromVersion(9, 0, 12), std::string("gfx90c"));
        QVERIFY(gfxFromVersion(9, 16, 0).empty());
        QCOMPARE(busFromNvidia("00000001:01:00.0"), std::string("0001:01:00.0"));
        QVERIFY(busFromNvidia("03F8F31A:00:00.0").empty()); // wider than 16 bits
        QCOMPARE(hexNumber("1002h").value_or(0), 0x1002u);
    }

    // The issue's own example: a truncated rocminfo with no "Device Type" line.
    void rocminfoCutBeforeDeviceType()
    {
        const auto p =
            parseRocminfo("*******\nAgent 2\n*******\n  Name:                    gfx1031\n"
                          "  Uuid:                    GPU-XX\n"
                          "  Marketing Name:          AMD Radeon RX 6700 XT\n",
                          0);
        QVERIFY(p.probe.status == ProbeStatus::Ok);
        QCOMPARE(gfxOf(p), std::vector<std::string>{"gfx1031"});
        QCOMPARE(p.gpus[0].name, std::string("AMD Radeon RX 6700 XT"));
    }

    void rocminfoGrepNamesEachAgent()
    {
        const auto p = parseRocminfo("  Name:   AMD Ryzen 9 7950X 16-Core Processor\n"
                                     "  Marketing Name:   AMD Ryzen 9 7950X 16-Core Processor\n"
                                     "  Name:   gfx1100\n  Marketing Name:   Radeon RX 7900 XTX\n"
                                     "      Name:   amdgcn-amd-amdhsa--gfx1100\n"
                                     "  Name:   gfx1036\n  Marketing Name:   AMD Radeon Graphics\n"
                                     "      Name:   amdgcn-amd-amdhsa--gfx1036\n"
                                     "  Name:   aie2p\n  Marketing Name:   RyzenAI-npu5\n",
                                     0);
        QCOMPARE(gfxOf(p), (std::vector<std::string>{"gfx1100", "gfx1036"}));
        QCOMPARE(p.gpus[0].name, std::string("Radeon RX 7900 XTX"));
    }

    void rocminfoWindowWithOnlyAChipIdOrAnIsa()
    {
        const auto chip = parseRocminfo("  Device Type:  GPU\n  Chip ID:  30032(0x7550)\n", 0);
        QCOMPARE(chip.gpus.size(), std::size_t(1));
        QCOMPARE(chip.gpus[0].pciId, std::string("1002:7550")); // the table gives the gfx
        QVERIFY(!chip.gpus[0].gfx);
        const auto isa = parseRocminfo("  ISA Info:\n    ISA 1\n"
                                       "      Name:   amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-\n",
                                       0);
        QCOMPARE(gfxOf(isa), std::vector<std::string>{"gfx90a"});
        // A CPU agent cut before its Device Type is no GPU (Chip ID 0).
        QVERIFY(parseRocminfo("  Name:  AMD Ryzen 5\n  Chip ID:  0(0x0)\n", 0).gpus.empty());
    }

    void hipinfoGrepAndTraces()
    {
        const auto grep = parseHipinfo("gcnArchName:                      gfx1032\n"
                                       "gcnArchName:                      gfx1035\n",
                                       0);
        QCOMPARE(gfxOf(grep), (std::vector<std::string>{"gfx1032", "gfx1035"}));
        // AMD_LOG_LEVEL trace lines interleaved with a device cut before its arch line.
        const auto traced = parseHipinfo(
            ":3:rocdevice.cpp :1809: 1 us: [pid:1 tid:0x1] Gfx Major/Minor/Stepping: 10/3/1\n"
            "device#    0\nName:   AMD Radeon RX 6700 XT\npciBusID:   3\n"
            "pciDeviceID:   0\n",
            0);
        QCOMPARE(gfxOf(traced), std::vector<std::string>{"gfx1031"});
        QCOMPARE(traced.gpus[0].pciBus, std::string("0000:03:00.0"));
        QCOMPARE(traced.gpus[0].sources, (std::vector<std::string>{"hipinfo", "amd-log"}));
        const auto own =
            parseHipinfo("device#  0\nName:  AMD Radeon RX 6700 XT\ngcnArchName:  gfx1031\n", 0);
        QCOMPARE(own.gpus[0].sources, std::vector<std::string>{"hipinfo"}); // no log used
        const auto logOnly =
            parseHipinfo(":3:rocdevice.cpp :1785: 1 us: Gfx Major/Minor/Stepping: 9/4/2\n", 0);
        QCOMPARE(gfxOf(logOnly), std::vector<std::string>{"gfx942"});
        QCOMPARE(logOnly.gpus[0].sources, std::vector<std::string>{"amd-log"});
        // A "Name:" that no hipInfo key follows is nobody's device.
        QVERIFY(parseHipinfo("Name: my build\n", 0).gpus.empty());
    }

    void nvidiaSmiCsvHeaderAndShapes()
    {
        const auto header = parseNvidiaSmiCsv("compute_cap, name, pci.bus_id\n"
                                              "8.9, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n",
                                              0);
        QCOMPARE(header.gpus.size(), std::size_t(1));
        QCOMPARE(header.gpus[0].computeCapability.value_or(""), std::string("8.9"));
        QCOMPARE(header.gpus[0].pciBus, std::string("0000:01:00.0"));
        const auto ccOnly = parseNvidiaSmiCsv("compute_cap\n8.6\n", 0);
        QCOMPARE(ccOnly.gpus.size(), std::size_t(1));
        const auto shapes =
            parseNvidiaSmiCsv("Quadro RTX 6000, 24576 MiB, 570.211.01, 0x1E3010DE\n", 0);
        QCOMPARE(shapes.gpus.size(), std::size_t(1));
        QCOMPARE(shapes.gpus[0].pciId, std::string("10de:1e30"));
        QCOMPARE(shapes.gpus[0].vramMb.value_or(0), std::int64_t(24576));
        // Prose with commas and a product name is no row.
        QVERIFY(
            parseNvidiaSmiCsv("If you want to use the NVIDIA GeForce RTX 5090 GPU with PyTorch, "
                              "please check\n",
                              0)
                .gpus.empty());
        QVERIFY(parseNvidiaSmiCsv("driver 535.54, cuda 12.2\n", 0).gpus.empty());
    }

    void nvidiaSmiTableQueryAndList()
    {
        const auto table = parseNvidiaSmiTable("| NVIDIA-SMI 531.14                 Driver "
                                               "Version: 531.14       CUDA Version: 12.1     |\n"
                                               "|   0  NVIDIA GeForce ...            WDDM | "
                                               "00000000:09:00.0  On |                  N/A |\n"
                                               "| 37%   63C    P0               65W / 250W|   "
                                               "1585MiB / 11264MiB |      1%      Default |\n");
        QCOMPARE(table.gpus.size(), std::size_t(1));
        QCOMPARE(table.gpus[0].name, std::string("NVIDIA GeForce"));
        QVERIFY(table.gpus[0].extra.value("name_truncated", false));
        QCOMPARE(table.gpus[0].vramMb.value_or(0), std::int64_t(11264));
        QCOMPARE(table.gpus[0].driverVersion.value_or(""), std::string("531.14"));
        QCOMPARE(table.runtimes.size(), std::size_t(1));
        QCOMPARE(table.runtimes[0].version, std::string("12.1"));

        const auto q = parseNvidiaSmiQuery(
            "GPU 00000000:01:00.0\n    Product Name   : NVIDIA GeForce RTX 3090\n"
            "    PCI\n        Device Id   : 0x220410DE\n"
            "    FB Memory Usage\n        Total   : 24576 MiB\n"
            "GPU 00000000:02:00.0\n    Product Name   : Tesla T4\n");
        QCOMPARE(q.gpus.size(), std::size_t(2));
        QCOMPARE(q.gpus[0].pciId, std::string("10de:2204"));
        QCOMPARE(q.gpus[0].vramMb.value_or(0), std::int64_t(24576));
        QCOMPARE(q.gpus[1].pciBus, std::string("0000:02:00.0"));
        QVERIFY(
            parseNvidiaSmiQuery("GPU Virtualization Mode\nGPU Part Number : 900-1\n").gpus.empty());

        const auto list =
            parseNvidiaSmiList("GPU 0: NVIDIA TITAN V (UUID: GPU-b5169cef)\nGPU 1: junk\n");
        QCOMPARE(list.gpus.size(), std::size_t(1));
        QCOMPARE(list.gpus[0].name, std::string("NVIDIA TITAN V"));
    }

    void lspciForms()
    {
        const auto p = parseLspci(
            "01:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 [GeForce RTX 3090] "
            "[10de:2204] (rev a1)\n"
            "01:00.1 Audio device [0403]: NVIDIA Corporation GA102 High Definition Audio "
            "Controller "
            "[10de:1aef] (rev a1)\n"
            "0004:01:00.0 VGA compatible controller: NVIDIA Corporation Device 25b2 (rev a1)\n"
            "03:00.0 Display controller: Advanced Micro Devices, Inc. [AMD/ATI] Device 73df (rev "
            "c1)\n"
            "0000:02:00.0 3D controller [0302]: NVIDIA Corporation GB203M [GeForce RTX 5090 Max-Q "
            "/ "
            "Mobile] [10de:2c18\n"
            "NVIDIA GeForce RTX 4090  PCI\\VEN_10DE&DEV_2684&SUBSYS_889A1043&REV_A1\\4&1D81\n");
        QCOMPARE(p.gpus.size(), std::size_t(5)); // the audio function is no GPU
        QCOMPARE(p.gpus[0].pciId, std::string("10de:2204"));
        QCOMPARE(p.gpus[0].name, std::string("GeForce RTX 3090"));
        QCOMPARE(p.gpus[1].pciId, std::string("10de:25b2"));
        QCOMPARE(p.gpus[1].pciBus, std::string("0004:01:00.0"));
        QCOMPARE(p.gpus[2].pciId, std::string("1002:73df"));
        QCOMPARE(p.gpus[2].pciRevision, std::string("c1"));
        QCOMPARE(p.gpus[3].pciId, std::string("10de:2c18")); // the id wrapped onto the next line
        QCOMPARE(p.gpus[4].pciId, std::string("10de:2684"));
        QCOMPARE(p.gpus[4].name, std::string("NVIDIA GeForce RTX 4090"));
        QCOMPARE(p.gpus[4].pciRevision, std::string("a1"));
    }

    void windowsPnpRows()
    {
        // `Get-PnpDevice -PresentOnly | Where-Object InstanceId -match 'VEN_10DE'`: the GPU,
        // its audio function (on PCI and on the HD Audio bus), and another NVIDIA device.
        const auto p = parseLspci(
            "Status     Class           FriendlyName                            InstanceId\n"
            "------     -----           ------------                            ----------\n"
            "OK         Display         NVIDIA GeForce RTX 4090                 "
            "PCI\\VEN_10DE&DEV_2684&SUBSYS_889A1043&REV_A1\\4&1D81A2B&0&0008\n"
            "OK         MEDIA           NVIDIA High Definition Audio            "
            "HDAUDIO\\FUNC_01&VEN_10DE&DEV_0098&SUBSYS_1043889A&REV_1001\\5&2B1F&0&0001\n"
            "OK         MEDIA           High Definition Audio Controller        "
            "PCI\\VEN_10DE&DEV_22BA&SUBSYS_889A1043&REV_A1\\4&1D81A2B&0&0108\n"
            "OK         USB             NVIDIA USB 3.10 eXtensible Host Contr... "
            "PCI\\VEN_10DE&DEV_1AD8&SUBSYS_889A1043&REV_A1\\4&1D81A2B&0&0208\n"
            "Unknown    Display         NVIDIA GeForce GTX 1080                 "
            "PCI\\VEN_10DE&DEV_1B80&SUBSYS_85AA1043&REV_A1\\4&3A&0&0009\n"
            "NVIDIA High Definition Audio  PCI\\VEN_10DE&DEV_22BA&SUBSYS_889A1043&REV_A1\n"
            "ACPI\\VEN_10DE&DEV_2684\n");
        QCOMPARE(p.gpus.size(), std::size_t(2));
        QCOMPARE(p.gpus[0].pciId, std::string("10de:2684"));
        QCOMPARE(p.gpus[0].name, std::string("NVIDIA GeForce RTX 4090"));
        QCOMPARE(p.gpus[0].pciRevision, std::string("a1"));
        QCOMPARE(p.gpus[1].pciId, std::string("10de:1b80"));
        QCOMPARE(p.gpus[1].name, std::string("NVIDIA GeForce GTX 1080"));
        // An id in prose is still read, up to where it ends.
        const auto prose = parseLspci("`PCI\\VEN_1002&DEV_73DF` -> vendor 1002\n");
        QCOMPARE(prose.gpus.size(), std::size_t(1));
        QCOMPARE(prose.gpus[0].pciId, std::string("1002:73df"));
        QVERIFY(prose.gpus[0].name.empty());
    }

    void overlongLinesReadAsBlank()
    {
        // No tool prints a line of 64 KiB: cleanLines gives it blank, so no parser works on it.
        const std::string longLine(kMaxLineBytes + 1, '[');
        const std::string text = "a\n" + longLine + "\r\nb";
        const auto lines = cleanLines(text);
        QCOMPARE(lines.size(), std::size_t(3));
        QCOMPARE(lines[0], std::string_view("a"));
        QVERIFY(lines[1].empty());
        QCOMPARE(lines[2], std::string_view("b"));
        const std::string gpu = "01:00.0 VGA compatible controller: NVIDIA Corporation GA102 "
                                "[GeForce RTX 3090] [10de:2204]";
        QVERIFY(parseLspci(gpu + std::string(kMaxLineBytes, ' ') + "\n").gpus.empty());
        // Up to the bound a line is read; the name is the last bracket that is one.
        const auto p =
            parseLspci(gpu + " [" + std::string(kMaxLineBytes - gpu.size() - 2, '[') +
                       "\n01:00.0 VGA compatible controller: NVIDIA Corporation [[ GA102 "
                       "[GeForce RTX 3080] [AMD] [10de:2206]\n");
        QCOMPARE(p.gpus.size(), std::size_t(2));
        QCOMPARE(p.gpus[0].name, std::string("GeForce RTX 3090"));
        QCOMPARE(p.gpus[1].name, std::string("GeForce RTX 3080"));
    }

    void clinfoBothLayouts()
    {
        const auto rocm = parseClinfo("  Device Type:\t\t\t\t\t CL_DEVICE_TYPE_GPU\n"
                                      "  Vendor ID:\t\t\t\t\t 1002h\n"
                                      "  Board name:\t\t\t\t\t AMD Radeon RX 6800 XT\n"
                                      "  Device Topology:\t\t\t\t PCI[ B#3, D#0, F#0 ]\n"
                                      "  Name:\t\t\t\t\t\t gfx1030\n"
                                      "  Device Type:\t\t\t\t\t CL_DEVICE_TYPE_CPU\n"
                                      "  Name:\t\t\t\t\t\t AMD Ryzen 9\n");
        QCOMPARE(gfxOf(rocm), std::vector<std::string>{"gfx1030"});
        QCOMPARE(rocm.gpus[0].pciBus, std::string("0000:03:00.0"));
        const auto khronos =
            parseClinfo("  Device Name                                     gfx90a:sramecc+:xnack-\n"
                        "  Device Type                                     GPU\n"
                        "  Device PCI-e ID (AMD)                           0x740c\n"
                        "  Device Name                                     GeForce RTX 2080 Ti\n"
                        "  Device Vendor ID                                0x10de\n"
                        "  Device Type                                     GPU\n"
                        "  Compute Capability (NV)                         7.5\n");
        QCOMPARE(khronos.gpus.size(), std::size_t(2));
        QCOMPARE(khronos.gpus[0].gfx.value_or(""), std::string("gfx90a"));
        QCOMPARE(khronos.gpus[0].pciId, std::string("1002:740c"));
        QCOMPARE(khronos.gpus[1].computeCapability.value_or(""), std::string("7.5"));
        // Only "d.d" or "dd.d" is a compute capability.
        for (const char* cc : {"x.y", "1.2.3", "12.34", ".5", "7.", "7.5 (sm_75)"}) {
            const auto odd = parseClinfo(std::string("  Device Name    GeForce RTX 2080 Ti\n"
                                                     "  Device Vendor ID    0x10de\n"
                                                     "  Device Type    GPU\n"
                                                     "  Compute Capability (NV)    ") +
                                         cc + "\n");
            QCOMPARE(odd.gpus.size(), std::size_t(1));
            QVERIFY2(!odd.gpus[0].computeCapability, cc);
        }
    }

    void kfdNodesFromPastes()
    {
        // `grep gfx_target_version .../nodes/*/properties`: the CPU node, then the GPU.
        auto p = parseKfdText("gfx_target_version 0\ngfx_target_version 100300\n");
        QCOMPARE(gfxOf(p), std::vector<std::string>{"gfx1030"});
        p = parseKfdText(
            "/sys/class/kfd/kfd/topology/nodes/1/properties:gfx_target_version 110001\n"
            "/sys/class/kfd/kfd/topology/nodes/1/properties:device_id 29822\n"
            "/sys/class/kfd/kfd/topology/nodes/2/properties:gfx_target_version 110003\n");
        QCOMPARE(gfxOf(p), (std::vector<std::string>{"gfx1101", "gfx1103"}));
        QCOMPARE(p.gpus[0].pciId, std::string("1002:747e"));
        // rocprofv3-avail dumps print the node with " : ".
        p = parseKfdText("GPU:0\n\nsimd_count   : 240\ngfx_target_version   : 90006\n"
                         "name   : gfx906\nnode_id   : 1\n");
        QCOMPARE(gfxOf(p), std::vector<std::string>{"gfx906"});
        QCOMPARE(p.gpus[0].kfdNode.value_or(-1), 1);
        QCOMPARE(p.gpus[0].sources, std::vector<std::string>{"rocprofv3-avail"});
        // Prose around a grep is ignored; a wrong target named in it is not read.
        p = parseKfdText(
            "it reports `detected_gfx_target: gfx943`; the card is gfx942\n"
            "$ grep gfx_target_version /sys/class/kfd/kfd/topology/nodes/4/properties\n"
            "gfx_target_version 90402\n");
        QCOMPARE(gfxOf(p), std::vector<std::string>{"gfx942"});
    }
};

QTEST_GUILESS_MAIN(TestPasteTolerance)
#include "test_paste_tolerance.moc"
