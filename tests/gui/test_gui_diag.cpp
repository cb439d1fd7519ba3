// Help ▸ Export diagnostics… in the window: the dialog shows the review list that
// `stackpilot-cli diag export --list` prints for the same machine, and saves the bundle
// the CLI's `diag export` writes. StackPilot's own log is the one entry that differs: each
// CLI run appends its own line to it.

#include "app/gui/controllers/app_controller.h"
#include "app/gui/widgets/diagnostics_dialog.h"
#include "app/gui/widgets/main_window.h"
#include "diag/diag_fixture.h"
#include "fake_machine.h"
#include "gui_fixture.h"

#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTreeWidget>
#include <sstream>

using namespace sp;
using namespace sp::test;
using gui::AppController;

namespace {

struct Cli
{
    int code = -1;
    std::string out, err;
};

Cli cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"), args);
    p.waitForFinished(120000);
    return {p.exitCode(), p.readAllStandardOutput().toStdString(),
            p.readAllStandardError().toStdString()};
}

// The reports list every entry: the app log's line goes, the rest must be equal.
std::string withoutAppLog(const std::string& text)
{
    std::istringstream in(text);
    std::string out;
    for (std::string line; std::getline(in, line);)
        if (line.find("stackpilot.log") == std::string::npos)
            out += line + "\n";
    return out;
}

void dropAppLog(nlohmann::json& j)
{
    if (j.is_array()) {
        for (auto it = j.begin(); it != j.end();) {
            if (it->is_object() && it->value("name", "") == "logs/stackpilot.log")
                it = j.erase(it);
            else
                dropAppLog(*it++);
        }
    } else if (j.is_object()) {
        for (auto& [k, v] : j.items())
            dropAppLog(v);
    }
}

} // namespace

