// The ledger on PostgreSQL: the same ingest and report as on SQLite, against a throwaway
// cluster from Debian's `postgresql` package (initdb and pg_ctl in a temporary folder, run
// as the `postgres` user when the test runs as root, since the server refuses root),
// reached over a Unix socket in that folder and removed afterwards.

#include "app/common/ledger/ingest.h"
#include "tests/ledger/pg_cluster.h"

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
        if (sp::test::pgBin(QStringLiteral("initdb")).isEmpty())
            QSKIP("no PostgreSQL server tools (Debian's postgresql package; .ci/install-deps has "
                  "it)");
        if (auto probe = openSql("postgresql://nobody@/none?host=/nonexistent");
            !probe && probe.error().message.find("no PostgreSQL client") != std::string::npos)
            QSKIP("this build has no libpq");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        sp::test::PgCluster cluster(dir.path());
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
