#include "app/cli/cli_language.h"
#include "app/cli/command.h"
#include "app/cli/commands/line_writer.h"

#include <QCoreApplication>
#include <cstdlib>
#include <iostream>

#ifdef _WIN32
#include <io.h>
#include <windows.h>
#define isatty _isatty
#define fileno _fileno
#else
#include "stackpilot_version.h"

#include <unistd.h>
#endif

int main(int argc, char** argv)
{
#ifdef _WIN32
    SetConsoleOutputCP(CP_UTF8);
#endif
    // A QCoreApplication gives QProcess and applicationDirPath() what they need; it
    // costs well under a millisecond and no plugins are loaded.
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("stackpilot"));
    QCoreApplication::setApplicationVersion(QStringLiteral(STACKPILOT_VERSION));
    sp::cli::installCliTranslation(sp::cli::cliLanguage(QProcessEnvironment::systemEnvironment()));
    sp::cli::Io io{std::cout, std::cerr, isatty(fileno(stdout)) != 0};
    const int rc = sp::cli::runCli(QCoreApplication::arguments(), io);
    if (sp::cli::abandonedStdout()) {
        // A writer thread is still blocked on a stdout nobody reads: flushing std::cout
        // here or at exit would block too.
        std::cerr.flush();
        std::_Exit(rc);
    }
    std::cout.flush();
    return rc;
}
