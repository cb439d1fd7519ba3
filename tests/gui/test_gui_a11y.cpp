// Issue 33, items 8 and 9: every interactive control of the window has a name a screen
// reader can say, and every button an Alt+letter of its own, in each main state: ready,
// installing, running, failed, detection failed, and the Settings, Diagnostics and Models
// dialogs. The tree walked is QAccessible's, the one
// AT-SPI and UI Automation read (accessible_tree.h).

#include "accessible_tree.h"
#include "app/gui/widgets/alternatives_view.h"
#include "app/gui/widgets/console_view.h"
#include "app/gui/widgets/diagnostics_dialog.h"
#include "app/gui/widgets/failure_card.h"
#include "app/gui/widgets/install_panel.h"
#include "app/gui/widgets/mnemonics.h"
#include "app/gui/widgets/models_dialog.h"
#include "app/gui/widgets/settings_dialog.h"
#include "core/format.h"
#include "core/paths.h"
#include "gui_fixture.h"

#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>

using namespace sp;
using namespace sp::test;
using Phase = gui::AppController::Phase;

namespace {

// The window and every dialog it shows, each a tree of its own.
QStringList unnamedIn(gui::MainWindow* window)
{
    QStringList out = unnamedControls(window);
    for (QDialog* d : window->findChildren<QDialog*>())
        if (d->isVisible())
            out += unnamedControls(d);
    return out;
}

// Issue 33, item 8: every visible button of `top` with a word on it has an Alt+letter,
// and no two controls of `top` (its menu bar and labelled fields too) share one.
QStringList mnemonicProblems(QWidget* top)
{
    QStringList out;
    QMap<QChar, QString> owner;
    auto claim = [&](const QString& text) {
        const qsizetype at = text.indexOf(QRegularExpression(QStringLiteral("&[^&]")));
        if (at < 0)
            return false;
        const QChar key = text[at + 1].toUpper();
        if (owner.contains(key))
            out << QStringLiteral("Alt+%1: \"%2\" and \"%3\"").arg(key, owner[key], text);
        owner[key] = text;
        return true;
    };
    if (auto* main = qobject_cast<QMainWindow*>(top))
        for (const QAction* a : main->menuBar()->actions())
            claim(a->text());
    for (const QLabel* l : top->findChildren<QLabel*>())
        if (l->buddy() && l->isVisible() && l->window() == top)
            claim(l->text());
    for (const QAbstractButton* b : top->findChildren<QAbstractButton*>()) {
        const QString text = b->text();
        if (!b->isVisible() || b->window() != top ||
            !std::any_of(text.begin(), text.end(), [](QChar c) { return c.isLetter(); }))
            continue;
        if (!claim(text))
            out << QStringLiteral("no Alt+letter: \"%1\"").arg(text);
    }
    return out;
}

QStringList mnemonicProblemsIn(gui::MainWindow* window)
{
    QStringList out = mnemonicProblems(window);
    for (QDialog* d : window->findChildren<QDialog*>())
        if (d->isVisible())
            out += mnemonicProblems(d);
    return out;
}

// How many interactive controls the walk reaches: a walk that sees nothing proves nothing.
int interactiveCount(gui::MainWindow* window)
{
    return int(namedControls(window).size());
}

// The widgets Tab visits from the workload chooser, in order, once round.
QList<QWidget*> tabOrder(gui::MainWindow* window)
{
    QList<QWidget*> out;
    QWidget* start = window->workloadChooser();
    QWidget* w = start;
    do {
        if (w->isVisible() && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus))
            out << w;
        w = w->nextInFocusChain();
    } while (w && w != start && out.size() < 200);
    return out;
}

#define EXPECT_ALL_NAMED(window, state)                                                            \
    do {                                                                                           \
        QVERIFY2(interactiveCount(window) >= 5, state ": the walk found almost nothing");          \
        const QStringList bad = unnamedIn(window) + mnemonicProblemsIn(window);                    \
        QVERIFY2(bad.isEmpty(),                                                                    \
                 qPrintable(QStringLiteral(state ": ") + bad.join(QStringLiteral("\n  "))));       \
    } while (false)

} // namespace

