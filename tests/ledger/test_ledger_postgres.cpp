// The ledger on PostgreSQL: the same ingest and report as on SQLite, against a throwaway
// cluster from Debian's `postgresql` package (initdb and pg_ctl in a temporary folder, run
// as the `postgres` user when the test runs as root, since the server refuses root),
// reached over a Unix socket in that folder and removed afterwards.

#include "app/common/ledger/ingest.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <pwd.h>
#include <unistd.h>

using namespace sp::ledger;
using nlohmann::json;

namespace {

QString pgBin(const QString& tool)
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
int runTool(const QString& tool, const QStringList& args, std::string* output = nullptr)
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

class Cluster
{
public:
    explicit Cluster(const QString& dir) : m_dir(dir)
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
    ~Cluster()
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

json record(int n, const std::string& install, bool passed)
{
    char id[33];
    std::snprintf(id, sizeof id, "%032x", n);
    return {{"schema", 1},
            {"record_id", id},
            {"install_id", install},
            {"at", "2026-11-2" + std::to_string(n % 9) + "T10:00:00Z"},
            {"kind", "verify"},
            {"workload", "comfyui"},
            {"profile", "comfyui-cuda-linux"},
            {"catalog", "shipped"},
            {"pci_id", "10de:2335"},
            {"revision", "a1"},
            {"arch", "sm_90"},
            {"vram_class_gib", 192},
            {"driver", n % 2 ? "580.159.04" : "575.57.08"},
            {"os", "linux"},
            {"os_build", "24.04"},
            {"runtimes", json::array()},
            {"passed", passed},
            {"known_issue", ""},
            {"decisive_line", passed ? "" : "CUDA error: an illegal memory access was encountered"},
            {"seconds", passed ? json(0.25) : json(nullptr)}};
}

std::vector<json> reportOf(const std::string& db, const std::string& source)
{
    auto store = LedgerStore::open(db);
    if (!store)
        qFatal("%s", store.error().message.c_str());
    auto first = ingest({source}, IngestChecks{}, *store);
    auto second = ingest({source}, IngestChecks{}, *store);
    if (!first || !second || second->added != 0)
        qFatal("ingest failed or was not idempotent on %s", db.c_str());
    const auto report = store->report(); // kept: a range-for over *temporary would dangle
    if (!report)
        qFatal("%s", report.error().message.c_str());
    std::vector<json> rows;
    for (const auto& r : *report)
        rows.push_back(toJson(r));
    return rows;
}

} // namespace

class TestLedgerPostgres : public QObject
{
    Q_OBJECT
private slots:
    void sameResultsAsSqlite()
    {
        if (pgBin(QStringLiteral("initdb")).isEmpty())
            QSKIP("no PostgreSQL server tools (Debian's postgresql package; .ci/install-deps has "
                  "it)");
        if (auto probe = openSql("postgresql://nobody@/none?host=/nonexistent");
            !probe && probe.error().message.find("no PostgreSQL client") != std::string::npos)
            QSKIP("this build has no libpq");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Cluster cluster(dir.path());
        QVERIFY2(cluster.started(), cluster.log().c_str());

        const std::string source = dir.path().toStdString() + "/records.jsonl";
        {
            std::ofstream out(source);
            for (int n = 1; n <= 3000; ++n) // three installs; one floods
                out << record(n, n <= 2990 ? std::string(32, 'a') : std::string(32, 'b' + n % 2),
                              n % 7 != 0)
                           .dump()
                    << "\n";
        }
        const auto onPostgres = reportOf(cluster.url(), source);
        const auto onSqlite = reportOf(dir.path().toStdString() + "/l.db", source);
        QVERIFY(!onPostgres.empty());
        QCOMPARE(json(onPostgres).dump(), json(onSqlite).dump());
        // The flood of 2,990 records counts as one install.
        for (const auto& row : onPostgres)
            QVERIFY2(row["installs"].get<long long>() <= 3, row.dump().c_str());
        // A second open runs no migration again.
        QVERIFY(LedgerStore::open(cluster.url()).ok());
    }
};

QTEST_GUILESS_MAIN(TestLedgerPostgres)
#include "test_ledger_postgres.moc"
