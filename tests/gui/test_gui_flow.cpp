// The window end to end on the offscreen platform, with real parts: detection state,
// the plan card, the primary button installing a runtime from a loopback server with
// progress, the stand-in workload's console, the known-issue banner and its remedy
// (profile switched, workload relaunched), the tray's profiles menu, cancel, resume
// after a restart, and every setting saved to settings.json.

#include "app/common/session/session.h"
#include "app/gui/widgets/console_view.h"
#include "app/gui/widgets/install_panel.h"
#include "app/gui/widgets/main_window.h"
#include "app/gui/widgets/profile_card.h"
#include "app/gui/widgets/profiles_menu.h"
#include "app/gui/widgets/settings_dialog.h"
#include "core/format.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "gui_fixture.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <csignal>
#include <fstream>

using namespace sp;
using namespace sp::test;
using gui::AppController;
using Phase = AppController::Phase;

namespace {

struct Ui : TestWindow
{
    explicit Ui(const GuiWorld& w) : TestWindow(w.controller()) {}
    void chooseWorkload() { choose(QStringLiteral("guiwork")); }
};

std::vector<pid_t> pidsIn(const fs::path& file)
{
    std::ifstream in(file);
    std::vector<pid_t> pids;
    for (pid_t p; in >> p;)
        pids.push_back(p);
    return pids;
}

// A session's events as names (known issues with their id), without the ones whose
// count depends on timing (console lines, download progress), repeats collapsed.
void addEvent(QStringList& out, const nlohmann::json& e)
{
    QString name = QString::fromStdString(e.value("event", ""));
    // The window asks before it installs; `run --yes` does not.
    if (name == QStringLiteral("line") || name == QStringLiteral("progress") ||
        name == QStringLiteral("confirm_install"))
        return;
    if (name == QStringLiteral("known_issue"))
        name += QStringLiteral(":") + QString::fromStdString(e.value("known_issue", ""));
    if (name == QStringLiteral("step"))
        name += QStringLiteral(":") + QString::fromStdString(e.value("state", ""));
    if (out.isEmpty() || out.back() != name)
        out << name;
}

QString writeSnapshot(const GuiWorld& w)
{
    const fs::path file = w.root / "snapshot.json";
    std::ofstream(file) << toJson(GuiWorld::snapshot()).dump(2);
    return QString::fromStdString(file.string());
}

QStringList cliArgs(const GuiWorld& w, QStringList verb)
{
    return verb << QStringLiteral("--hardware") << writeSnapshot(w)
                << QStringLiteral("--catalog-dir") << QString::fromStdString(w.catalogDir.string());
}

bool allGone(const std::vector<pid_t>& pids)
{
    for (pid_t p : pids)
        if (::kill(p, 0) == 0)
            return false;
    return true;
}

} // namespace

class TestGuiFlow : public QObject
{
    Q_OBJECT
private slots:
    void detectingFirstThenTheRecommendedCard()
    {
        GuiWorld w;
        Ui ui(w);
        // start() returned with everything still on its way: the window is up and says so.
        QCOMPARE(ui.app->phase(), Phase::Detecting);
        QVERIFY(ui.window->isVisible());
        QCOMPARE(ui.primary()->isEnabled(), false);
        QVERIFY(ui.ready());
        ui.chooseWorkload();
        QCOMPARE(ui.window->card()->titleText(),
                 QStringLiteral("Stand-in UI on your AMD Radeon RX 7900 XTX"));
        QCOMPARE(ui.window->card()->badgeText(),
                 QStringLiteral("Works, tested on this kind of card · Fixture route A"));
        QVERIFY2(ui.window->card()->installText().contains(QStringLiteral("To install: 1 part")),
                 qPrintable(ui.window->card()->installText()));
        QCOMPARE(ui.primaryText(), QStringLiteral("Install and launch"));
        QVERIFY(ui.primary()->isEnabled());
    }