class TestGuiA11y : public QObject
{
    Q_OBJECT
private slots:
    void readyInstallingRunning()
    {
        GuiWorld w(48 << 20);
        w.server.setFault("/rt/gui-runtime.tar.gz",
                          Fault::stallAfter(8 << 20, std::chrono::milliseconds(3000), 1));
        TestWindow ui(w.controller());
        QVERIFY(ui.ready());
        ui.choose(QStringLiteral("guiwork"));
        EXPECT_ALL_NAMED(ui.window.get(), "ready");
        // Issue 33, item 7: the main button keeps its place and size in every state.
        const auto place = [&] {
            return QRect(ui.primary()->mapTo(ui.window.get(), QPoint(0, 0)), ui.primary()->size());
        };
        const QRect readyPlace = place();
        ui.window->consoleAction()->setChecked(true); // the console's controls as well
        EXPECT_ALL_NAMED(ui.window.get(), "ready, console shown");
        // The walk catches what it is for: the console's ▲ without its name.
        QPushButton* up = nullptr;
        for (QPushButton* b : ui.window->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("▲"))
                up = b;
        QVERIFY(up);
        const QString upName = up->accessibleName();
        up->setAccessibleName(QString());
        QVERIFY(unnamedIn(ui.window.get()).join(QLatin1Char(' ')).contains(QStringLiteral("▲")));
        up->setAccessibleName(upName);
        if (qEnvironmentVariableIsSet("A11Y_LIST"))
            qInfo("%s", qPrintable(namedControls(ui.window.get()).join(QLatin1Char('\n'))));
        ui.app->chooseProfile(QStringLiteral("guiwork"), QStringLiteral("gui-b"), false);
        QTest::mouseClick(ui.primary(), Qt::LeftButton);
        QVERIFY(waitFor([&] {
            return ui.app->phase() == Phase::Installing && ui.window->installPanel()->isVisible();
        }));
        EXPECT_ALL_NAMED(ui.window.get(), "installing");
        QCOMPARE(place(), readyPlace);
        // Issue 33, item 6: the panel's Cancel asks first; "no" leaves the install going.
        QStringList asked;
        ui.window->setConfirm([&](const QString& title, const QString&) {
            asked << title;
            return false;
        });
        QPushButton* cancel = nullptr;
        for (QPushButton* b : ui.window->installPanel()->findChildren<QPushButton*>())
            if (gui::withoutMnemonic(b->text()) == QStringLiteral("Cancel"))
                cancel = b;
        QVERIFY(cancel);
        QTest::mouseClick(cancel, Qt::LeftButton);
        QCOMPARE(asked, QStringList{QStringLiteral("Cancel the install?")});
        QCOMPARE(ui.app->phase(), Phase::Installing);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Running; }, 60000));
        EXPECT_ALL_NAMED(ui.window.get(), "running");
        QCOMPARE(place(), readyPlace);
        // Issue 33, item 10: the tray opens the workload's page while it serves one.
        auto* open = ui.window->findChild<QAction*>(QStringLiteral("open-browser"));
        QVERIFY(open);
        QVERIFY(waitFor([&] { return !ui.app->url().isEmpty(); }, 30000));
        QVERIFY(open->isEnabled());
        ui.app->stop();
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }, 30000));
        QVERIFY(!open->isEnabled());
        // Help ▸ User guide is shipped beside the catalog; Help ▸ <workload>'s own site
        // goes to the workload's first reference.
        QVERIFY(fs::exists(paths::shippedDataDir() / "help" / "USER-GUIDE.md"));
        auto* site = ui.window->findChild<QAction*>(QStringLiteral("workload-help"));
        QVERIFY(site && site->isVisible());
        QCOMPARE(site->data().toUrl(), QUrl(QStringLiteral("https://example.org/gui-fixture")));
        // File ▸ Open folder: the installed stacks, the models, the logs.
        auto* folders = ui.window->findChild<QMenu*>(QStringLiteral("folders"));
        QVERIFY(folders);
        QCOMPARE(folders->actions().size(), 3);
    }

    // Issue 33, item 8: focus starts on the workload; Tab reaches the card's main button
    // before the other stacks and the console.
    void keyboardOrder()
    {
        GuiWorld w;
        TestWindow ui(w.controller());
        QVERIFY(ui.ready());
        ui.choose(QStringLiteral("guiwork"));
        QCOMPARE(ui.window->focusWidget(), ui.window->workloadChooser());
        // Nothing has run: the empty console is folded away and the card has the width.
        QWidget* search = ui.window->console()->findChild<QLineEdit*>();
        QVERIFY(search);
        QVERIFY(!tabOrder(ui.window.get()).contains(search));
        ui.window->consoleAction()->setChecked(true); // View ▸ Console
        QVERIFY(search->isVisible());
        const auto order = tabOrder(ui.window.get());
        const auto at = [&](QWidget* x) { return order.indexOf(x); };
        QCOMPARE(at(ui.window->workloadChooser()), 0);
        QVERIFY2(at(ui.primary()) > 0 && at(ui.primary()) < at(search),
                 qPrintable(QStringLiteral("%1 %2").arg(at(ui.primary())).arg(at(search))));
        QVERIFY(at(ui.primary()) < at(ui.window->findChild<gui::AlternativesView*>()));
    }

    // Issue 33, item 1: the card names the disk an install needs, the install folder
    // (with a way to change it) and the free space there.
    void theCardSaysTheDiskItNeeds()
    {
        GuiWorld w;
        TestWindow ui(w.controller());
        QVERIFY(ui.ready());
        ui.choose(QStringLiteral("guiwork"));
        const QString folder = ui.app->installFolder();
        QVERIFY(waitFor(
            [&] { return ui.window->card()->installText().contains(QStringLiteral(" free")); }));
        const QString text = ui.window->card()->installText();
        const QString need = QString::fromStdString(format::bytes(2 * w.archive.size()));
        QVERIFY2(text.contains(QStringLiteral("Disk: about ") + need) &&
                     text.contains(folder.toHtmlEscaped()) &&
                     text.contains(QStringLiteral("Change…")),
                 qPrintable(text));
        QLabel* label = nullptr;
        for (QLabel* l : ui.window->card()->findChildren<QLabel*>())
            if (l->text() == text)
                label = l;
        QVERIFY(label);
        emit label->linkActivated(QStringLiteral("settings"));
        QVERIFY(waitFor([&] { return ui.window->findChild<gui::SettingsDialog*>() != nullptr; }));
    }

    void failedAndDialogs()
    {
        GuiWorld w;
        w.server.setFault("/rt/gui-runtime.tar.gz", Fault::corrupt(1000, -1));
        TestWindow ui(w.controller());
        QVERIFY(ui.ready());
        ui.choose(QStringLiteral("guiwork"));
        QTest::mouseClick(ui.primary(), Qt::LeftButton);
        QVERIFY(waitFor([&] { return ui.window->failureCard()->isVisible(); }, 60000));
        EXPECT_ALL_NAMED(ui.window.get(), "failed");
        ui.window->failureCard()->hide();
        ui.window->openSettings();
        QVERIFY(ui.window->findChild<gui::SettingsDialog*>());
        EXPECT_ALL_NAMED(ui.window.get(), "settings");
        ui.window->findChild<gui::SettingsDialog*>()->reject();
        ui.window->diagnosticsAction()->trigger();
        auto* diag = ui.window->findChild<gui::DiagnosticsDialog*>();
        QVERIFY(diag);
        QVERIFY(waitFor([&] { return diag->collected(); }, 60000));
        EXPECT_ALL_NAMED(ui.window.get(), "diagnostics");
        diag->reject();
        gui::ModelsDialog* models = ui.window->openModels();
        QVERIFY(models);
        EXPECT_ALL_NAMED(ui.window.get(), "models");
        models->reject();
    }

    void detectionFailed()
    {
        GuiWorld w;
        gui::AppController::Options o;
        o.cliProgram = w.failingDetector();
        o.catalogDirs = {w.catalogDir};
        TestWindow ui(std::make_unique<gui::AppController>(o));
        QVERIFY(waitFor([&] { return !ui.app->detectionError().isEmpty(); }));
        QVERIFY(waitFor([&] { return ui.window->detectionFailureCard()->isVisible(); }));
        EXPECT_ALL_NAMED(ui.window.get(), "detection failed");
    }
};

QTEST_MAIN(TestGuiA11y)
#include "test_gui_a11y.moc"
