// detectHardware() with probes on: a fake stackpilot-probe (a shell script that
// prints the probe's JSON line) beside a fake sysfs tree, to show that the probe's
// values join the sysfs GPU and outrank the PCI table. Real tools (rocminfo,
// nvidia-smi) may add GPUs of this machine, so checks look up the fake card by bus.
#include "detectors/detect.h"
#include "detectors/fake_sysfs.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>

using namespace sp;
using sp::test::FakeSysfs;

namespace {

const GpuInfo* byBus(const HardwareSnapshot& s, const std::string& bus)
{
    for (const auto& g : s.gpus) {
        if (g.pciBus == bus)
            return &g;
    }
    return nullptr;
}

const ProbeResult* probe(const HardwareSnapshot& s, const std::string& name)
{
    for (const auto& p : s.probes) {
        if (p.name == name)
            return &p;
    }
    return nullptr;
}

std::string writeFakeProbe(const std::filesystem::path& dir)
{
    const auto path = dir / "fake-probe";
    FakeSysfs::write(path, R"SH(#!/bin/sh
case "$1" in
hip) echo '{"status":"ok","detail":"1 device","platform":"linux","runtime_version":"6.2.4","library":"/opt/rocm/lib/libamdhip64.so","devices":[{"name":"AMD Radeon RX 6600 XT (HIP)","gfx_target":"gfx1031:xnack-","pci_bus":"0000:03:00.0","pci_id":"1002:73ff","vram_mb":8000,"compute_units":32}]}' ;;
nvml) sleep 10 ;;
*) echo '{"status":"missing","detail":"no library"}' ;;
esac
)SH");
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path.string();
}

// A fake probe that prints what the real one printed on an H200 (device-h200/).
std::string writeRecordedH200Probe(const std::filesystem::path& dir)
{
    const auto path = dir / "h200-probe";
    const std::string recorded = DEVICE_H200_DIR;
    FakeSysfs::write(path, "#!/bin/sh\ncase \"$1\" in\n"
                           "nvml) cat '" +
                               recorded +
                               "/probe-nvml.json' ;;\n"
                               "cuda) cat '" +
                               recorded +
                               "/probe-cuda.json' ;;\n"
                               "*) echo '{\"status\":\"missing\",\"detail\":\"no library\"}' ;;\n"
                               "esac\n");
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path.string();
}

} // namespace

class TestDetectProbes : public QObject
{
    Q_OBJECT
private slots:
    void probeValuesJoinTheSysfsGpu()
    {
        QTemporaryDir tmp;
        const std::filesystem::path base = tmp.path().toStdString();
        FakeSysfs fs(base / "sys");
        // DRM only (no KFD): the table alone would call 73ff rev c1 gfx1032.
        FakeSysfs::Card c;
        c.device = "0x73ff";
        c.revision = "0xc1";
        c.vramBytes = std::to_string(8176ull << 20);
        c.gttBytes = std::to_string(16ull << 30);
        fs.addCard(c);

        DetectOptions o;
        o.sysfsRoot = fs.root().string();
        o.probeExecutable = writeFakeProbe(base);
        o.probeTimeoutMs = 1500;
        const auto snap = detectHardware(o);

        const auto* g = byBus(snap, "0000:03:00.0");
        const std::string dump = toJson(snap).dump(1);
        QVERIFY2(g && g->gfx, dump.c_str());
        QVERIFY2(*g->gfx == "gfx1031", dump.c_str());
        QCOMPARE(*g->gfx, std::string("gfx1031"));                     // the probe beats the table
        QCOMPARE(g->name, std::string("AMD Radeon RX 6600 XT (HIP)")); // the probe fills the gap
        QCOMPARE(*g->vramMb, std::int64_t(8176));                      // sysfs listed first, kept
        QCOMPARE(*g->computeUnits, 32);
        QCOMPARE(*g->integrated, false); // from the table
        QVERIFY((g->sources == std::vector<std::string>{"drm", "hip", "pci-table"}));
        int matches = 0;
        for (const auto& x : snap.gpus)
            matches += x.pciBus == "0000:03:00.0" ? 1 : 0;
        QCOMPARE(matches, 1);

        QVERIFY(probe(snap, "hip") && probe(snap, "hip")->status == ProbeStatus::Ok);
        QVERIFY(probe(snap, "cuda") && probe(snap, "cuda")->status == ProbeStatus::Missing);
        // --probe-timeout reaches the runner: the hanging probe costs one line.
        QVERIFY(probe(snap, "nvml") && probe(snap, "nvml")->status == ProbeStatus::Timeout);
        QVERIFY(probe(snap, "rocminfo") && probe(snap, "kfd-access"));
        bool rocm = false;
        for (const auto& r : snap.runtimes)
            rocm = rocm || (r.kind == "rocm" && r.version == "6.2.4");
        QVERIFY(rocm);
    }

    // On the lent H200 (2026-11-28) detect listed the one GPU twice: NVML's and CUDA's
    // devices came in one list, which the merge keeps apart. The machine had no DRM card
    // for it either (no nvidia-drm), so sysfs saw nothing; the PCI folder names it now.
    void recordedH200IsOneGpu()
    {
        QTemporaryDir tmp;
        const std::filesystem::path base = tmp.path().toStdString();
        FakeSysfs fs(base / "sys");
        FakeSysfs::Card c;
        c.bus = "0000:00:06.0";
        c.vendor = "0x10de";
        c.device = "0x2335";
        c.revision = "0xa1";
        fs.addPciDevice(c, "0x030200", "nvidia");

        DetectOptions o;
        o.sysfsRoot = fs.root().string();
        o.probeExecutable = writeRecordedH200Probe(base);
        const auto snap = detectHardware(o);
        const std::string dump = toJson(snap).dump(1);
        int nvidia = 0;
        for (const auto& g : snap.gpus)
            nvidia += g.vendor == Vendor::Nvidia ? 1 : 0;
        QVERIFY2(nvidia == 1, dump.c_str());
        const auto* g = byBus(snap, "0000:00:06.0");
        QVERIFY2(g, dump.c_str());
        QCOMPARE(g->name, std::string("NVIDIA H200"));
        QCOMPARE(g->pciId, std::string("10de:2335"));
        QCOMPARE(g->pciRevision, std::string("a1"));
        QCOMPARE(g->computeCapability.value_or(""), std::string("9.0"));
        QCOMPARE(g->vramMb.value_or(0), std::int64_t(143771)); // NVML's total, as nvidia-smi
        QCOMPARE(g->driverVersion.value_or(""), std::string("580.159.04")); // not CUDA's 13.0
        QCOMPARE(g->integrated.value_or(true), false);
        QVERIFY((g->sources == std::vector<std::string>{"pci", "nvml", "cuda"}));
        QCOMPARE(g->indices.at("nvml"), 0);
        bool cudaDriver = false;
        for (const auto& r : snap.runtimes)
            cudaDriver = cudaDriver || (r.kind == "cuda-driver" && r.version == "13.0");
        QVERIFY(cudaDriver);
    }
};

QTEST_GUILESS_MAIN(TestDetectProbes)
#include "test_detect_probes.moc"
