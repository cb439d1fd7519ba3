#pragma once
// The real `git daemon` serving the repositories under a folder on 127.0.0.1, for tests
// of git sources (installs, `catalog check`): the git protocol itself, which the HTTP test
// server does not speak. Header-only, as it needs QtCore and the support library does not.
//
//   sp::test::GitDaemon daemon;
//   QVERIFY(daemon.start(dir));                 // dir/repo.git is then
//   const std::string url = daemon.url() + "/repo.git";

#include "support/loopback.h"

#include <QProcess>
#include <QThread>
#include <csignal>
#include <filesystem>
#include <string>
#include <sys/prctl.h>

namespace sp::test {

class GitDaemon
{
public:
    GitDaemon() = default;
    ~GitDaemon() { stop(); }
    GitDaemon(const GitDaemon&) = delete;
    GitDaemon& operator=(const GitDaemon&) = delete;

    // Serves every repository under `dir`; false when it did not start or does not accept
    // connections within 10 s.
    bool start(const std::filesystem::path& dir)
    {
        const QString execPath = gitExecPath();
        if (execPath.isEmpty())
            return false;
        const std::uint16_t port = freePort();
        const QString served = QString::fromStdString(dir.string());
        // git-daemon itself, not the `git` wrapper, so killing the process stops the
        // server; and it dies with the test even when the test crashes.
        m_process.setProgram(execPath + QStringLiteral("/git-daemon"));
        m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        m_process.setArguments(
            {QStringLiteral("--reuseaddr"), QStringLiteral("--base-path=") + served,
             QStringLiteral("--export-all"), QStringLiteral("--listen=127.0.0.1"),
             QStringLiteral("--port=") + QString::number(port), served});
        // The port probes make it log "remote end hung up"; nothing else is of use.
        m_process.setStandardOutputFile(QProcess::nullDevice());
        m_process.setStandardErrorFile(QProcess::nullDevice());
        m_process.start();
        if (!m_process.waitForStarted())
            return false;
        for (int i = 0; i < 200 && !acceptsConnections(port); ++i)
            QThread::msleep(50);
        if (!acceptsConnections(port))
            return false;
        m_url = "git://127.0.0.1:" + std::to_string(port);
        return true;
    }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.kill();
        m_process.waitForFinished(5000);
    }

    std::string url() const { return m_url; } // "git://127.0.0.1:<port>"

private:
    QProcess m_process;
    std::string m_url;

    static QString gitExecPath()
    {
        QProcess git;
        git.start(QStringLiteral("git"), {QStringLiteral("--exec-path")});
        if (!git.waitForFinished(30000) || git.exitCode() != 0)
            return {};
        return QString::fromLocal8Bit(git.readAllStandardOutput()).trimmed();
    }
};

} // namespace sp::test
