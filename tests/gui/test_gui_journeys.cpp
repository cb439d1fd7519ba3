// The window's failures as a user meets them, offscreen, with real parts: an install
// that fails and succeeds on Retry from the loopback server, a detection that fails
// (Retry, then the CPU stacks), a workload that crashes (a card with the way forward and
// the diagnostics export) and is then stopped (no card), and a profile the user or a
// fix chose (labelled so). After each, no text in the window names an id, a seed, a
// preference or an issue number.

#include "app/common/diag/cause_words.h"
#include "app/gui/widgets/console_view.h"
#include "app/gui/widgets/diagnostics_dialog.h"
#include "app/gui/widgets/failure_card.h"
#include "app/gui/widgets/gpu_panel.h"
#include "app/gui/widgets/main_window.h"
#include "app/gui/widgets/profile_card.h"
#include "app/gui/widgets/profiles_menu.h"
#include "core/format.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "gui_fixture.h"
#include "installers/uninstall.h"
#include "visible_text.h"

#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QPushButton>
#include <QStatusBar>
#include <fstream>

using namespace sp;
using namespace sp::test;
using gui::AppController;
using gui::FailureNotice;
using Phase = AppController::Phase;

namespace {

struct Ui : TestWindow
{
    using TestWindow::TestWindow;
    // Every download of the archive arrives damaged; the primary button is pressed and
    // the install's failure card comes up. False when it does not.
    bool failAnInstall(GuiWorld& w)
    {
        w.server.setFault("/rt/gui-runtime.tar.gz", Fault::corrupt(1000, -1));
        if (!waitFor([&] { return app->phase() == Phase::Ready; }))
            return false;
        choose(QStringLiteral("guiwork"));
        QTest::mouseClick(primary(), Qt::LeftButton);
        return waitFor([&] { return window->failureCard()->isVisible(); }, 60000);
    }
    // No maintainer's word anywhere the user can read.
    void checkPlainWords(const char* when)
    {
        window->ensureBuilt();
        // The ids come from the catalog, which may still be loading when detection fails.
        QVERIFY(waitFor([&] { return app->catalog() != nullptr; }));
        const QStringList bad = internalWords(visibleTexts(window.get()), *app->catalog());
        QVERIFY2(bad.isEmpty(), qPrintable(QStringLiteral("%1: %2").arg(
                                    QLatin1String(when), bad.join(QStringLiteral(" | ")))));
    }
};

// A window whose detection child fails (GuiWorld::failingDetector).
std::unique_ptr<AppController> failingDetection(const GuiWorld& w)
{
    AppController::Options o;
    o.cliProgram = w.failingDetector();
    o.catalogDirs = {w.catalogDir};
    return std::make_unique<AppController>(o);
}

} // namespace

