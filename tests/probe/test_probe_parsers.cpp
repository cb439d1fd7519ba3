// The tool and probe-JSON parsers on outputs shaped like the real tools'.

#include "detectors/parsers/tool_parsers.h"

#include <QFile>
#include <QtTest>

using namespace sp;

namespace {

std::string readData(const char* name)
{
    QFile f(QStringLiteral(PROBE_DATA_DIR "/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open test data %s", name);
    return f.readAll().toStdString();
}

} // namespace

class TestProbeParsers : public QObject
{
    Q_OBJECT

private slots:
    void rocminfoApuThenDiscrete()
    {
        const ParsedProbe p = parseRocminfo(readData("rocminfo_apu_dgpu.txt"), 0);
        QVERIFY(p.probe.status == ProbeStatus::Ok);
        QCOMPARE(p.probe.name, std::string("rocminfo"));
        QCOMPARE(p.gpus.size(), size_t(2)); // the CPU agent is skipped
        const GpuInfo& igpu = p.gpus[0];
        QCOMPARE(igpu.gfx.value_or(""), std::string("gfx1036"));
        QCOMPARE(igpu.name, std::string("AMD Radeon Graphics"));
        QCOMPARE(igpu.computeUnits.value_or(-1), 2);
        QCOMPARE(igpu.kfdNode.value_or(-1), 1);
        QCOMPARE(igpu.pciBus, std::string("0000:15:00.0")); // BDFID 5376 = 0x1500
        QCOMPARE(igpu.pciId, std::string("1002:164e"));
        QCOMPARE(igpu.vramMb.value_or(-1), std::int64_t(512));
        const GpuInfo& dgpu = p.gpus[1];
        QVERIFY(dgpu.vendor == Vendor::Amd);
        QCOMPARE(dgpu.gfx.value_or(""), std::string("gfx1100"));
        QCOMPARE(dgpu.name, std::string("Radeon RX 7900 XTX"));
        QCOMPARE(dgpu.computeUnits.value_or(-1), 96);
        QCOMPARE(dgpu.kfdNode.value_or(-1), 2);
        QCOMPARE(dgpu.pciBus, std::string("0000:03:00.0"));
        QCOMPARE(dgpu.pciId, std::string("1002:744c"));
        QCOMPARE(dgpu.vramMb.value_or(-1), std::int64_t(24560));
        QCOMPARE(dgpu.extra.value("uuid", std::string()), std::string("GPU-2e8a4e1c97a6f3b1"));
        QCOMPARE(dgpu.sources, std::vector<std::string>{"rocminfo"});
    }

    void rocminfoWithoutDriverIsFailedNoDevice()
    {
        const ParsedProbe p = parseRocminfo(readData("rocminfo_no_gpu.txt"), 1);
        QVERIFY(p.probe.status == ProbeStatus::Failed);
        QVERIFY(p.gpus.empty());
        QVERIFY2(p.probe.detail.rfind("no device: ROCk module is NOT loaded", 0) == 0,
                 p.probe.detail.c_str());
        QVERIFY2(p.probe.detail.find('\x1b') == std::string::npos, p.probe.detail.c_str());

        const ParsedProbe oom =
            parseRocminfo("hsa api call failure at: rocminfo.cc:1143\n"
                          "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed "
                          "to allocate the necessary resources.\n",
                          1);
        QVERIFY(oom.probe.status == ProbeStatus::Failed);
        QVERIFY(oom.probe.detail.find("no device") == 0);
    }

    void rocminfoCpuOnly()
    {
        const ParsedProbe p = parseRocminfo(readData("rocminfo_cpu_only.txt"), 0);
        QVERIFY(p.probe.status == ProbeStatus::Failed);
        QCOMPARE(p.probe.detail, std::string("no device"));
        QVERIFY(p.gpus.empty());
    }

