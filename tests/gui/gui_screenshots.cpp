// Saves the window's main states as PNG files for docs/screenshots (run it through
// .ci/screenshots, under Xvfb): detecting, ready, installing, running, the failure
// banner, the Chinese UI, seed 000's RX 6750 XT through --hardware with its "Why this
// stack?", and a dark palette. Each state
// is reached the way a user reaches it, with the GUI tests' fixture world (a loopback server and
// the stand-in workload).

#include "app/gui/i18n.h"
#include "app/gui/widgets/console_view.h"
#include "app/gui/widgets/failure_card.h"
#include "app/gui/widgets/install_panel.h"
#include "app/gui/widgets/main_window.h"
#include "app/gui/widgets/plan_dialogs.h"
#include "app/gui/widgets/profile_card.h"
#include "app/gui/widgets/style.h"
#include "core/settings.h"
#include "gui_fixture.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLibraryInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QToolButton>
#include <cstdio>

using namespace sp;
using namespace sp::test;
using gui::AppController;
using Phase = AppController::Phase;

namespace {

QString g_out;

void save(QWidget& w, const char* name, int settleMs = 400)
{
    QTest::qWait(settleMs); // let layouts settle and the last repaint land
    const QString file = QDir(g_out).filePath(QString::fromLatin1(name));
    if (!w.grab().save(file))
        qFatal("cannot write %s", qPrintable(file));
    std::printf("saved %s\n", qPrintable(file));
}

void must(bool ok, const char* what)
{
    if (!ok)
        qFatal("screenshot state not reached: %s", what);
}

struct Shot
{
    std::unique_ptr<AppController> app;
    std::unique_ptr<gui::MainWindow> window;

    explicit Shot(AppController::Options o) : app(std::make_unique<AppController>(std::move(o)))
    {
        window = std::make_unique<gui::MainWindow>(app.get());
        window->setConfirm([](const QString&, const QString&) { return true; });
        window->resize(1180, 780);
        window->show();
        app->start();
    }
    void workload(const QString& id)
    {
        must(waitFor([&] { return app->phase() == Phase::Ready; }), "ready");
        auto* c = window->workloadChooser();
        c->setCurrentIndex(c->findData(id));
        emit c->activated(c->currentIndex());
    }
};

AppController::Options fixtureOptions(const GuiWorld& w)
{
    AppController::Options o;
    o.snapshot = GuiWorld::snapshot();
    o.catalogDirs = {w.catalogDir.string()};
    return o;
}

void detectingAndReady()
{
    GuiWorld w;
    // A detector that takes its time, so the window shows its first state.
    const QString slow = QString::fromStdString((w.root / "slow-cli").string());
    QFile f(slow);
    f.open(QIODevice::WriteOnly);
    f.write("#!/bin/sh\nsleep 30\n");
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::ExeOwner | QFile::ReadUser | QFile::ExeUser);
    AppController::Options o;
    o.cliProgram = slow;
    Shot detecting(o);
    save(*detecting.window, "detecting.png");

    Shot ready(fixtureOptions(w));
    ready.workload(QStringLiteral("guiwork"));
    save(*ready.window, "ready.png");
}

void installingRunningAndFailure()
{
    GuiWorld w(48 << 20);
    w.server.setFault("/rt/gui-runtime.tar.gz",
                      Fault::stallAfter(20 << 20, std::chrono::milliseconds(4000), 3));
    Shot s(fixtureOptions(w));
    s.workload(QStringLiteral("guiwork"));
    s.app->launch();
    must(waitFor([&] {
             return s.app->phase() == Phase::Installing && s.window->installPanel()->isVisible() &&
                    s.window->installPanel()->overallPermille() > 100;
         }),
         "installing");
    save(*s.window, "installing.png", 0); // while the server holds the download back
    must(waitFor([&] { return s.window->console()->banner()->isVisible(); }, 60000), "banner");
    save(*s.window, "failure-banner.png");
    QTest::mouseClick(s.window->console()->banner()->actionButton(), Qt::LeftButton);
    must(waitFor(
             [&] {
                 return s.app->phase() == Phase::Running &&
                        s.app->runningProfile() == QStringLiteral("gui-b") &&
                        s.window->console()->openUrlButton()->isVisible();
             },
             30000),
         "running");
    save(*s.window, "running.png");
    s.app->stop();
    must(waitFor([&] { return s.app->phase() == Phase::Ready; }, 30000), "stopped");
}

