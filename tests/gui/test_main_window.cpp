#include "app/gui/main_window.h"
#include "detectors/fake_sysfs.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using sp::test::FakeSysfs;

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void showsDetectedGpusWithoutBlocking()
    {
        QTemporaryDir tmp;
        FakeSysfs sys(std::filesystem::path(tmp.path().toStdString()) / "sys");
        // A gfx90c APU (Renoir/Cezanne, 1002:1638) plus an RX 6700 XT (1002:73df).
        FakeSysfs::Card apu;
        apu.index = 0;
        apu.bus = "0000:05:00.0";
        apu.device = "0x1638";
        apu.revision = "0xc5";
        apu.vramBytes = "536870912";
        apu.gttBytes = "16777216000";
        apu.bootVga = "0";
        sys.addCard(apu);
        FakeSysfs::Card dgpu;
        dgpu.index = 1;
        dgpu.bus = "0000:03:00.0";
        dgpu.device = "0x73df";
        dgpu.revision = "0xc1";
        dgpu.vramBytes = "12868124672";
        dgpu.gttBytes = "16777216000";
        sys.addCard(dgpu);
        sys.addCpuNode(0);
        sys.addGpuNode(1, 90012, 0x1638, 0x500, 16);
        sys.addGpuNode(2, 100301, 0x73df, 0x300, 80);

        sp::gui::MainWindow w;
        w.setDetectCommand(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"),
                           {QStringLiteral("detect"), QStringLiteral("--json"),
                            QStringLiteral("--no-probes"), QStringLiteral("--sysfs-root"),
                            QString::fromStdString(sys.root().string())});
        w.resize(820, 360);
        w.show();

        // The event loop must keep turning while detection runs in its child process.
        int ticks = 0;
        QTimer timer;
        timer.setInterval(1);
        connect(&timer, &QTimer::timeout, this, [&ticks] { ++ticks; });
        timer.start();

        QSignalSpy done(&w, &sp::gui::MainWindow::detectionFinished);
        w.startDetection();
        // startDetection only starts the child: nothing is finished when it returns,
        // and the timer keeps firing while the child works.
        QCOMPARE(done.count(), 0);
        QCOMPARE(w.gpuRowCount(), 0);
        QVERIFY(done.wait(20000));
        QVERIFY(ticks > 0);
        QCOMPARE(w.gpuRowCount(), 2);
        QCOMPARE(w.statusText(), QStringLiteral("2 GPU(s) found."));
        const QStringList apuRow = w.gpuRow(0), dgpuRow = w.gpuRow(1);
        QCOMPARE(apuRow.value(1), QStringLiteral("gfx90c"));
        QCOMPARE(apuRow.value(3), QStringLiteral("yes"));
        QCOMPARE(dgpuRow.value(0), QStringLiteral("AMD Radeon RX 6700 XT"));
        QCOMPARE(dgpuRow.value(1), QStringLiteral("gfx1031"));
        QCOMPARE(dgpuRow.value(2), QStringLiteral("12.0 GiB"));
        QCOMPARE(dgpuRow.value(3), QStringLiteral("no"));

        const QString shot = QStringLiteral(STACKPILOT_TEST_BINARY_DIR "/main_window.png");
        QVERIFY(w.grab().save(shot));
    }

    void reportsAFailedDetector()
    {
        sp::gui::MainWindow w;
        w.setDetectCommand(
            QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"),
            {QStringLiteral("detect"), QStringLiteral("--probe-timeout"), QStringLiteral("soon")});
        QSignalSpy done(&w, &sp::gui::MainWindow::detectionFinished);
        w.startDetection();
        QVERIFY(done.wait(20000));
        QCOMPARE(w.gpuRowCount(), 0);
        QVERIFY2(w.statusText().startsWith(QStringLiteral("Detection failed:")),
                 qPrintable(w.statusText()));
    }

    void reportsAMissingCli()
    {
        sp::gui::MainWindow w;
        w.setDetectCommand(QStringLiteral("/nonexistent/stackpilot-cli"), {});
        QSignalSpy done(&w, &sp::gui::MainWindow::detectionFinished);
        w.startDetection();
        QVERIFY(done.wait(20000));
        QVERIFY2(w.statusText().startsWith(QStringLiteral("Could not start")),
                 qPrintable(w.statusText()));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
