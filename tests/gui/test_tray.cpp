// The tray under a real tray host: ctest runs this under xvfb-run, the test starts a
// real XEmbed system tray (stalonetray where the distribution has it, else trayer) as
// its own child process, and the window runs on the xcb platform. The icon must be
// embedded by that host (its X window reparented into the host's: no window manager
// runs, so nothing else reparents it), and then its own context menu, opened with a
// right click on the icon, switches the profile, launches the stand-in workload
// (installed from the loopback server), stops it (none of its processes left) and
// quits (after the question that a workload runs, answered here), which ends
// QApplication's event loop and the workload.

#include "app/gui/widgets/main_window.h"
#include "app/gui/widgets/profiles_menu.h"
#include "gui_fixture.h"

#include <QApplication>
#include <QMenu>
#include <QPointer>
#include <QProcess>
#include <QStandardPaths>
#include <QSystemTrayIcon>
#include <QTimer>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <xcb/xcb.h>

using namespace sp;
using namespace sp::test;
using gui::AppController;
using Phase = AppController::Phase;

namespace {

std::vector<pid_t> pidsOf(const fs::path& file)
{
    std::ifstream in(file);
    std::vector<pid_t> pids;
    for (pid_t p; in >> p;)
        pids.push_back(p);
    return pids;
}

bool noneAlive(const std::vector<pid_t>& pids)
{
    return std::none_of(pids.begin(), pids.end(), [](pid_t p) { return ::kill(p, 0) == 0; });
}

// The X window that holds `w`: the root while nobody embedded it.
xcb_window_t parentWindow(const QWidget* w)
{
    auto* x11 = qApp->nativeInterface<QNativeInterface::QX11Application>();
    if (!x11)
        return 0;
    xcb_connection_t* c = x11->connection();
    xcb_query_tree_reply_t* reply =
        xcb_query_tree_reply(c, xcb_query_tree(c, xcb_window_t(w->winId())), nullptr);
    if (!reply)
        return 0;
    const xcb_window_t parent = reply->parent, root = reply->root;
    std::free(reply);
    return parent == root ? 0 : parent;
}

// Qt's XEmbed tray icon: a top-level widget of its own.
QWidget* trayIconWidget()
{
    for (QWidget* w : QApplication::topLevelWidgets())
        if (w->objectName() == QStringLiteral("QSystemTrayIconSys"))
            return w;
    return nullptr;
}

QAction* actionNamed(const QMenu* menu, const QString& name)
{
    const auto actions = menu->actions();
    auto it = std::find_if(actions.begin(), actions.end(),
                           [&](const QAction* a) { return a->objectName() == name; });
    return it == actions.end() ? nullptr : *it;
}

// Clicks `action` in `menu`, which must be open, as a user does.
bool clickIn(QMenu* menu, QPointer<QAction> action)
{
    if (!waitFor([&] { return menu->isVisible(); }, 5000) || !action || !action->isEnabled()) {
        qWarning("menu %s %s, action %s %s", qPrintable(menu->title()),
                 menu->isVisible() ? "open" : "closed", action ? qPrintable(action->text()) : "-",
                 action && action->isEnabled() ? "enabled" : "disabled");
        return false;
    }
    const QRect r = menu->actionGeometry(action);
    if (r.isEmpty())
        return false;
    QTest::mouseMove(menu, r.center());
    QTest::mouseClick(menu, Qt::LeftButton, {}, r.center());
    return true;
}

} // namespace

class TestTray : public QObject
{
    Q_OBJECT
    QProcess m_host;
    QWidget* m_icon = nullptr;

    // Right click on the icon in the tray: its context menu opens there.
    QMenu* openTrayMenu(gui::MainWindow& window)
    {
        auto* tray = window.findChild<QSystemTrayIcon*>();
        if (!tray || !tray->contextMenu())
            return nullptr;
        QTest::mouseClick(m_icon, Qt::RightButton, {}, m_icon->rect().center());
        return waitFor([&] { return tray->contextMenu()->isVisible(); }, 5000) ? tray->contextMenu()
                                                                               : nullptr;
    }

    // Opens the tray menu, the workload's submenu in it, and clicks the action named
    // `name` there.
    bool clickInWorkloadMenu(gui::MainWindow& window, const QString& name)
    {
        QMenu* top = openTrayMenu(window);
        auto* sub = top ? top->findChild<QMenu*>(QStringLiteral("workload:guiwork")) : nullptr;
        if (!sub || !clickIn(top, sub->menuAction()))
            return false;
        return clickIn(sub, actionNamed(sub, name));
    }

private slots:
    void cleanup()
    {
        if (m_host.state() != QProcess::NotRunning) {
            m_host.terminate();
            if (!m_host.waitForFinished(5000))
                m_host.kill();
            m_host.waitForFinished(5000);
        }
    }

