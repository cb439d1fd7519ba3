// The Linux sysfs detector on fake /sys trees, through detectHardware() and through
// the CLI binary (`detect --sysfs-root DIR --no-probes --json`).
#include "detectors/detect.h"
#include "detectors/fake_sysfs.h"
#include "detectors/linux/sysfs_gpus.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <random>

using namespace sp;
using nlohmann::json;
using sp::test::FakeSysfs;

namespace {

constexpr std::uint64_t GiB = 1024ull * 1024 * 1024;
constexpr std::uint64_t MiB = 1024ull * 1024;

std::string bytes(std::uint64_t n)
{
    return std::to_string(n);
}

const char* kCli = STACKPILOT_BINARY_DIR "/bin/stackpilot-cli";

struct CliResult
{
    int rc = -1;
    std::string out;
    std::string err;
};

CliResult runCli(const QStringList& args)
{
    QProcess p;
    p.start(QString::fromUtf8(kCli), args);
    if (!p.waitForFinished(30000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

HardwareSnapshot detectIn(const std::filesystem::path& root)
{
    DetectOptions o;
    o.sysfsRoot = root.string();
    o.probes = false;
    return detectHardware(o);
}

const GpuInfo* byPciId(const HardwareSnapshot& s, const std::string& id)
{
    for (const auto& g : s.gpus) {
        if (g.pciId == id)
            return &g;
    }
    return nullptr;
}

bool hasSource(const GpuInfo& g, const char* s)
{
    return std::find(g.sources.begin(), g.sources.end(), s) != g.sources.end();
}

// RX 6750 XT: 1002:73df rev c0 (the table says gfx1031, "AMD Radeon RX 6750 XT").
void buildRx6750(FakeSysfs& fs)
{
    FakeSysfs::Card c;
    c.vramBytes = bytes(12 * GiB);
    c.gttBytes = bytes(16 * GiB);
    c.uniqueId = "1a2b3c4d5e6f7081";
    fs.addCard(c);
    fs.addCpuNode(0);
    fs.addGpuNode(1, 100301, 0x73df, 0x300, 80, std::to_string(0x1a2b3c4d5e6f7081ull));
    fs.setAmdgpuVersion("6.8.5\n");
}

// A laptop whose only GPU is the Radeon 780M (1002:15bf, gfx1103) with a small carve-out.
void build780m(FakeSysfs& fs)
{
    FakeSysfs::Card c;
    c.bus = "0000:c5:00.0";
    c.device = "0x15bf";
    c.revision = "0xc1";
    c.vramBytes = bytes(512 * MiB);
    c.gttBytes = bytes(16 * GiB);
    fs.addCard(c);
    fs.addCpuNode(0);
    fs.addGpuNode(1, 110003, 0x15bf, 0xc500, 24);
}

// A Cezanne APU (1002:1638, gfx90c) beside an RX 6700 XT (1002:73df rev c1).
void buildApuAndDgpu(FakeSysfs& fs)
{
    FakeSysfs::Card apu;
    apu.index = 0;
    apu.bus = "0000:07:00.0";
    apu.device = "0x1638";
    apu.revision = "0xc5";
    apu.vramBytes = bytes(512 * MiB);
    apu.gttBytes = bytes(8 * GiB);
    apu.bootVga = "0";
    fs.addCard(apu);
    FakeSysfs::Card dgpu;
    dgpu.index = 1;
    dgpu.bus = "0000:03:00.0";
    dgpu.revision = "0xc1";
    dgpu.vramBytes = bytes(12 * GiB);
    dgpu.gttBytes = bytes(16 * GiB);
    fs.addCard(dgpu);
    fs.addCpuNode(0);
    fs.addGpuNode(1, 100301, 0x73df, 0x300, 80);
    fs.addGpuNode(2, 90012, 0x1638, 0x700, 16);
}

void buildNvidia(FakeSysfs& fs)
{
    FakeSysfs::Card c;
    c.bus = "0000:01:00.0";
    c.vendor = "0x10de";
    c.device = "0x2484";
    c.revision = "0xa1";
    fs.addCard(c);
}

// A datacenter H200 as a lent machine showed it (2026-11-28, docs/research/device-h200.md):
// class 0x030200 (3D controller), bound to nvidia, and no DRM card (no nvidia-drm). Beside it
// a BMC's VGA (ASPEED) and an NVIDIA device of another class (an NVSwitch bridge), no GPUs.
void buildH200NoDrm(FakeSysfs& fs)
{
    FakeSysfs::Card h200;
    h200.bus = "0000:00:06.0";
    h200.vendor = "0x10de";
    h200.device = "0x2335";
    h200.revision = "0xa1";
    fs.addPciDevice(h200, "0x030200", "nvidia");
    FakeSysfs::Card bmc;
    bmc.bus = "0000:02:00.0";
    bmc.vendor = "0x1a03";
    bmc.device = "0x2000";
    bmc.revision = "0x52";
    fs.addPciDevice(bmc, "0x030000", "ast");
    FakeSysfs::Card nvswitch;
    nvswitch.bus = "0000:05:00.0";
    nvswitch.vendor = "0x10de";
    nvswitch.device = "0x22a3";
    fs.addPciDevice(nvswitch, "0x068000");
}

// Two identical cards whose KFD nodes come in the other order and carry no PCI
// location: only unique_id can pair them correctly.
void buildTwins(FakeSysfs& fs)
{
    FakeSysfs::Card a;
    a.index = 0;
    a.bus = "0000:03:00.0";
    a.uniqueId = "aaaa0000aaaa0001";
    a.vramBytes = bytes(12 * GiB);
    fs.addCard(a);
    FakeSysfs::Card b = a;
    b.index = 1;
    b.bus = "0000:04:00.0";
    b.uniqueId = "bbbb0000bbbb0002";
    fs.addCard(b);
    fs.addGpuNode(1, 100301, 0x73df, 0, 80, std::to_string(0xbbbb0000bbbb0002ull));
    fs.addGpuNode(2, 100301, 0x73df, 0, 60, std::to_string(0xaaaa0000aaaa0001ull));
}

std::string randomBytes(std::mt19937& rng, std::size_t n)
{
    std::string s(n, '\0');
    for (auto& c : s)
        c = char(rng() & 0xff);
    return s;
}

// Every sysfs file the detector reads, spoiled in one of several ways.
void buildGarbage(FakeSysfs& fs, unsigned seed)
{
    std::mt19937 rng(seed);
    const auto spoil = [&](int kind) -> std::string {
        switch (kind % 7) {
        case 0:
            return randomBytes(rng, 1 + rng() % 300);
        case 1:
            return "";
        case 2:
            return "99999999999999999999999999999999\n";
        case 3:
            return "\xff\xfe\xc3\x28 \xe2\x82 0x\n";
        case 4:
            return "18446744073709551615\n";
        case 5:
            return "-1\n";
        default:
            return std::string(70000, '7');
        }
    };
    for (int i = 0; i < 3; ++i) {
        FakeSysfs::Card c;
        c.index = i;
        c.bus = "0000:0" + std::to_string(3 + i) + ":00.0";
        const auto dir = fs.addCard(c);
        for (const char* f : {"vendor", "device", "revision", "mem_info_vram_total",
                              "mem_info_gtt_total", "boot_vga", "unique_id"})
            FakeSysfs::write(dir / f, spoil(int(rng())));
        // Half the time keep real ids so the spoiled values behind them get read too.
        if (i == 0) {
            FakeSysfs::write(dir / "vendor", "0x1002\n");
            FakeSysfs::write(dir / "device", "0x73df\n");
        }
        std::string props;
        for (const char* k : {"gfx_target_version", "vendor_id", "device_id", "location_id",
                              "domain", "unique_id", "simd_count", "simd_per_cu"})
            props += std::string(k) + " " + spoil(int(rng()));
        fs.addKfdNode(i, i == 0
                             ? props + "\ngfx_target_version 18446744073709551615\nsimd_per_cu 0\n"
                             : props);
    }
    fs.addKfdNode(7, spoil(0));
    fs.addKfdNode(8, "gfx_target_version 100301\nvendor_id 4098\ndevice_id 29663\nsimd_count "
                     "99999999999999999999\nsimd_per_cu 1\n");
    fs.setAmdgpuVersion(spoil(3) + randomBytes(rng, 40));
    // A card folder with no device link and one whose link dangles.
    std::filesystem::create_directories(fs.root() / "class" / "drm" / "card9");
    std::filesystem::create_directories(fs.root() / "class" / "drm" / "card10");
    std::filesystem::create_directory_symlink("../../../devices/nowhere",
                                              fs.root() / "class" / "drm" / "card10" / "device");
}

} // namespace

class TestSysfsDetect : public QObject
{
    Q_OBJECT
private slots:
    void gfxTargetVersionDecodes()
    {
        QCOMPARE(*sysfs::gfxFromTargetVersion(100301), std::string("gfx1031"));
        QCOMPARE(*sysfs::gfxFromTargetVersion(110003), std::string("gfx1103"));
        QCOMPARE(*sysfs::gfxFromTargetVersion(90012), std::string("gfx90c"));
        QCOMPARE(*sysfs::gfxFromTargetVersion(90010), std::string("gfx90a"));
        QCOMPARE(*sysfs::gfxFromTargetVersion(90402), std::string("gfx942"));
        QCOMPARE(*sysfs::gfxFromTargetVersion(120001), std::string("gfx1201"));
        QCOMPARE(*sysfs::gfxFromTargetVersion(80003), std::string("gfx803"));
        QVERIFY(!sysfs::gfxFromTargetVersion(0));      // CPU node
        QVERIFY(!sysfs::gfxFromTargetVersion(101600)); // minor 16 has no hex digit
        QVERIFY(!sysfs::gfxFromTargetVersion(100317)); // nor stepping 17
        QVERIFY(!sysfs::gfxFromTargetVersion(50000));  // before GCN
        QVERIFY(!sysfs::gfxFromTargetVersion(~0ull));
    }

    void propertiesParse()
    {
        const auto p =
            sysfs::parseKfdProperties("cpu_cores_count 0\nsimd_count 80\n"
                                      "gfx_target_version\t100301\r\nvendor_id 4098\n"
                                      "device_id 29663 trailing\nbroken\n  location_id 768  \n"
                                      "domain 0\nunique_id 42\nsimd_per_cu 2");
        QCOMPARE(p.gfxTargetVersion, std::uint64_t(100301));
        QCOMPARE(p.vendorId, 0x1002u);
        QCOMPARE(p.deviceId, 0u); // "29663 trailing" is not a number
        QCOMPARE(*p.locationId, 768u);
        QCOMPARE(*p.domain, 0u);
        QCOMPARE(*p.uniqueId, std::uint64_t(42));
        QCOMPARE(p.simdCount, std::uint64_t(80));
        QCOMPARE(p.simdPerCu, std::uint64_t(2));
        const auto q =
            sysfs::parseKfdProperties("vendor_id 99999999\nunique_id 0\nsimd_count -4\n");
        QCOMPARE(q.vendorId, 0u);
        QVERIFY(!q.uniqueId);
        QCOMPARE(q.simdCount, std::uint64_t(0));
    }

    void kfdAccess()
    {
        QTemporaryDir tmp;
        const auto dev = std::filesystem::path(tmp.path().toStdString()) / "kfd";
        QVERIFY(sysfs::checkKfdAccess(dev).status == ProbeStatus::Missing);
        FakeSysfs::write(dev, "");
        const auto ok = sysfs::checkKfdAccess(dev);
        QVERIFY(ok.status == ProbeStatus::Ok);
        QCOMPARE(ok.name, std::string("kfd-access"));
        // A folder cannot be opened read-write: failed, with the reason.
        const auto failed = sysfs::checkKfdAccess(tmp.path().toStdString());
        QVERIFY(failed.status == ProbeStatus::Failed);
        QVERIFY(!failed.detail.empty());

        // The orchestrator takes an injected device path even with a fake root.
        DetectOptions o;
        o.sysfsRoot = tmp.path().toStdString();
        o.devKfdPath = dev.string();
        o.probes = false;
        const auto snap = detectHardware(o);
        QCOMPARE(snap.probes.size(), std::size_t(1));
        QVERIFY(snap.probes[0].status == ProbeStatus::Ok);
    }

    void busNames()
    {
        QCOMPARE(sysfs::pciBusFromName("0000:03:00.0"), std::string("0000:03:00.0"));
        QCOMPARE(sysfs::pciBusFromName("0000:C5:00.0"), std::string("0000:c5:00.0"));
        QCOMPARE(sysfs::pciBusFromName("card0"), std::string());
        QCOMPARE(sysfs::pciBusFromName("0000:03:00:0"), std::string());
    }

    void scenario_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* n : {"rx6750xt", "780m", "apu+dgpu", "nvidia", "h200-no-drm", "empty",
                              "twins", "garbage1", "garbage2", "garbage3", "garbage4"})
            QTest::newRow(n) << QString::fromUtf8(n);
    }

    void scenario()
    {
        QFETCH(QString, name);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        FakeSysfs fs(std::filesystem::path(tmp.path().toStdString()) / "sys");
        const std::string n = name.toStdString();
        if (n == "rx6750xt")
            buildRx6750(fs);
        else if (n == "780m")
            build780m(fs);
        else if (n == "apu+dgpu")
            buildApuAndDgpu(fs);
        else if (n == "nvidia")
            buildNvidia(fs);
        else if (n == "twins")
            buildTwins(fs);
        else if (n == "h200-no-drm")
            buildH200NoDrm(fs);
        else if (n.rfind("garbage", 0) == 0)
            buildGarbage(fs, unsigned(n.back() - '0'));

        const auto snap = detectIn(fs.root());
        // Strict dump: throws (and fails the test) on anything that is not valid UTF-8.
        std::string strictJson;
        try {
            strictJson = toJson(snap).dump();
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(parseSnapshot(strictJson, "snapshot").ok());
        const ProbeResult* kfd = nullptr;
        for (const auto& p : snap.probes)
            kfd = p.name == "kfd-access" ? &p : kfd;
        QVERIFY(kfd && kfd->status == ProbeStatus::Missing && kfd->detail == "fake sysfs root");

        if (n == "rx6750xt") {
            QCOMPARE(snap.gpus.size(), std::size_t(1));
            const auto& g = snap.gpus[0];
            QVERIFY(g.vendor == Vendor::Amd);
            QCOMPARE(g.name, std::string("AMD Radeon RX 6750 XT"));
            QCOMPARE(g.pciId, std::string("1002:73df"));
            QCOMPARE(g.pciRevision, std::string("c0"));
            QCOMPARE(g.pciBus, std::string("0000:03:00.0"));
            QCOMPARE(*g.gfx, std::string("gfx1031"));
            QCOMPARE(*g.vramMb, std::int64_t(12288));
            QCOMPARE(*g.gttMb, std::int64_t(16384));
            QCOMPARE(*g.integrated, false);
            QCOMPARE(*g.computeUnits, 40);
            QCOMPARE(*g.kfdNode, 1);
            QCOMPARE(*g.driverVersion, std::string("6.8.5"));
            QVERIFY(hasSource(g, "kfd") && hasSource(g, "drm") && hasSource(g, "pci-table"));
            QVERIFY(g.extra["boot_vga"] == json(true));
        } else if (n == "780m") {
            QCOMPARE(snap.gpus.size(), std::size_t(1));
            const auto& g = snap.gpus[0];
            QCOMPARE(*g.gfx, std::string("gfx1103"));
            QCOMPARE(*g.integrated, true);
            QCOMPARE(g.name, std::string("AMD Radeon 780M Graphics"));
            QCOMPARE(g.pciBus, std::string("0000:c5:00.0"));
            QCOMPARE(*g.computeUnits, 12);
            QVERIFY(!g.driverVersion); // no module/amdgpu/version: the in-kernel driver
        } else if (n == "apu+dgpu") {
            QCOMPARE(snap.gpus.size(), std::size_t(2));
            const auto* apu = byPciId(snap, "1002:1638");
            const auto* dgpu = byPciId(snap, "1002:73df");
            QVERIFY(apu && dgpu);
            QCOMPARE(*apu->gfx, std::string("gfx90c"));
            QCOMPARE(*apu->integrated, true);
            QCOMPARE(*apu->kfdNode, 2);
            QCOMPARE(apu->pciBus, std::string("0000:07:00.0"));
            QCOMPARE(*dgpu->gfx, std::string("gfx1031"));
            QCOMPARE(*dgpu->integrated, false);
            QCOMPARE(*dgpu->kfdNode, 1);
            QCOMPARE(dgpu->name, std::string("AMD Radeon RX 6700 XT"));
        } else if (n == "nvidia") {
            QCOMPARE(snap.gpus.size(), std::size_t(1));
            const auto& g = snap.gpus[0];
            QVERIFY(g.vendor == Vendor::Nvidia);
            QCOMPARE(g.pciId, std::string("10de:2484"));
            QCOMPARE(g.name, std::string("NVIDIA GeForce RTX 3070")); // the name NVIDIA gives 2484
            QVERIFY(!g.gfx && !g.vramMb && !g.kfdNode);
            // No NVML in a fake tree: the compute capability comes from NVIDIA's table
            // (10de:2484 is the GeForce RTX 3070), and says so.
            QCOMPARE(g.computeCapability.value_or(""), std::string("8.6"));
            QVERIFY((g.sources == std::vector<std::string>{"drm", "nvidia-cc-table"}));
        } else if (n == "h200-no-drm") {
            QCOMPARE(snap.gpus.size(), std::size_t(1));
            const auto& g = snap.gpus[0];
            QVERIFY(g.vendor == Vendor::Nvidia);
            QCOMPARE(g.pciId, std::string("10de:2335"));
            QCOMPARE(g.pciRevision, std::string("a1"));
            QCOMPARE(g.pciBus, std::string("0000:00:06.0"));
            QCOMPARE(g.name, std::string("NVIDIA H200"));
            QCOMPARE(g.computeCapability.value_or(""), std::string("9.0"));
            QVERIFY((g.sources == std::vector<std::string>{"pci", "nvidia-cc-table"}));
            QVERIFY(g.extra["kernel_driver"] == json("nvidia"));
        } else if (n == "empty") {
            QVERIFY(snap.gpus.empty());
        } else if (n == "twins") {
            QCOMPARE(snap.gpus.size(), std::size_t(2));
            QCOMPARE(snap.gpus[0].pciBus, std::string("0000:03:00.0"));
            QCOMPARE(*snap.gpus[0].kfdNode, 2);
            QCOMPARE(*snap.gpus[0].computeUnits, 30);
            QCOMPARE(*snap.gpus[1].kfdNode, 1);
        } else {
            for (const auto& g : snap.gpus) {
                if (g.computeUnits)
                    QVERIFY(*g.computeUnits >= 0);
                QVERIFY(!g.name.empty());
            }
        }

        // The same tree through the CLI gives the same snapshot.
        const auto cli = runCli({QStringLiteral("detect"), QStringLiteral("--sysfs-root"),
                                 QString::fromStdString(fs.root().string()),
                                 QStringLiteral("--no-probes"), QStringLiteral("--json")});
        QVERIFY2(cli.rc == 0, cli.err.c_str());
        const auto parsed = json::parse(cli.out, nullptr, false);
        QVERIFY2(!parsed.is_discarded(), cli.out.c_str());
        QVERIFY2(parsed == toJson(snap), (parsed.dump() + "\n!=\n" + toJson(snap).dump()).c_str());
    }

    void humanTable()
    {
        QTemporaryDir tmp;
        FakeSysfs fs(std::filesystem::path(tmp.path().toStdString()) / "sys");
        buildApuAndDgpu(fs);
        const auto cli =
            runCli({QStringLiteral("detect"), QStringLiteral("--sysfs-root"),
                    QString::fromStdString(fs.root().string()), QStringLiteral("--no-probes")});
        QCOMPARE(cli.rc, 0);
        QVERIFY2(cli.out.find("AMD Radeon RX 6700 XT") != std::string::npos, cli.out.c_str());
        QVERIFY(cli.out.find("gfx90c") != std::string::npos);
        QVERIFY(cli.out.find("12.0 GiB") != std::string::npos);
        QVERIFY(cli.out.find("kfd-access") != std::string::npos);
        QVERIFY(cli.out.find("Home:") != std::string::npos);
    }

    void emptyTreeHumanExitsZero()
    {
        QTemporaryDir tmp;
        const auto cli = runCli({QStringLiteral("detect"), QStringLiteral("--sysfs-root"),
                                 tmp.path(), QStringLiteral("--no-probes")});
        QCOMPARE(cli.rc, 0);
        QVERIFY(cli.out.find("none found") != std::string::npos);
    }

    void badProbeTimeoutIsUsageError()
    {
        for (const char* v : {"abc", "0", "-5", "12x"}) {
            const auto cli = runCli({QStringLiteral("detect"), QStringLiteral("--no-probes"),
                                     QStringLiteral("--probe-timeout"), QString::fromUtf8(v)});
            QCOMPARE(cli.rc, 2);
            QVERIFY(cli.err.find("--probe-timeout") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestSysfsDetect)
#include "test_sysfs_detect.moc"