    void hipinfoTwoDevices()
    {
        const ParsedProbe p = parseHipinfo(readData("hipinfo_two.txt"), 0);
        QVERIFY(p.probe.status == ProbeStatus::Ok);
        QCOMPARE(p.gpus.size(), size_t(2));
        QCOMPARE(p.gpus[0].gfx.value_or(""), std::string("gfx1036"));
        QCOMPARE(p.gpus[0].integrated.value_or(false), true);
        QCOMPARE(p.gpus[0].pciBus, std::string("0000:0e:00.0"));
        const GpuInfo& d = p.gpus[1];
        QCOMPARE(d.name, std::string("AMD Radeon RX 6750 XT"));
        QCOMPARE(d.gfx.value_or(""), std::string("gfx1031"));
        QCOMPARE(d.extra.value("gfx_target", std::string()),
                 std::string("gfx1031:sramecc-:xnack-"));
        QCOMPARE(d.vramMb.value_or(-1), std::int64_t(12268)); // 11.98 GB
        QCOMPARE(d.computeUnits.value_or(-1), 20);
        QCOMPARE(d.integrated.value_or(true), false);
        QCOMPARE(d.pciBus, std::string("0000:03:00.0"));
    }

    void hipinfoNoDevice()
    {
        const ParsedProbe p = parseHipinfo(
            "checkHipErrors() HIP API error = 0100 \"no ROCm-capable device is detected\"\n", 1);
        QVERIFY(p.probe.status == ProbeStatus::Failed);
        QVERIFY(p.gpus.empty());
        QVERIFY2(p.probe.detail.find("no device") == 0, p.probe.detail.c_str());
    }

    void recordsStopAtTheBound()
    {
        // rocminfo: the scanner opens at most kMaxParsedGpus agents, CPU agents included, and
        // reads no further, so a GPU agent after that many CPU agents is not read.
        std::string agents;
        for (std::size_t i = 1; i <= kMaxParsedGpus; ++i)
            agents += "Agent " + std::to_string(i) + "\n  Name:  cpu\n  Device Type:  CPU\n";
        const std::string gpuAgent = "Agent 99\n  Name:  gfx1030\n  Device Type:  GPU\n";
        QCOMPARE(parseRocminfo(gpuAgent, 0).gpus.size(), std::size_t(1));
        QVERIFY(parseRocminfo(agents + gpuAgent, 0).gpus.empty());
        std::string gpus;
        for (std::size_t i = 0; i <= kMaxParsedGpus; ++i)
            gpus += gpuAgent;
        QCOMPARE(parseRocminfo(gpus, 0).gpus.size(), kMaxParsedGpus);

        // hipinfo: as many device blocks, then a device past them.
        std::string devices;
        for (std::size_t i = 0; i < kMaxParsedGpus; ++i)
            devices += "device#  " + std::to_string(i) + "\npciBusID:  " + std::to_string(i) + "\n";
        const std::string hipDevice =
            "device#  99\nName:  AMD Radeon RX 6800\ngcnArchName:  gfx1030\n";
        QCOMPARE(parseHipinfo(hipDevice, 0).gpus.size(), std::size_t(1));
        QVERIFY(parseHipinfo(devices + hipDevice, 0).gpus.empty());
        // Without device lines each gcnArchName line opens a device: bounded the same way.
        std::string grep;
        for (std::size_t i = 0; i < kMaxParsedGpus; ++i)
            grep += "gcnArchName:  unknown\n";
        QVERIFY(parseHipinfo(grep + "gcnArchName:  gfx1030\n", 0).gpus.empty());
    }

    void nvidiaSmiTwoGpus()
    {
        const ParsedProbe p = parseNvidiaSmiCsv(readData("nvidia_smi_two.csv"), 0);
        QVERIFY(p.probe.status == ProbeStatus::Ok);
        QCOMPARE(p.gpus.size(), size_t(2));
        QCOMPARE(p.gpus[0].name, std::string("NVIDIA GeForce GTX 1080"));
        QCOMPARE(p.gpus[0].pciBus, std::string("0000:01:00.0"));
        QCOMPARE(p.gpus[0].vramMb.value_or(-1), std::int64_t(8192));
        QCOMPARE(p.gpus[0].computeCapability.value_or(""), std::string("6.1"));
        QCOMPARE(p.gpus[0].driverVersion.value_or(""), std::string("550.54.14"));
        QCOMPARE(p.gpus[1].pciBus, std::string("0000:0a:00.0"));
        QCOMPARE(p.gpus[1].computeCapability.value_or(""), std::string("8.6"));
    }

