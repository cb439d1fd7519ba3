// `stackpilot-cli run`: what it refuses before touching anything. The whole path
// (install, launch, known issue, stop) is tested against the window's flow in
// tests/gui/test_gui_flow.cpp (cliRunAndTheWindowGiveTheSameEvents).

#include "support/cli_runner.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>

namespace {

const char* kOtherOs = R"({"schema": 1, "os": {"family": "windows", "version": "10.0.19045"},
 "home": {"path": "C:\\Users\\u", "filesystem": "ntfs"},
 "gpus": [{"vendor": "amd", "name": "AMD Radeon RX 6750 XT", "pci_id": "1002:73df",
           "gfx": "gfx1031", "vram_mb": 12288, "integrated": false}],
 "runtimes": [], "probes": []})";

const char* kThisOs = R"({"schema": 1, "os": {"family": "linux", "version": "6.8"},
 "home": {"path": "/home/u", "filesystem": "ext4"},
 "gpus": [{"vendor": "amd", "name": "AMD Radeon RX 7900 XTX", "pci_id": "1002:744c",
           "gfx": "gfx1100", "vram_mb": 24576, "integrated": false}],
 "runtimes": [], "probes": []})";

} // namespace

class TestRunCli : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString write(const char* name, const char* text)
    {
        const QString path = m_dir.filePath(QString::fromUtf8(name));
        std::ofstream(path.toStdString()) << text;
        return path;
    }

    std::size_t homeEntries() const
    {
        const std::filesystem::path home = qEnvironmentVariable("STACKPILOT_HOME").toStdString();
        std::size_t n = 0;
        std::error_code ec;
        // StackPilot's own log (logs/stackpilot.log) records every run; nothing else may.
        for (auto it = std::filesystem::recursive_directory_iterator(home, ec);
             it != std::filesystem::recursive_directory_iterator(); ++it)
            n += it->is_regular_file() && it->path().filename() != "stackpilot.log" ? 1 : 0;
        return n;
    }

private slots:
    void refusesBeforeTouchingAnything()
    {
        const std::size_t before = homeEntries();
        auto r =
            sp::test::runCliInProcess({QStringLiteral("run"), QStringLiteral("no-such-workload")});
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.find("unknown workload no-such-workload") != std::string::npos,
                 r.err.c_str());

        r = sp::test::runCliInProcess({QStringLiteral("run"), QStringLiteral("sdnext"),
                                       QStringLiteral("--hardware"), write("win.json", kOtherOs)});
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.find("snapshot is of a windows machine") != std::string::npos,
                 r.err.c_str());

        // Without --yes and without a terminal nothing is installed. The real process: its
        // stdin is QProcess's pipe, never a terminal, whatever the test's own stdin is.
        r = sp::test::runCliBinary({QStringLiteral("run"), QStringLiteral("comfyui"),
                                    QStringLiteral("--json"), QStringLiteral("--hardware"),
                                    write("linux.json", kThisOs)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.find("pass --yes") != std::string::npos, r.err.c_str());
        QVERIFY2(r.out.find("\"event\":\"error\"") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("runtime_started") == std::string::npos, r.out.c_str());
        QCOMPARE(homeEntries(), before);
    }
};

QTEST_GUILESS_MAIN(TestRunCli)
#include "test_run_cli.moc"
