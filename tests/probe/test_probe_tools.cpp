// runToolProbes with fake tools on PATH (a well-behaved nvidia-smi, a rocminfo
// that hangs, a hipinfo that crashes), and with Debian's real rocminfo.

#include "detectors/probe_runner.h"
#include "probe_report_helpers.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace sp;

namespace {

void writeScript(const QString& path, const QByteArray& body)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write("#!/bin/sh\n" + body);
    f.close();
    QVERIFY(
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
}

} // namespace

using sp::test::describe;
using sp::test::findProbe;

class TestProbeTools : public QObject
{
    Q_OBJECT

    QByteArray m_path;

private slots:
    void initTestCase() { m_path = qgetenv("PATH"); }
    void cleanup()
    {
        qputenv("PATH", m_path);
        qunsetenv("HIP_PATH");
    }

    void fakeToolsOnPath()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeScript(dir.filePath(QStringLiteral("nvidia-smi")),
                    "echo 'NVIDIA GeForce GTX 1080, 00000000:01:00.0, 8192, 6.1, 550.54.14'\n");
        writeScript(dir.filePath(QStringLiteral("rocminfo")), "exec /bin/sleep 30\n");
        writeScript(dir.filePath(QStringLiteral("hipinfo")), "kill -SEGV $$\n");
        qputenv("PATH", QFile::encodeName(dir.path()));
        qunsetenv("HIP_PATH");

        ProbeOptions o;
        o.timeoutMs = 1000;
        QElapsedTimer t;
        t.start();
        const ProbeReport r = runToolProbes(o);
        qInfo("three tool probes (one hanging) took %lld ms", static_cast<long long>(t.elapsed()));

        const ProbeResult* smi = findProbe(r, "nvidia-smi");
        QVERIFY(smi);
        QVERIFY2(smi->status == ProbeStatus::Ok, describe(r).constData());
        QCOMPARE(r.gpus.size(), size_t(1));
        QCOMPARE(r.gpus[0].computeCapability.value_or(""), std::string("6.1"));
        QCOMPARE(r.gpus[0].sources, std::vector<std::string>{"nvidia-smi"});

        const ProbeResult* roc = findProbe(r, "rocminfo");
        QVERIFY(roc);
        // /opt/rocm/bin/rocminfo is only a fallback; PATH's hanging one is found first.
        QVERIFY2(roc->status == ProbeStatus::Timeout, describe(r).constData());
        QVERIFY(roc->extra.value("elapsed_ms", 0) < o.timeoutMs + 1000);

        const ProbeResult* hip = findProbe(r, "hipinfo");
        QVERIFY(hip);
        QVERIFY2(hip->status == ProbeStatus::Crashed, describe(r).constData());
        QVERIFY2(hip->detail.find("SIGSEGV") != std::string::npos, hip->detail.c_str());
    }

    void oldNvidiaSmiIsAskedAgainWithoutComputeCap()
    {
        QTemporaryDir dir;
        writeScript(dir.filePath(QStringLiteral("nvidia-smi")),
                    "case \"$*\" in *compute_cap*) echo 'Field \"compute_cap\" is not a valid "
                    "field to query.' >&2; "
                    "exit 2;; esac\n"
                    "echo 'Tesla K80, 00000000:04:00.0, 11441, 470.82.01'\n");
        qputenv("PATH", QFile::encodeName(dir.path()));
        const ProbeReport r = runToolProbes(ProbeOptions{});
        const ProbeResult* smi = findProbe(r, "nvidia-smi");
        QVERIFY(smi);
        QVERIFY2(smi->status == ProbeStatus::Ok, describe(r).constData());
        QCOMPARE(r.gpus.size(), size_t(1));
        QCOMPARE(r.gpus[0].name, std::string("Tesla K80"));
        QVERIFY(!r.gpus[0].computeCapability);
        QCOMPARE(r.gpus[0].driverVersion.value_or(""), std::string("470.82.01"));
    }

    void largeToolOutputIsRead()
    {
        // 1 MiB of noise before the agents: more than any pipe buffer.
        QTemporaryDir dir;
        const QByteArray data =
            QByteArrayLiteral(STACKPILOT_SOURCE_DIR "/tests/probe/data/rocminfo_apu_dgpu.txt");
        writeScript(
            dir.filePath(QStringLiteral("rocminfo")),
            "i=0; while [ $i -lt 16384 ]; do echo "
            "'..............................................................'; i=$((i+1)); done\n"
            "while IFS= read -r line; do echo \"$line\"; done < '" +
                data + "'\n");
        qputenv("PATH", QFile::encodeName(dir.path()));
        ProbeOptions o;
        o.timeoutMs = 20000;
        const ProbeReport r = runToolProbes(o);
        const ProbeResult* roc = findProbe(r, "rocminfo");
        QVERIFY(roc);
        QVERIFY2(roc->status == ProbeStatus::Ok, describe(r).constData());
        QCOMPARE(r.gpus.size(), size_t(2));
        QCOMPARE(r.gpus[1].gfx.value_or(""), std::string("gfx1100"));
    }

    void missingToolsAreMissing()
    {
        QTemporaryDir dir;
        qputenv("PATH", QFile::encodeName(dir.path()));
        qputenv("HIP_PATH", QFile::encodeName(dir.path()));
        const ProbeReport r = runToolProbes(ProbeOptions{});
        const ProbeResult* hip = findProbe(r, "hipinfo");
        QVERIFY(hip);
        QVERIFY2(hip->status == ProbeStatus::Missing, describe(r).constData());
        if (!QFileInfo::exists(QStringLiteral("/opt/rocm/bin/rocminfo")))
            QVERIFY(findProbe(r, "rocminfo")->status == ProbeStatus::Missing);
        if (!QFileInfo::exists(QStringLiteral("/usr/bin/nvidia-smi")))
            QVERIFY(findProbe(r, "nvidia-smi")->status == ProbeStatus::Missing);
    }

    void realRocminfoGivesACleanStatus()
    {
        if (!QFileInfo::exists(QStringLiteral("/usr/bin/rocminfo")))
            QSKIP("rocminfo is not installed");
        qputenv("PATH", "/usr/bin:/bin");
        ProbeOptions o;
        o.timeoutMs = 20000;
        const ProbeReport r = runToolProbes(o);
        const ProbeResult* roc = findProbe(r, "rocminfo");
        QVERIFY(roc);
        qInfo("real rocminfo: %s", describe(r).constData());
        QVERIFY2(roc->status == ProbeStatus::Ok || roc->status == ProbeStatus::Failed,
                 describe(r).constData());
        if (roc->status == ProbeStatus::Failed)
            QVERIFY2(roc->detail.find("no device") == 0, roc->detail.c_str());
    }
};

QTEST_GUILESS_MAIN(TestProbeTools)
#include "test_probe_tools.moc"