    void nvidiaSmiWithoutComputeCapColumn()
    {
        const ParsedProbe p =
            parseNvidiaSmiCsv("Tesla K80, 00000000:04:00.0, 11441, 470.82.01\n", 0, false);
        QVERIFY(p.probe.status == ProbeStatus::Ok);
        QCOMPARE(p.gpus.size(), size_t(1));
        QVERIFY(!p.gpus[0].computeCapability);
        QCOMPARE(p.gpus[0].driverVersion.value_or(""), std::string("470.82.01"));
        QCOMPARE(p.gpus[0].vramMb.value_or(-1), std::int64_t(11441));
    }

    void nvidiaSmiFailures()
    {
        const ParsedProbe noDriver =
            parseNvidiaSmiCsv("NVIDIA-SMI has failed because it couldn't communicate with the "
                              "NVIDIA driver. Make sure that the latest "
                              "NVIDIA driver is installed and running.\n",
                              9);
        QVERIFY(noDriver.probe.status == ProbeStatus::Failed);
        QVERIFY(noDriver.probe.detail.find("couldn't communicate") != std::string::npos);
        const ParsedProbe none = parseNvidiaSmiCsv("No devices were found\n", 6);
        QVERIFY(none.probe.status == ProbeStatus::Failed);
        QVERIFY(none.probe.detail.find("No devices were found") != std::string::npos);
        const ParsedProbe na = parseNvidiaSmiCsv(
            "NVIDIA GeForce GTX 1080, 00000000:01:00.0, [N/A], [N/A], 550.54.14\n", 0);
        QCOMPARE(na.gpus.size(), size_t(1));
        QVERIFY(!na.gpus[0].vramMb);
        QVERIFY(!na.gpus[0].computeCapability);
    }

    void probeJsonOk()
    {
        const std::string text =
            "some vendor chatter on stdout\n"
            R"J({"schema":1,"probe":"hip","platform":"windows","status":"ok","detail":"1 device(s)",)J"
            R"J("library":"C:\\Windows\\System32\\amdhip64_6.dll","driver_version":"6.2","runtime_version":"6.2",)J"
            R"J("devices":[{"index":0,"name":"AMD Radeon RX 6750 XT","gfx":"gfx1031","gfx_target":"gfx1031:xnack-",)J"
            R"J("pci_bus":"0000:03:00.0","vram_mb":12272,"compute_units":40,"integrated":false}]})J";
        const ParsedProbe p = parseProbeJson("hip", text);
        QVERIFY2(p.probe.status == ProbeStatus::Ok, p.probe.detail.c_str());
        QCOMPARE(p.gpus.size(), size_t(1));
        QCOMPARE(p.gpus[0].gfx.value_or(""), std::string("gfx1031"));
        QCOMPARE(p.gpus[0].vramMb.value_or(-1), std::int64_t(12272));
        QCOMPARE(p.runtimes.size(), size_t(1));
        QCOMPARE(p.runtimes[0].kind, std::string("hip-runtime"));
        QCOMPARE(p.runtimes[0].version, std::string("6.2"));
        QCOMPARE(p.runtimes[0].path, std::string("C:\\Windows\\System32\\amdhip64_6.dll"));
    }

    void probeJsonMalformed()
    {
        for (const char* bad :
             {"", "not json", "{", "[1,2]", R"({"status":"crashed"})", R"({"status":42})",
              R"({"status":"ok","devices":[1,"x",{"vram_mb":"big","gfx":7}]})"}) {
            const ParsedProbe p = parseProbeJson("nvml", bad);
            if (p.probe.status == ProbeStatus::Ok) {
                // The last one is a valid envelope: junk devices keep no junk fields.
                QCOMPARE(p.gpus.size(), size_t(1));
                QVERIFY(!p.gpus[0].vramMb);
                QVERIFY(!p.gpus[0].gfx);
            } else {
                QVERIFY2(p.probe.status == ProbeStatus::Failed, bad);
                QVERIFY2(p.probe.detail.find("malformed") == 0, bad);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestProbeParsers)
#include "test_probe_parsers.moc"
