// `stackpilot-cli snapshot import` end to end, in process (the verb's parsing, messages
// and exit codes; no signal, crash or hang is at stake): pasted outputs in, a snapshot out
// that `plan --hardware` plans from.

#include "support/cli_runner.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

using nlohmann::json;
using sp::test::runCliInProcess;

namespace {

QString corpus(const char* file)
{
    return QStringLiteral(IMPORT_CORPUS_DIR "/") + QString::fromLatin1(file);
}

} // namespace

class TestSnapshotImportCli : public QObject
{
    Q_OBJECT

private slots:
    void importThenPlan()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("snap.json"));
        // A Windows hipInfo paste cut before its arch line, and a quoted clinfo: two files.
        auto r = runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"),
                                  corpus("hipinfo-windows-ollamaforamd35-vega-name-only.txt"),
                                  corpus("clinfo-quoted-rustgputools45-gfx1030.txt"),
                                  QStringLiteral("-o"), out});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("gfx900") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("gfx1030") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("clinfo-quoted-rustgputools45-gfx1030.txt: clinfo") !=
                     std::string::npos,
                 r.out.c_str());
        QVERIFY(r.out.find("OS: windows") != std::string::npos);

        std::ifstream in(out.toStdString());
        const json snap = json::parse(in);
        QCOMPARE(snap["probes"].size(), std::size_t(2));
        QCOMPARE(snap["imported_from"].size(), std::size_t(2));
        QCOMPARE(snap["gpus"].size(), std::size_t(2));
        QCOMPARE(snap["gpus"][0]["gfx"].get<std::string>(), std::string("gfx900"));
        QCOMPARE(snap["gpus"][0]["sources"], json({"import:hipinfo", "import:pci-table"}));
        QCOMPARE(snap["gpus"][1]["gfx"].get<std::string>(), std::string("gfx1030"));
        QCOMPARE(snap["gpus"][1]["pci_id"].get<std::string>(), std::string("1002:73bf"));
        QCOMPARE(snap["gpus"][1]["sources"][0].get<std::string>(), std::string("import:clinfo"));
        // Only the hipInfo paste says which OS; the clinfo paste says nothing against it.
        QCOMPARE(snap["os"]["family"].get<std::string>(), std::string("windows"));

        auto plan = runCliInProcess({QStringLiteral("plan"), QStringLiteral("--workload"),
                                     QStringLiteral("sdnext"), QStringLiteral("--hardware"), out,
                                     QStringLiteral("--json")});
        QVERIFY2(plan.rc == 0, plan.err.c_str());
        const json p = json::parse(plan.out);
        QCOMPARE(p["gpu"].get<int>(), 0);
        QVERIFY(p.contains("alternatives"));
    }

    void jsonToStdoutMixesFiles()
    {
        auto r = runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"),
                                  corpus("nvidia-smi-q-k8s390-t4.txt"),
                                  corpus("rocminfo-zluda313-gfx1100-fenced-partial.txt"),
                                  QStringLiteral("--json")});
        QVERIFY2(r.rc == 0, r.err.c_str());
        const json snap = json::parse(r.out);
        QCOMPARE(snap["schema"].get<int>(), 1);
        QCOMPARE(snap["gpus"].size(), std::size_t(2));
        QCOMPARE(snap["gpus"][0]["compute_capability"].get<std::string>(), std::string("7.5"));
        QCOMPARE(snap["gpus"][1]["gfx"].get<std::string>(), std::string("gfx1100"));
        QCOMPARE(snap["probes"].size(), std::size_t(2));
        // rocminfo exists on Linux only; the nvidia-smi report says nothing of its OS.
        QCOMPARE(snap["os"]["family"].get<std::string>(), std::string("linux"));
        // A Windows nvidia-smi (WDDM) with a Linux rocminfo: no OS is claimed.
        auto mixed = runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"),
                                      corpus("nvidia-smi-localgpt14-quoted-gtx1080ti.txt"),
                                      corpus("rocminfo-zluda313-gfx1100-fenced-partial.txt"),
                                      QStringLiteral("--json")});
        QVERIFY(json::parse(mixed.out)["os"]["family"].get<std::string>().empty());
        // --os settles it.
        auto given = runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"),
                                      corpus("nvidia-smi-q-k8s390-t4.txt"), QStringLiteral("--os"),
                                      QStringLiteral("linux"), QStringLiteral("--json")});
        QCOMPARE(json::parse(given.out)["os"]["family"].get<std::string>(), std::string("linux"));
    }

    void errorsNameTheFile()
    {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("nope.txt"));
        auto r = runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"), missing});
        QCOMPARE(r.rc, 3);
        QCOMPARE(r.err, "stackpilot-cli snapshot: " + missing.toStdString() + ": no such file\n");

        r = runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"), dir.path()});
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find(dir.path().toStdString() + ": is a directory") != std::string::npos,
                 r.err.c_str());

        const QString prose = dir.filePath(QStringLiteral("prose.txt"));
        std::ofstream(prose.toStdString()) << "it does not work, help\n";
        r = runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"), prose});
        QCOMPARE(r.rc, 1);
        QVERIFY(r.err.find("no GPU found in " + prose.toStdString()) != std::string::npos);

        r = runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("export"), prose});
        QCOMPARE(r.rc, 2);
        r = runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"), prose,
                             QStringLiteral("--os"), QStringLiteral("macos")});
        QCOMPARE(r.rc, 2);
    }

    void outputReplacesOnlyItsOwnFile()
    {
        QTemporaryDir dir;
        const QString mine = dir.filePath(QStringLiteral("notes.json"));
        std::ofstream(mine.toStdString()) << "{\"mine\": true}\n";
        const QString paste = corpus("lspci-nn-akash84-rtx3060.txt");
        auto r = runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"), paste,
                                  QStringLiteral("-o"), mine});
        QCOMPARE(r.rc, 2);
        std::ifstream kept(mine.toStdString());
        QCOMPARE(std::string(std::istreambuf_iterator<char>(kept), {}),
                 std::string("{\"mine\": true}\n"));

        const QString out = dir.filePath(QStringLiteral("snap.json"));
        QCOMPARE(runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"), paste,
                                  QStringLiteral("-o"), out})
                     .rc,
                 0);
        // Its own output it may replace.
        QCOMPARE(runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"), paste,
                                  QStringLiteral("-o"), out})
                     .rc,
                 0);
    }
};

QTEST_GUILESS_MAIN(TestSnapshotImportCli)
#include "test_snapshot_import_cli.moc"
