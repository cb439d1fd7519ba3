// Merging GPU lists from several sources into one entry per physical GPU.
#include "detectors/merge.h"
#include "detectors/parsers/parsed_probe.h"
#include "detectors/pci_table.h"

#include <QTest>

using namespace sp;

namespace {

GpuInfo gpu(Vendor v, std::string id, std::string bus, std::vector<std::string> sources)
{
    GpuInfo g;
    g.vendor = v;
    g.pciId = std::move(id);
    g.pciBus = std::move(bus);
    g.sources = std::move(sources);
    return g;
}

} // namespace

class TestGpuMerge : public QObject
{
    Q_OBJECT
private slots:
    void busNormalises()
    {
        QCOMPARE(normalizePciBus("0000:03:00.0"), std::string("0000:03:00.0"));
        QCOMPARE(normalizePciBus("00000000:03:00.0"), std::string("0000:03:00.0")); // nvidia-smi
        QCOMPARE(normalizePciBus("03:00.0"), std::string("0000:03:00.0"));
        QCOMPARE(normalizePciBus("0000:C5:00.0"), std::string("0000:c5:00.0"));
        QCOMPARE(normalizePciBus("0:3:0.0"), std::string("0000:03:00.0"));
        QCOMPARE(normalizePciBus(""), std::string());
        QCOMPARE(normalizePciBus("garbage"), std::string());
        QCOMPARE(normalizePciBus("0000:03:20.0"), std::string()); // device > 0x1f
        QCOMPARE(normalizePciBus("0000:03:00.8"), std::string());
    }

    void sameBusIsOneGpuWithTheUnionOfSources()
    {
        auto sys = gpu(Vendor::Amd, "1002:73df", "0000:03:00.0", {"kfd", "drm"});
        sys.vramMb = 12288;
        auto hip = gpu(Vendor::Amd, "1002:73DF", "03:00.0", {"hip"});
        hip.name = "AMD Radeon RX 6750 XT";
        hip.vramMb = 12272;
        hip.computeUnits = 40;
        const auto out = mergeGpuLists({{sys}, {hip}});
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(out[0].name, std::string("AMD Radeon RX 6750 XT")); // gap filled
        QCOMPARE(*out[0].vramMb, std::int64_t(12288));               // earlier equal rank kept
        QCOMPARE(*out[0].computeUnits, 40);
        QVERIFY((out[0].sources == std::vector<std::string>{"kfd", "drm", "hip"}));
    }

    void toolParseNeverOverwritesSysfs()
    {
        auto sys = gpu(Vendor::Amd, "1002:73df", "0000:03:00.0", {"kfd", "drm"});
        sys.gfx = "gfx1031";
        sys.vramMb = 12288;
        auto tool = gpu(Vendor::Amd, "1002:73df", "0000:03:00.0", {"rocminfo"});
        tool.gfx = "gfx1030";
        tool.vramMb = 11000;
        tool.name = "gfx1031-from-tool";
        // In either order the driver's values stay.
        for (const auto& out : {mergeGpuLists({{sys}, {tool}}), mergeGpuLists({{tool}, {sys}})}) {
            QCOMPARE(out.size(), std::size_t(1));
            QCOMPARE(*out[0].gfx, std::string("gfx1031"));
            QCOMPARE(*out[0].vramMb, std::int64_t(12288));
            QCOMPARE(out[0].name, std::string("gfx1031-from-tool"));
        }
    }

    void probeGfxBeatsTheTable()
    {
        // A DRM-only card (no KFD): the table would say gfx1032 for 73ff rev c1.
        auto drm = gpu(Vendor::Amd, "1002:73ff", "0000:03:00.0", {"drm"});
        drm.pciRevision = "c1";
        auto hip = gpu(Vendor::Amd, "", "0000:03:00.0", {"hip"});
        hip.gfx = "gfx1031";
        auto out = mergeGpuLists({{drm}, {hip}});
        completeFromTable(out, PciTable::shipped());
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(*out[0].gfx, std::string("gfx1031"));
        QCOMPARE(out[0].name,
                 std::string("AMD Radeon RX 6600 XT")); // the table still fills the name
        QVERIFY((out[0].sources == std::vector<std::string>{"drm", "hip", "pci-table"}));

        // Without the probe the table's guess is used.
        auto alone = mergeGpuLists({{drm}});
        completeFromTable(alone, PciTable::shipped());
        QCOMPARE(*alone[0].gfx, std::string("gfx1032"));
        QCOMPARE(*alone[0].integrated, false);
    }