// The dark theme (Settings ▸ Theme ▸ Dark), with the failure banner shown.
void darkPalette()
{
    gui::style::setThemeOverride(QStringLiteral("dark")); // as `stackpilot --theme dark`
    gui::style::applyTheme(QString());
    GuiWorld w;
    Shot s(fixtureOptions(w));
    s.workload(QStringLiteral("guiwork"));
    s.app->launch();
    must(waitFor([&] { return s.window->console()->banner()->isVisible(); }, 60000), "banner");
    save(*s.window, "dark.png");
    s.app->stop();
    must(waitFor([&] { return s.app->phase() == Phase::Ready; }, 30000), "stopped");
    gui::style::setThemeOverride(QString());
    gui::style::applyTheme(QString());
}

// As a user has it: the language in settings.json, applied as main.cpp does.
void setLanguage(const char* language)
{
    Settings settings;
    if (auto loaded = Settings::load())
        settings = *loaded;
    settings.language = language;
    if (!settings.save(Settings::defaultFile()).ok())
        qFatal("cannot write settings");
    gui::setLanguage(language);
}

void chineseUi()
{
    setLanguage("zh_CN");
    AppController::Options o;
    o.hardwareFile = STACKPILOT_SOURCE_DIR "/tests/gui/fixtures/seed000-windows-rx6750xt.json";
    Shot s(o);
    s.workload(QStringLiteral("sdnext"));
    save(*s.window, "zh_CN.png");
    GuiWorld w; // its own home: the language goes into its settings.json too
    setLanguage("zh_CN");
    w.server.setFault("/rt/gui-runtime.tar.gz", Fault::corrupt(1000, -1));
    Shot f(fixtureOptions(w));
    f.workload(QStringLiteral("guiwork"));
    f.window->card()->primaryButton()->click();
    must(waitFor([&] { return f.window->failureCard()->isVisible(); }, 60000), "zh failure");
    save(*f.window, "zh_CN-install-failed.png");
    setLanguage("");
}

// Each failure's card: an install (a damaged download), detection, a crash.
void failureCards()
{
    GuiWorld w;
    w.server.setFault("/rt/gui-runtime.tar.gz", Fault::corrupt(1000, -1));
    Shot install(fixtureOptions(w));
    install.workload(QStringLiteral("guiwork"));
    // The checklist the user confirms before an install, as its dialog shows it.
    install.window->setConfirm([](const QString& title, const QString& text) {
        QMessageBox box(QMessageBox::Question, title, text, QMessageBox::Yes | QMessageBox::No);
        box.show();
        save(box, "before-install.png");
        return true;
    });
    install.window->card()->primaryButton()->click();
    must(waitFor([&] { return install.window->failureCard()->isVisible(); }, 60000), "install");
    save(*install.window, "install-failed.png");

    AppController::Options o = fixtureOptions(w);
    o.snapshot.reset();
    o.cliProgram = w.failingDetector();
    Shot detect(o);
    must(waitFor([&] { return detect.window->detectionFailureCard()->isVisible(); }), "detect");
    save(*detect.window, "detection-failed.png");

    GuiWorld c; // a home of its own: the failed install above left its journal
    c.addCrashWorkload();
    Shot crash(fixtureOptions(c));
    crash.workload(QStringLiteral("crashwork"));
    crash.window->card()->primaryButton()->click();
    must(waitFor([&] { return crash.window->failureCard()->isVisible(); }, 60000), "crash");
    save(*crash.window, "crashed.png");
}

void seed000()
{
    AppController::Options o;
    o.hardwareFile = STACKPILOT_SOURCE_DIR "/tests/gui/fixtures/seed000-windows-rx6750xt.json";
    Shot s(o);
    s.workload(QStringLiteral("sdnext"));
    save(*s.window, "seed000-rx6750xt.png");
    // "Why this stack?" in plain words, then with the experts' fold open (issue 33, item 2).
    must(waitFor([&] { return s.app->currentPlan() != nullptr; }), "seed 000 plan");
    gui::DetailsDialog why(*s.app->currentPlan(), s.window.get());
    why.show();
    save(why, "why-this-stack.png");
    why.expertToggle()->click();
    save(why, "why-this-stack-experts.png");
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("StackPilot"));
    g_out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("docs/screenshots");
    QDir().mkpath(g_out);
    gui::setLanguage("en"); // as the window starts: the English plural forms too
    detectingAndReady();
    installingRunningAndFailure();
    seed000();
    chineseUi();
    darkPalette();
    failureCards();
    return 0;
}
