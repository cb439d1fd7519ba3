#include "app/gui/main_window.h"
#include "stackpilot_version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("StackPilot"));
    QApplication::setApplicationVersion(QStringLiteral(STACKPILOT_VERSION));

    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("stackpilot"), QStringLiteral("_"),
                        QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption shot(
        QStringLiteral("screenshot"),
        QStringLiteral("Save a screenshot to FILE once detection is done, then quit (for tests)."),
        QStringLiteral("FILE"));
    parser.addOption(shot);
    const QCommandLineOption sysfs(
        QStringLiteral("sysfs-root"),
        QStringLiteral("Detect from DIR instead of /sys (for tests and bug reports)."),
        QStringLiteral("DIR"));
    parser.addOption(sysfs);
    const QCommandLineOption noProbes(QStringLiteral("no-probes"),
                                      QStringLiteral("Skip vendor libraries and tools."));
    parser.addOption(noProbes);
    parser.process(app);

    sp::gui::MainWindow w;
    QStringList detectArgs{QStringLiteral("detect"), QStringLiteral("--json")};
    if (parser.isSet(sysfs))
        detectArgs << QStringLiteral("--sysfs-root") << parser.value(sysfs);
    if (parser.isSet(noProbes))
        detectArgs << QStringLiteral("--no-probes");
    w.setDetectCommand(
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("stackpilot-cli")),
        detectArgs);
    w.resize(820, 420);
    w.show();
    if (parser.isSet(shot)) {
        const QString file = parser.value(shot);
        QObject::connect(&w, &sp::gui::MainWindow::detectionFinished, &app, [&w, file] {
            w.grab().save(file);
            QApplication::quit();
        });
    }
    w.startDetection();
    return QApplication::exec();
}
