// stackpilot-probe driven through runVendorProbes against fake vendor libraries
// (loaded with the real dlopen path) and against Debian's real libamdhip64.

#include "detectors/probe_runner.h"
#include "probe_report_helpers.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QtTest>

using namespace sp;

namespace {

ProbeOptions options(std::vector<std::string> probes, int timeoutMs = 5000)
{
    ProbeOptions o;
    o.probeExecutable = PROBE_EXE;
    o.timeoutMs = timeoutMs;
    o.vendorProbes = std::move(probes);
    return o;
}

} // namespace

using sp::test::describe;
using sp::test::findProbe;

class TestProbeVendor : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        qunsetenv("STACKPILOT_HIP_LIB");
        qunsetenv("STACKPILOT_NVML_LIB");
        qunsetenv("STACKPILOT_CUDA_LIB");
        qunsetenv("CUDA_VISIBLE_DEVICES");
        qunsetenv("HIP_VISIBLE_DEVICES");
        qunsetenv("HSA_OVERRIDE_GFX_VERSION");
    }

    void hipR0600ReadsArchAtTheNewOffset()
    {
        qputenv("STACKPILOT_HIP_LIB", FAKE_HIP_R0600_LIB);
        const ProbeReport r = runVendorProbes(options({"hip"}));
        QCOMPARE(r.probes.size(), size_t(1));
        QVERIFY2(r.probes[0].status == ProbeStatus::Ok, describe(r).constData());
        QCOMPARE(r.probes[0].extra.value("library", std::string()),
                 std::string(FAKE_HIP_R0600_LIB));
        QCOMPARE(r.gpus.size(), size_t(2));
        // iGPU listed first, as HIP does on an APU + dGPU machine.
        QCOMPARE(r.gpus[0].gfx.value_or(""), std::string("gfx1036"));
        QCOMPARE(r.gpus[0].integrated.value_or(false), true);
        QCOMPARE(r.gpus[0].vramMb.value_or(-1), std::int64_t(512));
        const GpuInfo& d = r.gpus[1];
        QVERIFY(d.vendor == Vendor::Amd);
        QCOMPARE(d.name, std::string("AMD Radeon RX 6750 XT"));
        QCOMPARE(d.gfx.value_or(""), std::string("gfx1031"));
        QCOMPARE(d.extra.value("gfx_target", std::string()), std::string("gfx1031:xnack-"));
        QCOMPARE(d.vramMb.value_or(-1), std::int64_t(12288));
        QCOMPARE(d.computeUnits.value_or(-1), 40);
        QCOMPARE(d.integrated.value_or(true), false);
        QCOMPARE(d.pciBus, std::string("0000:03:00.0"));
        QCOMPARE(d.sources, std::vector<std::string>{"hip"});
        QCOMPARE(r.runtimes.size(), size_t(1));
        QCOMPARE(r.runtimes[0].kind, std::string("rocm"));
        QCOMPARE(r.runtimes[0].version, std::string("6.1"));
        QCOMPARE(r.runtimes[0].path, std::string(FAKE_HIP_R0600_LIB));
    }

    void workloadVariablesDoNotMaskDetection()
    {
        // A user who set these for a workload still gets the real GPUs reported.
        qputenv("STACKPILOT_HIP_LIB", FAKE_HIP_R0600_LIB);
        qputenv("HIP_VISIBLE_DEVICES", "");
        qputenv("HSA_OVERRIDE_GFX_VERSION", "10.3.0");
        const ProbeReport r = runVendorProbes(options({"hip"}));
        QVERIFY2(r.probes[0].status == ProbeStatus::Ok, describe(r).constData());
        QCOMPARE(r.gpus.size(), size_t(2));
        QCOMPARE(r.gpus[1].gfx.value_or(""), std::string("gfx1031"));
    }

    void hipR0000ReadsArchAtTheOldOffset()
    {
        qputenv("STACKPILOT_HIP_LIB", FAKE_HIP_R0000_LIB);
        const ProbeReport r = runVendorProbes(options({"hip"}));
        QVERIFY2(r.probes[0].status == ProbeStatus::Ok, describe(r).constData());
        QCOMPARE(r.gpus.size(), size_t(2));
        QCOMPARE(r.gpus[0].gfx.value_or(""), std::string("gfx1031"));
        QCOMPARE(r.gpus[0].vramMb.value_or(-1), std::int64_t(12288));
        QCOMPARE(r.gpus[0].computeUnits.value_or(-1), 40);
        QCOMPARE(r.gpus[0].pciBus, std::string("0000:03:00.0"));
        QCOMPARE(r.gpus[1].gfx.value_or(""), std::string("gfx1100"));
        QCOMPARE(r.gpus[1].name, std::string("AMD Radeon RX 7900 XTX"));
        QCOMPARE(r.gpus[1].vramMb.value_or(-1), std::int64_t(24576));
        QCOMPARE(r.gpus[1].pciBus, std::string("0000:2d:00.0"));
    }

    void unversionedEntryPointWithTheNewLayout()
    {
        // Only hipGetDeviceProperties is exported: the probe expects R0000 but the
        // gfx target sits at the R0600 offset, so it switches layouts.
        qputenv("STACKPILOT_HIP_LIB", FAKE_HIP_PLAIN_R0600_LIB);
        const ProbeReport r = runVendorProbes(options({"hip"}));
        QVERIFY2(r.probes[0].status == ProbeStatus::Ok, describe(r).constData());
        QCOMPARE(r.gpus.size(), size_t(2));
        QCOMPARE(r.gpus[0].gfx.value_or(""), std::string("gfx1103"));
        QCOMPARE(r.gpus[1].gfx.value_or(""), std::string("gfx1101"));
        QCOMPARE(r.gpus[1].vramMb.value_or(-1), std::int64_t(16384));
        QCOMPARE(r.gpus[1].computeUnits.value_or(-1), 60);
    }

    void crashingRuntimeIsReportedAndOthersStillRun()
    {
        qputenv("STACKPILOT_HIP_LIB", FAKE_HIP_CRASH_LIB);
        qputenv("STACKPILOT_NVML_LIB", FAKE_NVML_LIB);
        const ProbeReport r = runVendorProbes(options({"hip", "nvml"}));
        const ProbeResult* hip = findProbe(r, "hip");
        QVERIFY(hip);
        QVERIFY2(hip->status == ProbeStatus::Crashed, describe(r).constData());
        QVERIFY2(hip->detail.find("SIGSEGV") != std::string::npos, hip->detail.c_str());
        const ProbeResult* nvml = findProbe(r, "nvml");
        QVERIFY(nvml);
        QVERIFY2(nvml->status == ProbeStatus::Ok, describe(r).constData());
        QCOMPARE(r.gpus.size(), size_t(1));
    }

    void hangingRuntimeTimesOut()
    {
        qputenv("STACKPILOT_HIP_LIB", FAKE_HIP_HANG_LIB);
        const int timeoutMs = 1500;
        QElapsedTimer t;
        t.start();
        const ProbeReport r = runVendorProbes(options({"hip"}, timeoutMs));
        const qint64 elapsed = t.elapsed();
        qInfo("hang detected after %lld ms (timeout %d ms)", static_cast<long long>(elapsed),
              timeoutMs);
        QVERIFY2(r.probes[0].status == ProbeStatus::Timeout, describe(r).constData());
        QVERIFY(r.gpus.empty());
        QVERIFY2(elapsed < timeoutMs + 1000, QByteArray::number(elapsed).constData());
    }

    void probesRunSideBySide()
    {
        // Two hanging probes beside two good ones: run one after the other they
        // would take two timeouts; side by side the whole run takes one.
        qputenv("STACKPILOT_HIP_LIB", FAKE_HIP_HANG_LIB);
        qputenv("STACKPILOT_NVML_LIB", FAKE_NVML_LIB);
        qputenv("STACKPILOT_CUDA_LIB", FAKE_CUDA_LIB);
        const int timeoutMs = 2000;
        QElapsedTimer t;
        t.start();
        const ProbeReport r = runVendorProbes(options({"hip", "nvml", "hip", "cuda"}, timeoutMs));
        const qint64 elapsed = t.elapsed();
        qInfo("2 hanging + 2 good probes, timeout %d ms: %lld ms", timeoutMs,
              static_cast<long long>(elapsed));
        QCOMPARE(r.probes.size(), size_t(4));
        QVERIFY2(r.probes[0].status == ProbeStatus::Timeout, describe(r).constData());
        QVERIFY2(r.probes[1].status == ProbeStatus::Ok, describe(r).constData());
        QVERIFY2(r.probes[2].status == ProbeStatus::Timeout, describe(r).constData());
        QVERIFY2(r.probes[3].status == ProbeStatus::Ok, describe(r).constData());
        QVERIFY2(elapsed < timeoutMs + 1000, QByteArray::number(elapsed).constData());
    }

    void nvmlReportsComputeCapabilityAndVersions()
    {
        qputenv("STACKPILOT_NVML_LIB", FAKE_NVML_LIB);
        const ProbeReport r = runVendorProbes(options({"nvml"}));
        QVERIFY2(r.probes[0].status == ProbeStatus::Ok, describe(r).constData());
        QCOMPARE(r.gpus.size(), size_t(1));
        const GpuInfo& g = r.gpus[0];
        QVERIFY(g.vendor == Vendor::Nvidia);
        QCOMPARE(g.name, std::string("NVIDIA GeForce GTX 1080"));
        QCOMPARE(g.computeCapability.value_or(""), std::string("6.1"));
        QCOMPARE(g.vramMb.value_or(-1), std::int64_t(8192));
        QCOMPARE(g.pciBus, std::string("0000:01:00.0"));
        QCOMPARE(g.pciId, std::string("10de:1b80"));
        QCOMPARE(g.driverVersion.value_or(""), std::string("550.54.14"));
        QCOMPARE(r.runtimes.size(), size_t(1));
        QCOMPARE(r.runtimes[0].kind, std::string("cuda-driver"));
        QCOMPARE(r.runtimes[0].version, std::string("12.4"));
        QCOMPARE(r.runtimes[0].extra.value("driver_version", std::string()),
                 std::string("550.54.14"));
    }

    void cudaProbeIgnoresAnEmptyVisibleDevices()
    {
        qputenv("STACKPILOT_CUDA_LIB", FAKE_CUDA_LIB);
        qputenv("CUDA_VISIBLE_DEVICES", ""); // hides every device unless the probe removes it
        const ProbeReport r = runVendorProbes(options({"cuda"}));
        QVERIFY2(r.probes[0].status == ProbeStatus::Ok, describe(r).constData());
        QCOMPARE(r.gpus.size(), size_t(1));
        QCOMPARE(r.gpus[0].computeCapability.value_or(""), std::string("6.1"));
        QCOMPARE(r.gpus[0].vramMb.value_or(-1), std::int64_t(8192));
        QCOMPARE(r.gpus[0].pciBus, std::string("0000:01:00.0"));
        QCOMPARE(r.runtimes.size(), size_t(1));
        QCOMPARE(r.runtimes[0].kind, std::string("cuda-driver"));
        QCOMPARE(r.runtimes[0].version, std::string("12.4"));
    }

    void nvmlAndCudaShareOneDriverEntry()
    {
        qputenv("STACKPILOT_NVML_LIB", FAKE_NVML_LIB);
        qputenv("STACKPILOT_CUDA_LIB", FAKE_CUDA_LIB);
        const ProbeReport r = runVendorProbes(options({"nvml", "cuda"}));
        QCOMPARE(r.probes.size(), size_t(2));
        QCOMPARE(r.gpus.size(), size_t(2)); // one per source; the detector merges them
        QCOMPARE(r.runtimes.size(), size_t(1));
    }

    void missingLibraryIsMissing()
    {
        qputenv("STACKPILOT_HIP_LIB", "/nonexistent/libamdhip64.so");
        qputenv("STACKPILOT_NVML_LIB", "/nonexistent/libnvidia-ml.so.1");
        qputenv("STACKPILOT_CUDA_LIB", "/nonexistent/libcuda.so.1");
        const ProbeReport r = runVendorProbes(options({"hip", "nvml", "cuda"}));
        QCOMPARE(r.probes.size(), size_t(3));
        for (const auto& p : r.probes)
            QVERIFY2(p.status == ProbeStatus::Missing, describe(r).constData());
        QVERIFY(r.gpus.empty());
    }

    void malformedOutputIsFailed()
    {
        ProbeOptions o = options({"hip"});
        o.probeExecutable = "/bin/echo"; // prints "hip", not JSON
        if (!QFileInfo::exists(QStringLiteral("/bin/echo")))
            QSKIP("no /bin/echo");
        const ProbeReport r = runVendorProbes(o);
        QVERIFY2(r.probes[0].status == ProbeStatus::Failed, describe(r).constData());
        QVERIFY(r.probes[0].detail.find("malformed") != std::string::npos);
    }

    void absentProbeExecutableIsFailed()
    {
        ProbeOptions o = options({"nvml"});
        o.probeExecutable = "/nonexistent/stackpilot-probe";
        const ProbeReport r = runVendorProbes(o);
        QCOMPARE(r.probes.size(), size_t(1));
        QVERIFY(r.probes[0].status == ProbeStatus::Failed);
    }

    void realDebianHipRuntimeFailsCleanly()
    {
        const char* lib = "/usr/lib/x86_64-linux-gnu/libamdhip64.so.5";
        if (!QFileInfo::exists(QString::fromLatin1(lib)))
            QSKIP("libamdhip64.so.5 is not installed");
        qputenv("STACKPILOT_HIP_LIB", lib);
        const ProbeReport r = runVendorProbes(options({"hip"}, 20000));
        qInfo("real libamdhip64: %s", describe(r).constData());
        const ProbeStatus s = r.probes[0].status;
        // This machine has no AMD GPU: "failed"/"no device" is expected; a real GPU gives ok.
        QVERIFY2(s == ProbeStatus::Failed || s == ProbeStatus::Ok, describe(r).constData());
        if (s == ProbeStatus::Failed)
            QVERIFY2(r.probes[0].detail.find("no device") != std::string::npos,
                     describe(r).constData());
        QCOMPARE(r.runtimes.size(), size_t(1));
        QCOMPARE(r.runtimes[0].version.substr(0, 2), std::string("5."));
    }
};

QTEST_GUILESS_MAIN(TestProbeVendor)
#include "test_probe_vendor.moc"