    void sameIdsPairInOrderAndDistinctBusesStaySeparate()
    {
        auto a = gpu(Vendor::Amd, "1002:73df", "0000:03:00.0", {"drm"});
        auto b = gpu(Vendor::Amd, "1002:73df", "0000:04:00.0", {"drm"});
        auto ta = gpu(Vendor::Amd, "1002:73df", "", {"rocminfo"});
        ta.computeUnits = 40;
        auto tb = gpu(Vendor::Amd, "1002:73df", "", {"rocminfo"});
        tb.computeUnits = 30;
        const auto out = mergeGpuLists({{a, b}, {ta, tb}});
        QCOMPARE(out.size(), std::size_t(2));
        QCOMPARE(*out[0].computeUnits, 40);
        QCOMPARE(*out[1].computeUnits, 30);

        auto c = gpu(Vendor::Amd, "1002:73df", "0000:05:00.0", {"hip"});
        QCOMPARE(mergeGpuLists({{a, b}, {c}}).size(), std::size_t(3));
    }

    void entriesWithoutIdsMatchByVendorAndGfx()
    {
        auto sys1 = gpu(Vendor::Amd, "1002:1638", "0000:07:00.0", {"kfd", "drm"});
        sys1.gfx = "gfx90c";
        auto sys2 = gpu(Vendor::Amd, "1002:73df", "0000:03:00.0", {"kfd", "drm"});
        sys2.gfx = "gfx1031";
        GpuInfo tool;
        tool.vendor = Vendor::Amd;
        tool.gfx = "gfx1031";
        tool.name = "AMD Radeon RX 6700 XT";
        tool.sources = {"hipinfo"};
        const auto out = mergeGpuLists({{sys1, sys2}, {tool}});
        QCOMPARE(out.size(), std::size_t(2));
        QCOMPARE(out[1].name, std::string("AMD Radeon RX 6700 XT"));
        QVERIFY(out[0].name.empty());
    }

    void nvidiaFromSeveralSources()
    {
        auto drm = gpu(Vendor::Nvidia, "10de:1c03", "0000:01:00.0", {"drm"});
        auto nvml = gpu(Vendor::Nvidia, "10de:1c03", "00000000:01:00.0", {"nvml"});
        nvml.name = "NVIDIA GeForce GTX 1060 6GB";
        nvml.computeCapability = "6.1";
        nvml.vramMb = 6144;
        auto smi = gpu(Vendor::Nvidia, "", "00000000:01:00.0", {"nvidia-smi"});
        smi.computeCapability = "6.0";
        smi.driverVersion = "550.54";
        auto out = mergeGpuLists({{drm}, {nvml}, {smi}});
        completeFromTable(out, PciTable::shipped());
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(*out[0].computeCapability, std::string("6.1"));
        QCOMPARE(*out[0].driverVersion, std::string("550.54"));
        QCOMPARE(out[0].name, std::string("NVIDIA GeForce GTX 1060 6GB"));
        QVERIFY(!out[0].integrated); // no GTT figure: no guess
    }

    void integratedHeuristicAndFallbackName()
    {
        auto unknown = gpu(Vendor::Amd, "1002:ffff", "0000:09:00.0", {"drm"});
        unknown.vramMb = 512;
        unknown.gttMb = 16384;
        auto big = gpu(Vendor::Amd, "1002:fffe", "0000:0a:00.0", {"drm"});
        big.vramMb = 16384;
        big.gttMb = 32768;
        auto out = mergeGpuLists({{unknown, big}});
        completeFromTable(out, PciTable::shipped());
        QCOMPARE(*out[0].integrated, true);
        QCOMPARE(*out[1].integrated, false);
        QCOMPARE(out[0].name, std::string("AMD GPU 1002:ffff"));
        QVERIFY((out[0].sources == std::vector<std::string>{"drm"})); // the table had nothing
    }

    void atMostKMaxParsedGpusComeOut()
    {
        // 200 GPUs at distinct addresses in each of three lists: the first 64 are kept, the
        // later lists' entries for them still merge in, the rest is dropped.
        std::vector<std::vector<GpuInfo>> lists(3);
        for (int i = 0; i < 200; ++i) {
            const std::string bus = "0000:" + hex(std::uint64_t(i), 2) + ":00.0";
            lists[0].push_back(gpu(Vendor::Amd, "1002:73df", bus, {"drm"}));
            lists[1].push_back(gpu(Vendor::Amd, "", bus, {"hip"}));
            auto tool = gpu(Vendor::Amd, "", bus, {"rocminfo"});
            tool.computeUnits = i;
            lists[2].push_back(tool);
        }
        const auto out = mergeGpuLists(lists);
        QCOMPARE(out.size(), kMaxParsedGpus);
        for (std::size_t i = 0; i < out.size(); ++i) {
            QCOMPARE(out[i].pciBus, "0000:" + hex(i, 2) + ":00.0");
            QCOMPARE(*out[i].computeUnits, int(i));
            QVERIFY((out[i].sources == std::vector<std::string>{"drm", "hip", "rocminfo"}));
        }
    }

    void ranks()
    {
        QVERIFY(sourceRank("hip") > sourceRank("rocminfo"));
        QVERIFY(sourceRank("rocminfo") > sourceRank("pci-table"));
        QCOMPARE(sourceRank("kfd"), sourceRank("nvml"));
    }
};

QTEST_GUILESS_MAIN(TestGpuMerge)
#include "test_gpu_merge.moc"