class TestGuiJourneys : public QObject
{
    Q_OBJECT
private slots:
    void installFailsThenRetrySucceeds()
    {
        GuiWorld w;
        Ui ui(w.controller());
        QVERIFY(ui.failAnInstall(w)); // until the test clears the fault
        gui::FailureCard* card = ui.window->failureCard();
        QCOMPARE(ui.app->phase(), Phase::Ready);
        QCOMPARE(card->titleText(), QStringLiteral("The install did not finish"));
        // The words of the typed cause (a digest mismatch), not of the message's text.
        QCOMPARE(card->causeText(), causeWords(Cause::Checksum));
        QVERIFY2(card->causeText().contains(QStringLiteral("the file is not the one expected")),
                 qPrintable(card->causeText()));
        QVERIFY(card->button(FailureNotice::Action::Retry));
        QVERIFY(card->button(FailureNotice::Action::Discard));
        // The server was reached: the proxy is not the question.
        QVERIFY(!card->button(FailureNotice::Action::ProxySettings));
        QVERIFY(card->button(FailureNotice::Action::ExportDiagnostics));
        QVERIFY(!fs::exists(w.runtimeDir("gui-rt-1")));
        ui.checkPlainWords("install failed");

        w.server.clearFaults();
        QTest::mouseClick(card->button(FailureNotice::Action::Retry), Qt::LeftButton);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Running; }, 60000));
        QVERIFY(fs::exists(w.runtimeDir("gui-rt-1") / "bin" / "tool.bin"));
        QVERIFY(!card->isVisible());
        ui.checkPlainWords("running after retry");
        QTest::mouseClick(ui.primary(), Qt::LeftButton);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }, 30000));
        QVERIFY(!card->isVisible()); // a Stop is not a failure
    }

    // A failed install is not an interrupted one: its card offers Retry and Discard, the
    // button says Retry, and Discard leaves no partial download and no journal.
    void aFailedInstallOffersRetryAndDiscard()
    {
        GuiWorld w;
        Ui ui(w.controller());
        QVERIFY(ui.failAnInstall(w));
        gui::FailureCard* card = ui.window->failureCard();
        QVERIFY(card->button(FailureNotice::Action::Retry));
        QVERIFY(card->button(FailureNotice::Action::Discard));
        // The journal says failed, not interrupted: Retry, never "Resume".
        QVERIFY(waitFor([&] { return ui.app->pendingFailed(); }));
        QCOMPARE(ui.primaryText(), QStringLiteral("Retry install"));
        const fs::path journal = pendingInstallFile(paths::dataDir());
        QVERIFY(fs::exists(journal));
        // A partial download as an interrupted transfer leaves it, under the downloader's
        // own name for this artifact.
        const fs::path partial = paths::cacheDir() / "downloads" / "partial" /
                                 (Sha256::ofBytes(w.archive.data(), w.archive.size()) + ".part");
        fs::create_directories(partial.parent_path());
        std::ofstream(partial) << "partial bytes";
        QTest::mouseClick(card->button(FailureNotice::Action::Discard), Qt::LeftButton);
        QVERIFY(waitFor([&] { return !fs::exists(journal); }));
        QVERIFY(!fs::exists(partial));
        QVERIFY(!card->isVisible());
        QVERIFY(!ui.app->pendingInstall());
        QVERIFY(waitFor([&] { return ui.primaryText() == QStringLiteral("Install and launch"); }));
        QVERIFY(!fs::exists(w.runtimeDir("gui-rt-1")));
    }

    // The card's words come from the failure's typed cause, the same words the CLI prints
    // (test_failure_cause): a download the server no longer has, a server that is down.
    void theCardSaysTheCauseOfEachFault()
    {
        {
            GuiWorld w;
            w.server.setFault("/rt/gui-runtime.tar.gz", Fault::statusFor(404, -1));
            Ui ui(w.controller());
            QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
            ui.choose(QStringLiteral("guiwork"));
            QTest::mouseClick(ui.primary(), Qt::LeftButton);
            gui::FailureCard* card = ui.window->failureCard();
            QVERIFY(waitFor([&] { return card->isVisible(); }, 60000));
            QCOMPARE(card->causeText(), causeWords(Cause::NotFound));
            QVERIFY(card->causeText().contains(QStringLiteral("no longer at this address")));
            QVERIFY(!fs::exists(w.runtimeDir("gui-rt-1")));
        }
        {
            GuiWorld w;
            Ui ui(w.controller());
            QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
            ui.choose(QStringLiteral("guiwork"));
            w.server.stop(); // refused from now on
            QTest::mouseClick(ui.primary(), Qt::LeftButton);
            gui::FailureCard* card = ui.window->failureCard();
            QVERIFY(waitFor([&] { return card->isVisible(); }, 60000));
            QCOMPARE(card->causeText(), causeWords(Cause::Network));
            QVERIFY(card->button(FailureNotice::Action::ProxySettings));
        }
    }

    void detectionFailsThenRetrySucceeds()
    {
        GuiWorld w;
        Ui ui(failingDetection(w));
        gui::FailureCard* card = ui.window->detectionFailureCard();
        QVERIFY(waitFor([&] { return card->isVisible(); }));
        QCOMPARE(card->titleText(),
                 QStringLiteral("StackPilot could not detect the graphics card"));
        QVERIFY(card->button(FailureNotice::Action::Retry));
        QVERIFY(card->button(FailureNotice::Action::ContinueWithCpu));
        // Issue 33: a failed detection names the drivers to install, with links.
        QVERIFY2(
            card->linksText().contains(QStringLiteral("https://www.nvidia.com/en-us/drivers/")),
            qPrintable(card->linksText()));
        ui.checkPlainWords("detection failed");

        std::ofstream(w.root / "ok") << "1";
        QTest::mouseClick(card->button(FailureNotice::Action::Retry), Qt::LeftButton);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
        QVERIFY(!card->isVisible());
        QCOMPARE(ui.window->gpuPanel()->headline(), QStringLiteral("AMD Radeon RX 7900 XTX"));
        ui.choose(QStringLiteral("guiwork"));
        QVERIFY(ui.primary()->isEnabled());
    }

    void detectionFailsThenCpuStacks()
    {
        GuiWorld w;
        Ui ui(failingDetection(w));
        gui::FailureCard* card = ui.window->detectionFailureCard();
        QVERIFY(waitFor([&] { return card->isVisible(); }));
        // Retry fails again: the card comes back, still with both ways forward.
        QTest::mouseClick(card->button(FailureNotice::Action::Retry), Qt::LeftButton);
        QVERIFY(waitFor([&] { return card->isVisible() && !ui.app->detectionError().isEmpty(); }));
        QTest::mouseClick(card->button(FailureNotice::Action::ContinueWithCpu), Qt::LeftButton);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
        QVERIFY(!card->isVisible());
        QVERIFY(ui.window->workloadChooser()->count() > 0);
        ui.choose(QStringLiteral("guiwork"));
        QVERIFY(ui.primary()->isEnabled());
        QCOMPARE(ui.window->card()->titleText(),
                 QStringLiteral("Stand-in UI on this PC's processor"));
        ui.checkPlainWords("cpu stacks");
        // Issue 33, item 4: a processor stack says it is slower, on the card and in the
        // Stacks menu, where the recommended one is marked.
        QVERIFY(ui.window->card()->captionText().startsWith(
            QStringLiteral("Recommended for this PC's processor: slower")));
        QStringList entries;
        auto* guiwork =
            ui.window->profilesMenu()->findChild<QMenu*>(QStringLiteral("workload:guiwork"));
        QVERIFY(guiwork);
        for (QAction* a : guiwork->actions())
            if (a->objectName().startsWith(QStringLiteral("profile:")) &&
                a->objectName().size() > 8)
                entries << a->text();
        QVERIFY2(
            entries.filter(QStringLiteral("(on the processor, slower) — recommended")).size() == 1,
            qPrintable(entries.join(QLatin1Char('|'))));
        // Issue 33: no dead end. The driver is installed now: View ▸ Detect graphics
        // cards again finds the card, and the card plans for it.
        std::ofstream(w.root / "ok") << "1";
        QVERIFY(ui.window->detectAgainAction()->isEnabled());
        ui.window->detectAgainAction()->trigger();
        QVERIFY(waitFor([&] {
            return ui.window->gpuPanel()->headline() == QStringLiteral("AMD Radeon RX 7900 XTX");
        }));
        QVERIFY(waitFor([&] {
            return ui.window->card()->titleText() !=
                   QStringLiteral("Stand-in UI on this PC's processor");
        }));
    }

    void crashGetsACardWithExportAndAnotherStack()
    {
        GuiWorld w;
        w.addCrashWorkload();
        Ui ui(w.controller());
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
        ui.choose(QStringLiteral("crashwork"));
        QCOMPARE(ui.app->currentPlan()->profile, QStringLiteral("crash-a"));
        QTest::mouseClick(ui.primary(), Qt::LeftButton);
        gui::FailureCard* card = ui.window->failureCard();
        QVERIFY(waitFor([&] { return card->isVisible(); }, 60000));
        QCOMPARE(ui.app->phase(), Phase::Ready);
        QCOMPARE(card->titleText(), QStringLiteral("Crashing UI crashed"));
        QVERIFY2(card->causeText().contains(QStringLiteral("SIGSEGV")),
                 qPrintable(card->causeText()));
        QVERIFY(card->button(FailureNotice::Action::OpenLog));
        QPushButton* other = card->button(FailureNotice::Action::SwitchStack);
        QVERIFY(other);
        QVERIFY(!ui.window->console()->openUrlButton()->isVisible()); // nothing serves it now
        ui.checkPlainWords("crashed");

        QTest::mouseClick(card->button(FailureNotice::Action::ExportDiagnostics), Qt::LeftButton);
        auto* diag = ui.window->findChild<gui::DiagnosticsDialog*>();
        QVERIFY(diag && diag->isVisible());
        diag->reject();

        // The other stack runs; a Stop is not a crash.
        QTest::mouseClick(other, Qt::LeftButton);
        QVERIFY(waitFor(
            [&] {
                return ui.app->phase() == Phase::Running &&
                       ui.app->runningProfile() == QStringLiteral("crash-b");
            },
            60000));
        QVERIFY(!card->isVisible());
        QCOMPARE(ui.window->card()->captionText(), QStringLiteral("Your choice"));
        QTest::mouseClick(ui.primary(), Qt::LeftButton);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }, 30000));
        QVERIFY(!card->isVisible());
        ui.checkPlainWords("stopped");
    }

    // A crash that no known problem explains: the card names the line that decides it
    // and offers its search text and a report (core/logmatch/explain.h).
    void unknownCrashIsExplained()
    {
        GuiWorld w;
        const std::string quote = std::string(STACKPILOT_SOURCE_DIR) +
                                  "/tests/logmatch/corpus-2026/unknown/"
                                  "unknown-therock-2707-comfyui-hip-invalid-argument.log:1";
        const nlohmann::json doc = {
            {"schema_version", 1},
            {"workloads",
             {{{"id", "oddwork"},
               {"name", "Odd UI"},
               {"command", {STANDIN_WORKLOAD, "--child-ms", "300", "--quote", quote}},
               {"cwd", w.work.string()},
               {"references", {"https://example.org/gui-fixture"}}}}},
            {"profiles",
             {{{"id", "odd-a"},
               {"workload", "oddwork"},
               {"status", "tested"},
               {"runtimes", {"gui-rt-1"}},
               {"match", {{"os", {"linux"}}}},
               {"args", {"--mode", "crash"}},
               {"references", {"https://example.org/gui-fixture"}}}}}};
        std::ofstream(w.catalogDir / "odd.json") << doc.dump(2);
        Ui ui(w.controller());
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
        ui.choose(QStringLiteral("oddwork"));
        QTest::mouseClick(ui.primary(), Qt::LeftButton);
        gui::FailureCard* card = ui.window->failureCard();
        QVERIFY(waitFor([&] { return card->isVisible(); }, 60000));
        const QString cause = card->causeText();
        QVERIFY2(cause.contains(QStringLiteral("SIGSEGV")), qPrintable(cause));
        QVERIFY2(cause.contains(QStringLiteral("Not a known problem yet")), qPrintable(cause));
        QVERIFY2(cause.contains(QStringLiteral("HIP error: invalid argument")), qPrintable(cause));
        QVERIFY(card->button(FailureNotice::Action::CopySearchText));
        QVERIFY(card->button(FailureNotice::Action::ReportFailure));
        QVERIFY(card->button(FailureNotice::Action::ExportDiagnostics));
        QTest::mouseClick(card->button(FailureNotice::Action::ReportFailure), Qt::LeftButton);
        QVERIFY2(QGuiApplication::clipboard()->text().contains(
                     QStringLiteral("HIP error: invalid argument")),
                 qPrintable(QGuiApplication::clipboard()->text()));
    }

    void theLastWorkloadIsShownAgain()
    {
        GuiWorld w;
        w.addCrashWorkload();
        QString other;
        {
            Ui ui(w.controller());
            QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
            other = ui.app->workload() == QStringLiteral("crashwork") ? QStringLiteral("guiwork")
                                                                      : QStringLiteral("crashwork");
            ui.choose(other);
            QVERIFY(waitFor([&] {
                const auto s = Settings::load();
                return s.ok() && qs(s->lastWorkload) == other;
            }));
        }
        Ui ui(w.controller());
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
        QCOMPARE(ui.app->workload(), other);
        QCOMPARE(ui.window->workloadChooser()->currentData().toString(), other);
    }

    // Issue 33, item 10: Stacks ▸ Uninstall this stack… says what goes and what it
    // frees, removes it, and the card offers the install again.
    void uninstallSaysTheSpaceItFrees()
    {
        GuiWorld w;
        Ui ui(w.controller());
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
        ui.choose(QStringLiteral("guiwork"));
        QTest::mouseClick(ui.primary(), Qt::LeftButton);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Running; }, 60000));
        const fs::path dir = w.runtimeDir("gui-rt-1");
        QVERIFY(fs::exists(dir / "bin" / "tool.bin"));
        auto* uninstall = ui.window->findChild<QAction*>(QStringLiteral("uninstall"));
        QVERIFY(uninstall);
        QVERIFY(!uninstall->isEnabled()); // not while it runs
        ui.app->stop();
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready && uninstall->isEnabled(); },
                        30000));
        const QString size = QString::fromStdString(format::bytes(treeBytes(dir)));
        ui.asked.clear();
        uninstall->trigger();
        QVERIFY(waitFor([&] { return !fs::exists(dir); }, 30000));
        QCOMPARE(ui.asked.size(), 1);
        QVERIFY2(ui.asked[0].contains(QStringLiteral("Removes PyTorch 2.8.0")) &&
                     ui.asked[0].contains(QStringLiteral("which frees about ") + size),
                 qPrintable(ui.asked[0] + QStringLiteral(" / ") + size));
        QVERIFY(waitFor([&] {
            return ui.window->statusBar()->currentMessage() ==
                   QStringLiteral("Uninstalled: %1 freed.").arg(size);
        }));
        QVERIFY(waitFor([&] { return ui.primaryText() == QStringLiteral("Install and launch"); }));
    }

    void aChosenProfileIsLabelledSo()
    {
        GuiWorld w;
        {
            Ui ui(w.controller());
            QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
            ui.choose(QStringLiteral("guiwork"));
            QCOMPARE(ui.window->card()->captionText(), QStringLiteral("Recommended for your PC"));
            QAction* b = ui.window->profilesMenu()->profileAction(QStringLiteral("guiwork"),
                                                                  QStringLiteral("gui-b"));
            QVERIFY(b);
            b->trigger();
            QVERIFY(
                waitFor([&] { return ui.app->currentPlan()->profile == QStringLiteral("gui-b"); }));
            QCOMPARE(ui.window->card()->captionText(), QStringLiteral("Your choice"));
            ui.checkPlainWords("forced");
        }
        // A known problem's fix switched it: settings.json says so.
        auto s = Settings::load();
        QVERIFY(s.ok());
        AppliedRemedy r;
        r.issue = "gui-fixture-crash";
        r.action = RemedyAction::SwitchProfile;
        r.before.profile = "";
        s->workloads["guiwork"].remedies.push_back(r);
        QVERIFY(s->save(Settings::defaultFile()).ok());
        Ui ui(w.controller());
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
        ui.choose(QStringLiteral("guiwork"));
        QCOMPARE(ui.window->card()->captionText(),
                 QStringLiteral("Switched after a known problem"));
    }
};

QTEST_MAIN(TestGuiJourneys)
#include "test_gui_journeys.moc"
