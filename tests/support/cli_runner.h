#pragma once
// Running the CLI from a test, in one place: in process (runCli with string streams,
// for the verbs' parsing and messages) or as the real stackpilot-cli binary (exit codes,
// signals, hangs: a run past its time is killed and reported as rc -2).

#include "app/cli/command.h"

#include <QProcess>
#include <QStringList>
#include <sstream>
#include <string>

namespace sp::test {

struct CliRun
{
    int rc = -1;
    std::string out;
    std::string err;
    bool crashed = false;
};

inline CliRun runCliInProcess(QStringList args)
{
    std::ostringstream out, err;
    sp::cli::Io io{out, err, false};
    args.prepend(QStringLiteral("stackpilot-cli"));
    CliRun r;
    r.rc = sp::cli::runCli(args, io);
    r.out = out.str();
    r.err = err.str();
    return r;
}

#ifdef STACKPILOT_BINARY_DIR
inline CliRun runCliBinary(const QStringList& args, int timeoutMs = 60000)
{
    QProcess p;
    p.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-2, {}, "timed out", false};
    }
    return {p.exitCode(), p.readAllStandardOutput().toStdString(),
            p.readAllStandardError().toStdString(), p.exitStatus() != QProcess::NormalExit};
}
#endif

} // namespace sp::test
