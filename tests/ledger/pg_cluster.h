#pragma once
// A throwaway PostgreSQL cluster from Debian's `postgresql` package: initdb and pg_ctl in
// a temporary folder, run as the `postgres` user when the caller is root (the server
// refuses root), reached over a Unix socket in that folder, stopped when it goes.
// tests/ledger/test_ledger_postgres and tests/bench/ledger use it.

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <pwd.h>
#include <string>
#include <unistd.h>

namespace sp::test {

inline QString pgBin(const QString& tool)
{
    // Debian keeps the server's tools per major version, off the PATH.
    const QDir root(QStringLiteral("/usr/lib/postgresql"));
    QStringList versions = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (auto it = versions.rbegin(); it != versions.rend(); ++it) {
        const QString path = root.filePath(*it + QStringLiteral("/bin/") + tool);
        if (QFileInfo::exists(path))
            return path;
    }
    return {};
}

// Runs a server tool, as `postgres` when we are root; its exit code (-1: not run).
inline int runTool(const QString& tool, const QStringList& args, std::string* output = nullptr)
{
    QProcess p;
    if (::geteuid() == 0)
        p.start(QStringLiteral("runuser"),
                QStringList{QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("--"),
                            tool} +
                    args);
    else
        p.start(tool, args);
    if (!p.waitForFinished(60000))
        return -1;
    if (output)
        *output = p.readAllStandardOutput().toStdString() + p.readAllStandardError().toStdString();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

class PgCluster
{
public:
    explicit PgCluster(const QString& dir) : m_dir(dir)
    {
        if (::geteuid() == 0) {
            const passwd* pw = ::getpwnam("postgres");
            if (!pw || ::chown(dir.toLocal8Bit().constData(), pw->pw_uid, pw->pw_gid) != 0)
                return;
        }
        const QString data = dir + QStringLiteral("/data");
        if (runTool(pgBin(QStringLiteral("initdb")),
                    {QStringLiteral("-D"), data, QStringLiteral("-A"), QStringLiteral("trust"),
                     QStringLiteral("-U"), QStringLiteral("ledger"), QStringLiteral("--no-sync")},
                    &m_log) != 0)
            return;
        const QString options = QStringLiteral("-k %1 -c listen_addresses='' -p 54329").arg(dir);
        m_started = runTool(pgBin(QStringLiteral("pg_ctl")),
                            {QStringLiteral("-D"), data, QStringLiteral("-o"), options,
                             QStringLiteral("-l"), dir + QStringLiteral("/server.log"),
                             QStringLiteral("-w"), QStringLiteral("start")},
                            &m_log) == 0;
    }
    ~PgCluster()
    {
        if (m_started)
            runTool(pgBin(QStringLiteral("pg_ctl")),
                    {QStringLiteral("-D"), m_dir + QStringLiteral("/data"), QStringLiteral("-m"),
                     QStringLiteral("immediate"), QStringLiteral("stop")});
    }
    bool started() const { return m_started; }
    const std::string& log() const { return m_log; }
    std::string url() const
    {
        return "postgresql://ledger@/postgres?host=" + m_dir.toStdString() + "&port=54329";
    }

private:
    QString m_dir;
    bool m_started = false;
    std::string m_log;
};

} // namespace sp::test
