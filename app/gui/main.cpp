// stackpilot: the window. `--hardware SNAPSHOT.json` shows what a recorded machine's
// user saw (plans only; nothing is installed or launched), so a helper can reproduce
// a report and screenshots can be made anywhere.

#include "app/gui/controllers/app_controller.h"
#include "app/gui/i18n.h"
#include "app/gui/widgets/knowledge_status.h"
#include "app/gui/widgets/main_window.h"
#include "app/gui/widgets/style.h"
#include "core/qt_text.h"
#include "core/settings.h"
#include "stackpilot_version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QLocale>
#include <QScreen>
#include <QStyleHints>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace {

// The window's command line: what it means is in the help text.
struct Cli
{
    QCommandLineOption hardware{
        QStringLiteral("hardware"),
        QStringLiteral("Show the window for a recorded machine (a snapshot from detect --json); "
                       "nothing is installed or launched."),
        QStringLiteral("SNAPSHOT.json")};
    QCommandLineOption catalogDir{QStringLiteral("catalog-dir"),
                                  QStringLiteral("Read extra catalog files from DIR."),
                                  QStringLiteral("DIR")};
    QCommandLineOption sysfs{QStringLiteral("sysfs-root"),
                             QStringLiteral("Detect from DIR instead of /sys."),
                             QStringLiteral("DIR")};
    QCommandLineOption noProbes{QStringLiteral("no-probes"),
                                QStringLiteral("Skip vendor libraries and tools.")};
    QCommandLineOption shot{QStringLiteral("screenshot"),
                            QStringLiteral("Save the window to FILE once plans are shown, "
                                           "then quit."),
                            QStringLiteral("FILE")};
    QCommandLineOption firstPaint{
        QStringLiteral("print-first-paint"),
        QStringLiteral("Print the milliseconds to the first painted window, then quit "
                       "(the start-up benchmark).")};
    QCommandLineOption theme{QStringLiteral("theme"),
                             QStringLiteral("Use this theme instead of the one in Settings: "
                                            "light, dark or system."),
                             QStringLiteral("THEME")};
    QCommandLineParser parser;

    void process(QApplication& app)
    {
        parser.setApplicationDescription(
            QStringLiteral("Runs local AI workloads on the stack known to work on your GPU."));
        parser.addHelpOption();
        parser.addVersionOption();
        for (const auto& o : {hardware, catalogDir, sysfs, noProbes, shot, firstPaint, theme})
            parser.addOption(o);
        parser.process(app);
        const QString t = parser.value(theme);
        if (!t.isEmpty() && t != QLatin1String("light") && t != QLatin1String("dark") &&
            t != QLatin1String("system")) {
            std::fprintf(stderr, "--theme must be light, dark or system\n");
            std::exit(2);
        }
        sp::gui::style::setThemeOverride(t);
    }
};

sp::gui::AppController::Options controllerOptions(const Cli& cli,
                                                  const sp::Expected<sp::Settings>& settings)
{
    sp::gui::AppController::Options options;
    options.cliProgram =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("stackpilot-cli"));
    options.detect.sysfsRoot = sp::toPath(cli.parser.value(cli.sysfs));
    options.detect.probes = !cli.parser.isSet(cli.noProbes);
    if (settings)
        options.detect.probeTimeoutMs = settings->probeTimeoutMs;
    options.hardwareFile = sp::toPath(cli.parser.value(cli.hardware));
    for (const QString& d : cli.parser.values(cli.catalogDir))
        options.catalogDirs.push_back(sp::toPath(d));
    return options;
}

// --screenshot FILE: the window once plans are shown (or detection failed), then quit.
void saveScreenshotWhenReady(sp::gui::AppController& controller, sp::gui::MainWindow& window,
                             const QString& file)
{
    QObject::connect(&controller, &sp::gui::AppController::phaseChanged, &window, [&, file] {
        if (controller.phase() != sp::gui::AppController::Phase::Ready)
            return;
        QTimer::singleShot(300, &window, [&, file] {
            window.grab().save(file);
            QApplication::quit();
        });
    });
    QObject::connect(&controller, &sp::gui::AppController::detected, &window, [&, file] {
        if (!controller.detectionError().isEmpty()) {
            window.grab().save(file);
            QApplication::quit();
        }
    });
}

void setUpApplication()
{
    QApplication::setApplicationName(QStringLiteral("StackPilot"));
    QApplication::setApplicationVersion(QStringLiteral(STACKPILOT_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("stackpilot"));
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    // Qt 6.5+ reports the system's colour scheme. Fusion follows it on every platform
    // (Windows' native style is light only); every widget takes its colours from the
    // palette, so a dark scheme needs nothing else.
    if (QGuiApplication::styleHints()->colorScheme() == Qt::ColorScheme::Dark)
        QApplication::setStyle(QStringLiteral("Fusion"));
#endif
}

// The first size: the window's own, or 90 % of the screen's free area when that is
// smaller, so that on a 1366×768 laptop the status bar, where errors go, stays visible.
QSize firstSize()
{
    const QSize wanted(1180, 780);
    const QScreen* screen = QGuiApplication::primaryScreen();
    return screen ? wanted.boundedTo(screen->availableSize() * 0.9) : wanted;
}

} // namespace

int main(int argc, char** argv)
{
    QElapsedTimer sinceStart;
    sinceStart.start();
    QApplication app(argc, argv);
    setUpApplication();
    Cli cli;
    cli.process(app);

    // One small file, read before any widget exists, decides the language.
    const auto settings = sp::Settings::load();
    sp::gui::setLanguage(settings ? settings->language : std::string());
    sp::gui::style::applyTheme(settings ? sp::qs(settings->theme) : QString());

    sp::gui::AppController controller(controllerOptions(cli, settings));
    sp::gui::MainWindow window(&controller);
    window.resize(firstSize());
    if (cli.parser.isSet(cli.firstPaint)) {
        QObject::connect(&window, &sp::gui::MainWindow::firstPainted, &app, [&] {
            std::printf("first-paint-ms %lld\n", static_cast<long long>(sinceStart.elapsed()));
            std::fflush(stdout);
            QApplication::quit();
        });
    }
    if (cli.parser.isSet(cli.shot))
        saveScreenshotWhenReady(controller, window, cli.parser.value(cli.shot));
    // Detection and the catalog load start once the window has painted, so it appears at
    // once; they run off the GUI thread. A window that is never painted (started
    // minimized) starts them after half a second.
    bool started = false;
    const auto begin = [&] {
        if (std::exchange(started, true))
            return;
        controller.start();
        if (!cli.parser.isSet(cli.firstPaint)) // the benchmark times the window alone
            sp::gui::startKnowledgeStatus(window);
    };
    QObject::connect(&window, &sp::gui::MainWindow::firstPainted, &controller, begin);
    QTimer::singleShot(500, &controller, begin);
    window.show();
    return QApplication::exec();
}