    void theTrayMenuSwitchesLaunchesStopsAndQuits()
    {
        QCOMPARE(QGuiApplication::platformName(), QStringLiteral("xcb"));
        GuiWorld w;
        auto app = w.controller();
        gui::MainWindow window(app.get());
        QStringList asked;
        QStringList checklists; // the install's checklist, answered Yes
        bool answer = false;
        window.setConfirm([&](const QString& title, const QString& text) {
            if (title.startsWith(QStringLiteral("Before StackPilot installs"))) {
                checklists << text;
                return true;
            }
            asked << title;
            return answer;
        });
        window.resize(900, 600);
        window.show();
        app->start();
        QVERIFY(waitFor([&] { return app->phase() == Phase::Ready; }));
        auto* tray = window.findChild<QSystemTrayIcon*>();
        QVERIFY2(tray, "the window makes its tray icon even before a tray host runs");
        QCOMPARE(tray->contextMenu(), window.trayMenu());
        QVERIFY(!tray->icon().isNull()); // Qt shows no icon without one

        // The tray host starts after StackPilot, as a panel may at login: the icon
        // appears in it all the same.
        QString host = QStandardPaths::findExecutable(QStringLiteral("stalonetray"));
        QStringList args = {QStringLiteral("--geometry"), QStringLiteral("4x1+0+0"),
                            QStringLiteral("--icon-size"), QStringLiteral("24")};
        if (host.isEmpty()) {
            host = QStandardPaths::findExecutable(QStringLiteral("trayer"));
            args = {QStringLiteral("--edge"),   QStringLiteral("top"),
                    QStringLiteral("--align"),  QStringLiteral("left"),
                    QStringLiteral("--width"),  QStringLiteral("10"),
                    QStringLiteral("--height"), QStringLiteral("32")};
        }
        QVERIFY2(!host.isEmpty(), "no tray host: .ci/install-deps installs trayer");
        m_host.setProcessChannelMode(QProcess::ForwardedChannels);
        m_host.start(host, args);
        QVERIFY2(m_host.waitForStarted(10000), qPrintable(m_host.errorString()));
        QVERIFY(waitFor([] { return QSystemTrayIcon::isSystemTrayAvailable(); }));
        QVERIFY(waitFor([&] {
            m_icon = trayIconWidget();
            return m_icon && m_icon->isVisible() && parentWindow(m_icon) != 0;
        }));
        QVERIFY(tray->isVisible());
        QVERIFY2(!tray->geometry().isEmpty(), "the host gave the icon no room");

        // Switch: gui-b instead of the recommended gui-a.
        app->setWorkload(QStringLiteral("guiwork"));
        QVERIFY(waitFor([&] { return app->currentPlan() != nullptr; }));
        QCOMPARE(app->currentPlan()->profile, QStringLiteral("gui-a"));
        QVERIFY(clickInWorkloadMenu(window, QStringLiteral("profile:gui-b")));
        QVERIFY(waitFor([&] { return app->currentPlan()->profile == QStringLiteral("gui-b"); }));
        QVERIFY(app->profileForced(QStringLiteral("guiwork")));

        // Launch: installed from the loopback server, then the workload runs.
        QVERIFY(clickInWorkloadMenu(window, QStringLiteral("launch")));
        QVERIFY(waitFor([&] { return app->phase() == Phase::Running; }, 60000));
        QCOMPARE(app->runningProfile(), QStringLiteral("gui-b"));
        // The tray's Launch showed the checklist before anything was installed.
        QCOMPARE(checklists.size(), 1);
        QVERIFY2(checklists[0].contains(QStringLiteral("Download:")), qPrintable(checklists[0]));
        QVERIFY(waitFor([&] { return pidsOf(w.work / "pids").size() == 3; }));
        const auto first = pidsOf(w.work / "pids");
        QVERIFY(!noneAlive(first));

        // Stop, from the top of the tray menu: the whole tree ends.
        QMenu* menu = openTrayMenu(window);
        QVERIFY(menu);
        const auto top = menu->actions();
        auto stop = std::find_if(top.begin(), top.end(), [](QAction* a) {
            return a->objectName() == QStringLiteral("stop:guiwork");
        });
        QVERIFY(stop != top.end());
        QVERIFY(clickIn(menu, *stop));
        QVERIFY(waitFor([&] { return app->phase() == Phase::Ready; }, 30000));
        QVERIFY(waitFor([&] { return noneAlive(first); }, 10000));

        // Quit while it runs again: asked first; "No" keeps everything running.
        QVERIFY(clickInWorkloadMenu(window, QStringLiteral("launch")));
        QVERIFY(waitFor([&] { return app->phase() == Phase::Running; }, 60000));
        QVERIFY(waitFor([&] {
            const auto now = pidsOf(w.work / "pids");
            return now.size() == 3 && now != first;
        }));
        const auto second = pidsOf(w.work / "pids");
        int exitCode = -1;
        // Quit runs inside QApplication's own event loop, as in the application.
        auto quitFromTray = [&] {
            QTimer watchdog; // a loop that nothing ends
            watchdog.setSingleShot(true);
            QObject::connect(&watchdog, &QTimer::timeout, [] { QApplication::exit(97); });
            watchdog.start(60000);
            QTimer::singleShot(0, [&] {
                QMenu* m = openTrayMenu(window);
                if (!m || !clickIn(m, actionNamed(m, QStringLiteral("quit"))))
                    QApplication::exit(98);
                else if (!answer) // answered No: still running 1.5 s later?
                    QTimer::singleShot(1500, [] { QApplication::exit(99); });
            });
            exitCode = QApplication::exec();
        };
        quitFromTray();
        QCOMPARE(exitCode, 99); // the loop went on after the No
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.front(), QStringLiteral("Quit StackPilot?"));
        QCOMPARE(app->phase(), Phase::Running);
        QVERIFY(!noneAlive(second));

        // "Yes": the event loop ends, and so does the workload.
        answer = true;
        quitFromTray();
        QCOMPARE(exitCode, 0);
        QCOMPARE(asked.size(), 2);
        QVERIFY(!window.isVisible());
        QVERIFY(waitFor([&] { return app->phase() == Phase::Ready; }, 30000));
        QVERIFY(waitFor([&] { return noneAlive(second); }, 10000));
    }
};

QTEST_MAIN(TestTray)
#include "test_tray.moc"