class TestGuiDiag : public QObject
{
    Q_OBJECT
private slots:
    void exportShowsTheCliListAndSavesTheSameBundle()
    {
        GuiWorld w;
        const fs::path snapshotFile = w.root / "machine.json";
        std::ofstream(snapshotFile) << toJson(GuiWorld::snapshot()).dump(2);
        const QString snap = QString::fromStdString(snapshotFile.string());
        const QString catalog = QString::fromStdString(w.catalogDir.string());
        // A secret in the environment the window and the CLI both report.
        const char* token = "hf_abcdefghijklmnopqrstuvwxyz0123";
        qputenv("HF_TOKEN", token);
        // An installed runtime (a receipt to ship) and a launch with a secret in its log.
        const auto installed = installOffline("gui-rt-1", w.server.url("/rt/gui-runtime.tar.gz"),
                                              w.archive, w.root / "offline");
        QVERIFY2(installed.ok(), installed.ok() ? "" : installed.error().message.c_str());
        const FixedClock clock(std::chrono::system_clock::from_time_t(1767323045));
        recordLaunch("gui-a", "guiwork",
                     std::string("starting\nAuthorization: Bearer ") + token + "\nfailed\n", clock);

        AppController::Options o;
        o.hardwareFile = snapshotFile;
        o.catalogDirs = {w.catalogDir.string()};
        AppController app(o);
        gui::MainWindow window(&app);
        window.show();
        app.start();
        QVERIFY(waitFor([&] { return app.phase() == AppController::Phase::Ready; }));
        app.setWorkload(QStringLiteral("guiwork"));
        window.diagnosticsAction()->trigger();
        auto* dialog = window.findChild<gui::DiagnosticsDialog*>();
        QVERIFY(dialog);
        QVERIFY(waitFor([&] { return dialog->collected(); }, 60000));

        const QStringList common = {QStringLiteral("--hardware"),    snap,
                                    QStringLiteral("--catalog-dir"), catalog,
                                    QStringLiteral("--workload"),    QStringLiteral("guiwork")};
        const Cli listed = cli(QStringList{QStringLiteral("diag"), QStringLiteral("export"),
                                           QStringLiteral("--list"), QStringLiteral("--json")} +
                               common);
        QVERIFY2(listed.code == 0, listed.err.c_str());
        const auto entries = nlohmann::json::parse(listed.out).at("entries");
        QCOMPARE(dialog->list()->topLevelItemCount(), int(entries.size()));
        int compared = 0;
        for (int i = 0; i < dialog->list()->topLevelItemCount(); ++i) {
            const QTreeWidgetItem* row = dialog->list()->topLevelItem(i);
            const auto& e = entries.at(std::size_t(i));
            QCOMPARE(row->text(0).toStdString(), e.at("name").get<std::string>());
            if (e.at("name") == "logs/stackpilot.log")
                continue;
            QCOMPARE(row->data(1, Qt::UserRole).toULongLong(), e.at("bytes").get<qulonglong>());
            ++compared;
        }
        QVERIFY(compared >= 4); // reports, the receipt, the launch log and its record

        const fs::path ours = w.root / "window.zip";
        const fs::path theirs = w.root / "cli.zip";
        dialog->setSaveAs([&](const QString&) { return QString::fromStdString(ours.string()); });
        QSignalSpy saved(dialog, &gui::DiagnosticsDialog::saved);
        QVERIFY(!dialog->showFileButton()->isVisible());
        QTest::mouseClick(dialog->saveButton(), Qt::LeftButton);
        QVERIFY(saved.wait(30000));
        // Issue 33: once saved, where it is and where to send it.
        QVERIFY(dialog->showFileButton()->isVisible());
        const Cli exported =
            cli(QStringList{QStringLiteral("diag"), QStringLiteral("export"), QStringLiteral("-o"),
                            QString::fromStdString(theirs.string())} +
                common);
        QVERIFY2(exported.code == 0, exported.err.c_str());
        auto a = unzipAll(readAll(ours));
        auto b = unzipAll(readAll(theirs));
        QVERIFY(a.count("report.json") && a.count("report.md"));
        for (const auto& [name, bytes] : a)
            QVERIFY2(bytes.find(token) == std::string::npos, name.c_str());
        a.erase("logs/stackpilot.log");
        b.erase("logs/stackpilot.log");
        for (const auto& [name, bytes] : b)
            QVERIFY2(a.count(name), ("only in the CLI's bundle: " + name).c_str());
        QCOMPARE(a.size(), b.size());
        for (auto* bundle : {&a, &b}) {
            (*bundle)["report.md"] = withoutAppLog((*bundle)["report.md"]);
            auto report = nlohmann::json::parse((*bundle)["report.json"]);
            dropAppLog(report);
            (*bundle)["report.json"] = report.dump(1);
        }
        for (const auto& [name, bytes] : a)
            QVERIFY2(b.count(name) && b.at(name) == bytes, name.c_str());
    }

    // The window detects this machine: the bundle does too, on its worker thread, even
    // when asked for before the window's own detection has finished.
    void exportOfADetectedMachineDetectsIt()
    {
        GuiWorld w;
        FakeSysfs sys(w.root / "sys");
        addMachine(sys);
        AppController::Options o;
        o.cliProgram = QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli");
        o.detect.probes = false;
        o.detect.sysfsRoot = sys.root().string();
        AppController app(o);
        gui::MainWindow window(&app);
        window.show();
        app.start();
        window.diagnosticsAction()->trigger(); // before detection has reported
        auto* dialog = window.findChild<gui::DiagnosticsDialog*>();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitFor([&] { return dialog->collected(); }, 60000));
        const fs::path file = w.root / "detected.zip";
        dialog->setSaveAs([&](const QString&) { return QString::fromStdString(file.string()); });
        QSignalSpy saved(dialog, &gui::DiagnosticsDialog::saved);
        QTest::mouseClick(dialog->saveButton(), Qt::LeftButton);
        QVERIFY(saved.wait(30000));
        const auto report = nlohmann::json::parse(unzipAll(readAll(file)).at("report.json"));
        QCOMPARE(report.at("hardware_source").get<std::string>(), std::string("detected"));
        const auto& gpus = report.at("hardware").at("gpus");
        QCOMPARE(gpus.size(), std::size_t{2});
        QVERIFY2(
            std::any_of(gpus.begin(), gpus.end(),
                        [](const nlohmann::json& g) { return g.value("gfx", "") == "gfx1031"; }),
            gpus.dump().c_str());
    }
};

QTEST_MAIN(TestGuiDiag)
#include "test_gui_diag.moc"
