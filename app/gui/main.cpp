#include "app/gui/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("StackPilot"));
    QApplication::setApplicationVersion(QStringLiteral(STACKPILOT_VERSION));

    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption shot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save a screenshot to FILE once detection is done, then quit (for tests)."),
                                  QStringLiteral("FILE"));
    parser.addOption(shot);
    parser.process(app);

    sp::gui::MainWindow w;
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