    void installLaunchBannerRemedyAndRelaunch()
    {
        GuiWorld w;
        // Half-way, the server pauses, so the test sees the bars between 0 and 100.
        w.server.setFault("/rt/gui-runtime.tar.gz",
                          Fault::stallAfter(w.archive.size() / 2, std::chrono::milliseconds(1500)));
        Ui ui(w);
        QVERIFY(ui.ready());
        ui.chooseWorkload();
        QTest::mouseClick(ui.primary(), Qt::LeftButton);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Installing; }));
        // The checklist came first: the download's size as the server gave it just now
        // (the preflight's HEAD), and no id in it.
        QCOMPARE(ui.asked.size(), 1);
        const QString download = QString::fromStdString(
            "Download: about " + format::bytes(w.archive.size()) + " (checked just now).");
        QVERIFY2(ui.asked[0].contains(download), qPrintable(ui.asked[0]));
        QVERIFY(!ui.asked[0].contains(QStringLiteral("gui-")));
        QVERIFY(ui.window->installPanel()->isVisible());
        QCOMPARE(ui.primaryText(), QStringLiteral("Cancel install"));
        QVERIFY(waitFor([&] {
            const int p = ui.window->installPanel()->overallPermille();
            return p > 0 && p < 1000;
        }));
        QVERIFY(ui.window->installPanel()->artifactRows() == 1);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Running; }, 60000));
        QVERIFY(fs::exists(w.runtimeDir("gui-rt-1") / "bin" / "tool.bin"));
        QCOMPARE(ui.primaryText(), QStringLiteral("Stop"));
        QCOMPARE(ui.app->runningProfile(), QStringLiteral("gui-a"));

        // The console fills, colours kept as spans, the failure line marked.
        QVERIFY(waitFor([&] { return ui.app->console().rowCount() >= 9; }));
        // The install's steps came first, as StackPilot's own lines (issue 33, item 6).
        QVERIFY(ui.app->console().countOf(gui::ConsoleLine::Note) >= 3);
        QVERIFY(ui.app->console().lineAt(0).text().startsWith(QStringLiteral("▸ Installing ")));
        QVERIFY(ui.app->console().countOf(gui::ConsoleLine::Error) >= 1);
        QVERIFY(waitFor([&] { return ui.window->console()->openUrlButton()->isVisible(); }));
        QCOMPARE(ui.app->url(), QStringLiteral("http://127.0.0.1:7860"));
        QVERIFY(waitFor([&] { return ui.window->console()->banner()->isVisible(); }));
        QVERIFY(waitFor([&] { return ui.app->console().countOf(gui::ConsoleLine::Issue) == 1; }));
        gui::IssueBanner* banner = ui.window->console()->banner();
        QCOMPARE(banner->issueId(), QStringLiteral("gui-fixture-crash"));
        QCOMPARE(gui::withoutMnemonic(banner->actionButton()->text()),
                 QStringLiteral("Switch to PyTorch 2.8.0 (Fixture route B) and relaunch"));
        // The tree writes its pids as it starts; under load the banner can come first.
        QVERIFY(waitFor([&] { return pidsIn(w.work / "pids").size() == 3; }));
        const auto firstPids = pidsIn(w.work / "pids");

        // The remedy: the profile switches, the first tree is stopped, the workload relaunches.
        QTest::mouseClick(banner->actionButton(), Qt::LeftButton);
        QVERIFY(waitFor(
            [&] {
                return ui.app->phase() == Phase::Running &&
                       ui.app->runningProfile() == QStringLiteral("gui-b");
            },
            30000));
        QVERIFY(allGone(firstPids));
        const auto saved = Settings::load();
        QVERIFY(saved.ok());
        QCOMPARE(saved->workloads.at("guiwork").remedies.at(0).issue,
                 std::string("gui-fixture-crash"));
        QCOMPARE(ui.app->currentPlan()->profile, QStringLiteral("gui-b"));

        // Stop ends the whole tree, the setsid child included.
        QVERIFY(waitFor([&] {
            const auto now = pidsIn(w.work / "pids");
            return now.size() == 3 && now != firstPids;
        }));
        const auto secondPids = pidsIn(w.work / "pids");
        QTest::mouseClick(ui.primary(), Qt::LeftButton);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }, 30000));
        QVERIFY(waitFor([&] { return allGone(secondPids); }, 5000));
        QCOMPARE(ui.primaryText(), QStringLiteral("Launch"));
        // The chooser marks a workload whose stack is all there (issue 33, item 10).
        QCOMPARE(ui.window->workloadChooser()->currentText(),
                 QStringLiteral("Stand-in UI (installed)"));
    }

    void trayMenuSwitchesProfilesAndAsksBeforeARejectedOne()
    {
        GuiWorld w;
        Ui ui(w);
        QVERIFY(ui.ready());
        ui.chooseWorkload();
        gui::ProfilesMenu* tray = ui.window->trayMenu();
        QAction* b = tray->profileAction(QStringLiteral("guiwork"), QStringLiteral("gui-b"));
        QVERIFY(b);
        b->trigger();
        QVERIFY(waitFor([&] { return ui.app->currentPlan()->profile == QStringLiteral("gui-b"); }));
        QCOMPARE(Settings::load()->workloads.at("guiwork").profile, std::string("gui-b"));
        // The menu bar's menu was rebuilt from the same state.
        QVERIFY(ui.window->profilesMenu()
                    ->profileAction(QStringLiteral("guiwork"), QStringLiteral("gui-b"))
                    ->isChecked());

        QAction* c = tray->profileAction(QStringLiteral("guiwork"), QStringLiteral("gui-c"));
        QVERIFY(c && c->text().contains(QStringLiteral("not for this PC")));
        QString asked;
        ui.window->setConfirm([&](const QString&, const QString& text) {
            asked = text;
            return false;
        });
        c->trigger();
        QVERIFY(asked.contains(QStringLiteral("gui-fixture-broken-v2")) ||
                asked.contains(QStringLiteral("PyTorch 2.9 build is broken")));
        QTest::qWait(300);
        QCOMPARE(ui.app->currentPlan()->profile, QStringLiteral("gui-b"));

        ui.window->setConfirm([](const QString&, const QString&) { return true; });
        tray->profileAction(QStringLiteral("guiwork"), QStringLiteral("gui-c"))->trigger();
        QVERIFY(waitFor([&] { return ui.app->currentPlan()->profile == QStringLiteral("gui-c"); }));
        QVERIFY(Settings::load()->workloads.at("guiwork").acceptRejected);
        QVERIFY(!ui.app->currentPlan()->plan->warnings.empty());

        tray->profileAction(QStringLiteral("guiwork"), QString())->trigger();
        QVERIFY(waitFor([&] { return ui.app->currentPlan()->profile == QStringLiteral("gui-a"); }));
    }

    void cancelLeavesNothingBehind()
    {
        GuiWorld w;
        w.server.setFault("/rt/gui-runtime.tar.gz",
                          Fault::stallAfter(1 << 20, std::chrono::milliseconds(20000)));
        Ui ui(w);
        QVERIFY(ui.ready());
        ui.chooseWorkload();
        QTest::mouseClick(ui.primary(), Qt::LeftButton);
        QVERIFY(waitFor([&] { return ui.window->installPanel()->overallPermille() > 0; }));
        QTest::mouseClick(ui.window->installPanel()->cancelButton(), Qt::LeftButton);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
        QVERIFY(!fs::exists(w.runtimeDir("gui-rt-1")));
        QVERIFY(!fs::exists(pendingInstallFile(paths::dataDir())));
        for (const auto& e : fs::directory_iterator(w.home / "data" / "runtimes"))
            QVERIFY2(e.path().filename().string().rfind(".staging", 0) != 0, e.path().c_str());
        QCOMPARE(ui.primaryText(), QStringLiteral("Install and launch"));
    }

    void anInterruptedInstallResumesAfterARestart()
    {
        GuiWorld w;
        w.server.setFault("/rt/gui-runtime.tar.gz",
                          Fault::stallAfter(1 << 20, std::chrono::milliseconds(20000)));
        {
            Ui ui(w);
            QVERIFY(ui.ready());
            ui.chooseWorkload();
            QTest::mouseClick(ui.primary(), Qt::LeftButton);
            QVERIFY(waitFor([&] { return ui.window->installPanel()->overallPermille() > 0; }));
        } // StackPilot closes mid-install
        QVERIFY(fs::exists(pendingInstallFile(paths::dataDir())));
        w.server.clearFaults();
        w.server.resetStats();
        Ui again(w);
        QVERIFY(again.ready());
        QCOMPARE(again.app->workload(), QStringLiteral("guiwork"));
        QCOMPARE(again.primaryText(), QStringLiteral("Resume install"));
        QTest::mouseClick(again.primary(), Qt::LeftButton);
        QVERIFY(waitFor(
            [&] { return again.app->phase() == Phase::Ready && !again.app->pendingInstall(); },
            60000));
        QVERIFY(fs::exists(w.runtimeDir("gui-rt-1") / "bin" / "tool.bin"));
        QVERIFY(!fs::exists(pendingInstallFile(paths::dataDir())));
        const auto stats = w.server.stats("/rt/gui-runtime.tar.gz");
        qInfo("resumed: %d request(s), %d with Range, %llu body bytes of %zu", stats.requests,
              stats.rangeRequests, static_cast<unsigned long long>(stats.bodyBytes),
              w.archive.size());
        QVERIFY(stats.rangeRequests >= 1);
        QVERIFY(stats.bodyBytes < w.archive.size());
        QVERIFY(waitFor([&] { return again.primaryText() == QStringLiteral("Launch"); }));
    }

    // `stackpilot-cli run` and the window's primary button take the same fixture through
    // the same session: install from the loopback server, launch, the known issue, a
    // stop; the same events in the same order, and the same outcome.
    void cliRunAndTheWindowGiveTheSameEvents()
    {
        QStringList window;
        bool windowOk = true;
        {
            GuiWorld w;
            Ui ui(w);
            QVERIFY(ui.ready());
            ui.chooseWorkload();
            // One source: what the session told the window.
            connect(ui.app.get(), &AppController::sessionEvent, this,
                    [&](const session::Event& e) { addEvent(window, session::toJson(e)); });
            QTest::mouseClick(ui.primary(), Qt::LeftButton);
            QVERIFY(waitFor([&] { return ui.app->console().countOf(gui::ConsoleLine::Issue) == 1; },
                            60000));
            QTest::mouseClick(ui.primary(), Qt::LeftButton); // Stop
            QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }, 30000));
            const auto& outcome = ui.app->session()->outcome();
            windowOk = outcome.result && *outcome.result;
        }
        QStringList cli;
        GuiWorld w;
        QProcess p;
        p.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"),
                cliArgs(w, {QStringLiteral("run"), QStringLiteral("guiwork"),
                            QStringLiteral("--yes"), QStringLiteral("--json")}));
        QVERIFY(p.waitForStarted());
        bool interrupted = false;
        QByteArray pending;
        QVERIFY(waitFor(
            [&] {
                pending += p.readAllStandardOutput();
                for (int nl; (nl = pending.indexOf('\n')) >= 0; pending.remove(0, nl + 1)) {
                    addEvent(cli, nlohmann::json::parse(pending.left(nl).toStdString()));
                    if (!interrupted && cli.back().startsWith(QStringLiteral("known_issue"))) {
                        ::kill(pid_t(p.processId()), SIGINT); // as Ctrl-C
                        interrupted = true;
                    }
                }
                return p.state() == QProcess::NotRunning;
            },
            60000));
        QVERIFY2(interrupted, p.readAllStandardError().constData());
        qInfo("events: %s", qPrintable(cli.join(QStringLiteral(" "))));
        QCOMPARE(cli, window);
        QVERIFY(cli.contains(QStringLiteral("runtime_installed")));
        QVERIFY(cli.contains(QStringLiteral("known_issue:gui-fixture-crash")));
        QCOMPARE(cli.back(), QStringLiteral("exit"));
        QCOMPARE(p.exitCode(), windowOk ? 0 : 1);
    }

    // The Profiles menu's Launch goes through the session's checklist too; closing the
    // window while the workload runs asks: Cancel keeps it, "Stop and quit" ends it all.
    void theProfilesMenuAsksFirstAndClosingAsks()
    {
        GuiWorld w;
        std::vector<pid_t> pids;
        {
            Ui ui(w);
            QVERIFY(ui.ready());
            ui.chooseWorkload();
            QAction* go = ui.window->profilesMenu()->launchAction(QStringLiteral("guiwork"));
            QVERIFY(go);
            go->trigger();
            QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Running; }, 60000));
            QCOMPARE(ui.asked.size(), 1); // the checklist, before the install
            QVERIFY2(ui.asked[0].contains(QStringLiteral("Download:")), qPrintable(ui.asked[0]));
            QVERIFY(waitFor([&] { return pidsIn(w.work / "pids").size() == 3; }));
            pids = pidsIn(w.work / "pids");
            QStringList offered;
            int answer = -1;
            ui.window->setChoose([&](const QString&, const QString&, const QStringList& o) {
                offered = o;
                return answer < 0 ? int(o.size()) - 1 : answer;
            });
            ui.window->close(); // Cancel
            QVERIFY(!offered.isEmpty());
            QCOMPARE(offered.front(), QStringLiteral("Stop and quit"));
            QCOMPARE(offered.back(), QStringLiteral("Cancel"));
            QVERIFY(ui.window->isVisible());
            QTest::qWait(300);
            QCOMPARE(ui.app->phase(), Phase::Running);
            QVERIFY(!allGone(pids));
            answer = 0; // Stop and quit
            ui.window->close();
            QVERIFY(!ui.window->isVisible());
        } // the application goes: the session ends the tree
        QVERIFY(waitFor([&] { return allGone(pids); }, 10000));
    }

    // The CLI changes settings.json while the window is open (a remedy, as `run` or
    // `remedy apply` write it); the window then saves its own settings: both stay.
    void theWindowKeepsWhatTheCliChanged()
    {
        GuiWorld w;
        Ui ui(w);
        QVERIFY(ui.ready());
        const auto r = QProcess::execute(
            QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"),
            cliArgs(w, {QStringLiteral("remedy"), QStringLiteral("apply"),
                        QStringLiteral("gui-fixture-crash"), QStringLiteral("--workload"),
                        QStringLiteral("guiwork")}));
        QCOMPARE(r, 0);
        // The window notices the change on its own and plans with it.
        QVERIFY(waitFor([&] {
            const auto* v = ui.app->plan(QStringLiteral("guiwork"));
            return v && v->profile == QStringLiteral("gui-b");
        }));
        ui.window->openSettings();
        auto* dlg = ui.window->findChild<gui::SettingsDialog*>();
        QVERIFY(dlg);
        dlg->keepLaunches()->setValue(11);
        QSignalSpy saved(ui.app.get(), &AppController::settingsChanged);
        dlg->accept();
        QVERIFY(saved.wait(10000));
        const auto s = Settings::loadFile(Settings::defaultFile());
        QVERIFY(s.ok());
        QCOMPARE(s->keepLaunches, 11);
        QCOMPARE(s->workloads.at("guiwork").profile, std::string("gui-b"));
        QCOMPARE(s->workloads.at("guiwork").remedies.at(0).issue, std::string("gui-fixture-crash"));
        // The window took the file as written: it plans with the CLI's remedy now.
        QVERIFY(waitFor([&] {
            const auto* v = ui.app->plan(QStringLiteral("guiwork"));
            return v && v->profile == QStringLiteral("gui-b");
        }));
    }

    void everySettingIsSavedAndReadBack()
    {
        GuiWorld w;
        Ui ui(w);
        QVERIFY(ui.ready());
        ui.window->openSettings();
        auto* dlg = ui.window->findChild<gui::SettingsDialog*>();
        QVERIFY(dlg);
        dlg->installDir()->setText(qpath(w.root / "Programs" / "Program Files" / "SP"));
        QVERIFY(dlg->pathWarnings().contains(QStringLiteral("Program Files")));
        dlg->installDir()->setText(qpath(w.root / paths::fromUtf8("données")));
        QVERIFY(dlg->pathWarnings().contains(QStringLiteral("non-ASCII")));
        const fs::path data = w.root / "sp-data";
        const fs::path cache = w.root / "sp-cache";
        dlg->installDir()->setText(qpath(data));
        dlg->cacheDir()->setText(qpath(cache));
        QVERIFY(dlg->pathWarnings().isEmpty());
        dlg->proxy()->setText(QStringLiteral("http://proxy.example:3128"));
        dlg->mirrors()->setPlainText(QStringLiteral("github.com https://mirror.example/gh"));
        dlg->probeTimeout()->setValue(12.0); // seconds on screen, ms in the file
        dlg->keepLaunches()->setValue(7);
        dlg->openBrowser()->setChecked(true);
        dlg->language()->setCurrentIndex(dlg->language()->findData(QStringLiteral("zh_CN")));
        QSignalSpy saved(ui.app.get(), &AppController::settingsChanged);
        dlg->accept();
        QVERIFY(saved.wait(10000));
        const auto s = Settings::loadFile(Settings::defaultFile());
        QVERIFY(s.ok());
        QCOMPARE(s->installDir, data);
        QCOMPARE(s->cacheDir, cache);
        QCOMPARE(s->proxy.value_or(""), std::string("http://proxy.example:3128"));
        QCOMPARE(s->mirrors.at("github.com").at(0), std::string("https://mirror.example/gh"));
        QCOMPARE(s->probeTimeoutMs, 12000);
        QCOMPARE(s->keepLaunches, 7);
        QVERIFY(s->openBrowser);
        QCOMPARE(s->language, std::string("zh_CN"));
        // The folders apply at once: plans now install under the new folder.
        QCOMPARE(paths::dataDir(), data);
        QVERIFY(waitFor([&] {
            const auto* v = ui.app->plan(QStringLiteral("guiwork"));
            return v && v->plan && v->plan->runtimes.front().dir.rfind(data, 0) == 0;
        }));
        paths::setUserFolders({}, {});
    }
};

QTEST_MAIN(TestGuiFlow)
#include "test_gui_flow.moc"
