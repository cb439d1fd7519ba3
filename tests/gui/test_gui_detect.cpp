// Detection in the window: the real stackpilot-cli in a child process on a fake sysfs
// tree (an APU and an RX 6700 XT), while the GUI thread keeps turning; the discrete
// card is the chosen one; a failing or missing CLI is reported, not hidden.

#include "app/gui/controllers/app_controller.h"
#include "app/gui/i18n.h"
#include "app/gui/widgets/gpu_panel.h"
#include "app/gui/widgets/main_window.h"
#include "fake_machine.h"

#include <QFile>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using sp::gui::AppController;
using sp::test::addMachine;
using sp::test::FakeSysfs;

namespace {

AppController::Options cliOptions(sp::DetectOptions detect = {})
{
    AppController::Options o;
    o.cliProgram = QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli");
    o.detect = std::move(detect);
    return o;
}

} // namespace

class TestGuiDetect : public QObject
{
    Q_OBJECT
private slots:
    // The window's words as a user reads them: the English plural forms too.
    void initTestCase() { sp::gui::setLanguage("en"); }
    void detectsInAChildWithoutBlocking()
    {
        QTemporaryDir tmp;
        FakeSysfs sys(std::filesystem::path(tmp.path().toStdString()) / "sys");
        addMachine(sys);
        sp::DetectOptions detect;
        detect.probes = false;
        detect.sysfsRoot = sys.root().string();
        AppController app(cliOptions(detect));
        sp::gui::MainWindow w(&app);
        w.show();
        QSignalSpy detected(&app, &AppController::detected);
        app.start();
        QCOMPARE(detected.count(), 0); // start() only started the child
        QCOMPARE(w.gpuPanel()->headline(), QStringLiteral("Detecting your GPU…"));
        QVERIFY(detected.wait(20000)); // delivered by the event loop, after start() returned
        QCOMPARE(app.gpus().rowCount(), 2);
        QCOMPARE(app.gpus().chosenRow(), std::optional<int>(1));
        QCOMPARE(w.gpuPanel()->headline(), QStringLiteral("AMD Radeon RX 6700 XT"));
        QCOMPARE(app.gpus().index(0, sp::gui::GpuTableModel::Target).data().toString(),
                 QStringLiteral("gfx90c"));
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("2 GPUs found."));
        QVERIFY(QTest::qWaitFor([&] { return app.phase() == AppController::Phase::Ready; }, 20000));
    }

    void reportsAFailedDetector()
    {
        // A detector that fails with a reason on stderr.
        QTemporaryDir tmp;
        const QString failing = tmp.filePath(QStringLiteral("failing-cli"));
        {
            QFile f(failing);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(
                "#!/bin/sh\necho 'stackpilot-cli detect: --probe-timeout: the driver hung' >&2\n"
                "exit 1\n");
        }
        QFile::setPermissions(failing, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        auto o = cliOptions();
        o.cliProgram = failing;
        AppController app(o);
        sp::gui::MainWindow w(&app);
        QSignalSpy detected(&app, &AppController::detected);
        app.start();
        QVERIFY(detected.wait(20000));
        QVERIFY2(app.detectionError().contains(QStringLiteral("--probe-timeout")),
                 qPrintable(app.detectionError()));
        QCOMPARE(w.gpuPanel()->headline(), QStringLiteral("Detection failed"));
    }

    void reportsAMissingCli()
    {
        auto o = cliOptions();
        o.cliProgram = QStringLiteral("/nonexistent/stackpilot-cli");
        AppController app(o);
        QSignalSpy detected(&app, &AppController::detected);
        app.start();
        QVERIFY(detected.wait(20000));
        QVERIFY2(app.detectionError().startsWith(QStringLiteral("Could not start")),
                 qPrintable(app.detectionError()));
    }
};

QTEST_MAIN(TestGuiDetect)
#include "test_gui_detect.moc"
