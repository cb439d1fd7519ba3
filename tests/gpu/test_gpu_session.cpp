// Issue 31 through the session: `--gpu` on launch (and its bad values before anything is
// done), and proof per card: a stack that passed its smoke test on one GPU of a PC counts
// as passed for that GPU only. The recorded RTX 4090 + RTX 3060 PC (pcs/rtx4090-rtx3060).

#include "core/evidence/evidence.h"
#include "core/snapshot.h"
#include "tests/support/cli_runner.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <set>

using namespace sp;
using nlohmann::json;
using sp::test::CliRun;
using sp::test::runCliInProcess;

namespace {

const std::string kPcs = GPU_PCS_DIR;

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

std::optional<int> indexOf(const HardwareSnapshot& snap, const std::string& name)
{
    for (std::size_t i = 0; i < snap.gpus.size(); ++i)
        if (snap.gpus[i].name.find(name) != std::string::npos)
            return int(i);
    return std::nullopt;
}

std::set<QString> filesIn(const QString& dir)
{
    std::set<QString> out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext())
        out.insert(it.next());
    return out;
}

} // namespace

class TestGpuSession : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    std::string m_snapshot;

    CliRun plan(const std::string& gpu)
    {
        return runCliInProcess({QStringLiteral("plan"), QStringLiteral("--workload"),
                                QStringLiteral("pytorch"), QStringLiteral("--hardware"),
                                q(m_snapshot), QStringLiteral("--gpu"), q(gpu),
                                QStringLiteral("--json")});
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("STACKPILOT_HOME", m_home.path().toUtf8());
        m_snapshot = m_home.filePath(QStringLiteral("pc.json")).toStdString();
        const std::string dir = kPcs + "/rtx4090-rtx3060/";
        const auto r = runCliInProcess(
            {QStringLiteral("snapshot"), QStringLiteral("import"), q(dir + "nvidia-smi.txt"),
             q(dir + "lspci.txt"), q(dir + "vulkaninfo.txt"), QStringLiteral("--os"),
             QStringLiteral("linux"), QStringLiteral("-o"), q(m_snapshot)});
        QVERIFY2(r.rc == 0, r.err.c_str());
    }

    void launchTakesGpuAndChecksItFirst()
    {
        const auto launch = [&](const char* gpu) {
            return runCliInProcess({QStringLiteral("launch"), QStringLiteral("pytorch-cuda-linux"),
                                    QStringLiteral("--hardware"), q(m_snapshot),
                                    QStringLiteral("--gpu"), QString::fromLatin1(gpu),
                                    QStringLiteral("--dry-run"), QStringLiteral("--json")});
        };
        const auto bad = launch("7");
        QCOMPARE(bad.rc, 2);
        QVERIFY2(bad.err.find("--gpu: ") != std::string::npos &&
                     bad.err.find("past the end") != std::string::npos,
                 bad.err.c_str());
        QCOMPARE(std::count(bad.err.begin(), bad.err.end(), '\n'), 1L);
        QVERIFY(bad.out.empty());
        // Each card pinned by its own number in CUDA's PCI-bus order (pcs/manifest.json).
        for (const auto& [gpu, index] : {std::pair{"RTX 4090", "1"}, std::pair{"RTX 3060", "0"}}) {
            const auto ok = launch(gpu);
            QVERIFY2(ok.rc == 0, (ok.out + ok.err).c_str());
            QVERIFY2(ok.out.find(std::string("\"CUDA_VISIBLE_DEVICES\": \"") + index + "\"") !=
                             std::string::npos ||
                         ok.out.find(std::string("CUDA_VISIBLE_DEVICES=") + index) !=
                             std::string::npos,
                     ok.out.c_str());
        }
    }

    // Bad --gpu values stop `run` before anything: one line, nothing written in the home.
    void runRefusesABadGpuBeforeAnything()
    {
        const auto filesBefore = filesIn(m_home.path());
        for (const auto& [gpu, says] :
             {std::pair{"", "names nothing"}, std::pair{"Voodoo5", "names no GPU of this PC"},
              std::pair{"9", "past the end"},
              std::pair{"NVIDIA GeForce RTX", "give the bus address"}}) {
            const auto r = runCliInProcess({QStringLiteral("run"), QStringLiteral("pytorch"),
                                            QStringLiteral("--hardware"), q(m_snapshot),
                                            QStringLiteral("--gpu"), QString::fromLatin1(gpu),
                                            QStringLiteral("--yes")});
            QCOMPARE(r.rc, 2);
            QVERIFY2(r.err.find(says) != std::string::npos, r.err.c_str());
            QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1L);
            QVERIFY(r.out.empty());
        }
        QCOMPARE(filesIn(m_home.path()), filesBefore);
    }

    // The GPU chosen in settings is gone: `run` says so in one line naming it, and goes on
    // with the default rule (here to the unknown profile that ends it before installing).
    void runNamesAGoneGpuOnce()
    {
        const auto settings = m_home.filePath(QStringLiteral("config/settings.json"));
        QVERIFY(QDir().mkpath(m_home.filePath(QStringLiteral("config"))));
        std::ofstream(settings.toStdString())
            << json{{"workloads",
                     {{"pytorch",
                       {{"gpu",
                         {{"pci_bus", "0000:99:00.0"},
                          {"pci_id", "1002:744c"},
                          {"name", "AMD Radeon RX 7900 XTX"}}}}}}}}
                   .dump();
        const auto r = runCliInProcess({QStringLiteral("run"), QStringLiteral("pytorch"),
                                        QStringLiteral("--hardware"), q(m_snapshot),
                                        QStringLiteral("--profile"),
                                        QStringLiteral("fixture-no-such-profile")});
        QFile::remove(settings);
        const std::string line = "AMD Radeon RX 7900 XTX at 0000:99:00.0, is not in this PC";
        std::size_t seen = 0;
        for (auto at = r.err.find(line); at != std::string::npos; at = r.err.find(line, at + 1))
            ++seen;
        QVERIFY2(seen == 1, r.err.c_str());
        QVERIFY2(r.err.find("default GPU") != std::string::npos, r.err.c_str());
    }

    void aPassOnOneCardIsNoPassOnTheOther()
    {
        auto snap = loadSnapshotFile(m_snapshot);
        QVERIFY(snap.ok());
        const auto rtx4090 = indexOf(*snap, "4090");
        QVERIFY(rtx4090);
        EvidenceRecord r;
        r.kind = EvidenceKind::Verify;
        r.at = "2026-11-27T10:00:00Z";
        r.machine = fingerprintOf(*snap, rtx4090);
        r.workload = "pytorch";
        r.profile = "pytorch-cuda-linux";
        r.catalog = "shipped";
        r.passed = true;
        r.seconds = 0.5;
        QVERIFY(EvidenceStore().add(r).ok());

        const auto on4090 = plan("RTX 4090");
        QVERIFY2(on4090.rc == 0, on4090.err.c_str());
        const json a = json::parse(on4090.out);
        QVERIFY2(a.value("local_evidence", "").find("passed") != std::string::npos,
                 on4090.out.c_str());
        const auto on3060 = plan("RTX 3060");
        QVERIFY2(on3060.rc == 0, on3060.err.c_str());
        const json b = json::parse(on3060.out);
        QVERIFY2(b.value("local_evidence", "").find("passed") == std::string::npos,
                 b.value("local_evidence", "").c_str());
    }
};

QTEST_GUILESS_MAIN(TestGpuSession)
#include "test_gpu_session.moc"
