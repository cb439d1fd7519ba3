#pragma once
// The maintainers' ledger: shared records in one database (SQLite by default, PostgreSQL
// by URL), with the same schema and the same SQL on both, created by numbered migrations.
// Records are keyed by their record id, so ingesting the same file twice adds nothing, and
// each batch is one transaction, so a crash mid-ingest loses nothing already committed and
// leaves no half batch (docs/LEDGER.md).

#include "app/common/ledger/shared_record.h"
#include "app/common/ledger/sql.h"

#include <memory>
#include <string>
#include <vector>

namespace sp::ledger {

// One row of `ledger report`: a profile on one card (PCI id and arch), OS and driver.
// Counts are of distinct installs, so a flood from one install counts once.
struct ReportRow
{
    std::string profile, pciId, arch, os, driver;
    long long passes = 0;   // installs with a passing record
    long long failures = 0; // installs with a failing record
    long long installs = 0;
    std::string firstSeen, lastSeen;
    std::vector<std::string> knownIssues;
    std::vector<std::string> decisiveLines; // at most 5, the most frequent first
};

class LedgerStore
{
public:
    // Opens the database and brings its schema up to date.
    static Expected<LedgerStore> open(const std::string& db);

    // Adds the records in one transaction; the number that were new.
    Expected<std::size_t> add(const std::vector<SharedRecord>& batch);
    Expected<std::vector<ReportRow>> report();
    // Counts of the records since `since` (ISO 8601) per profile; per profile and driver
    // (then with the failures' known issues and decisive lines); or per profile and GPU
    // family (`arch`). Only those parts of a row's key are set.
    enum class CountBy
    {
        Profile,
        Driver,
        Arch
    };
    Expected<std::vector<ReportRow>> counts(const std::string& since, CountBy by);
    Expected<long long> count();

    // The schema version the database is at (the number of migrations applied).
    static int latestSchema();

private:
    explicit LedgerStore(std::unique_ptr<SqlConnection> sql) : m_sql(std::move(sql)) {}
    Expected<void> migrate();
    Expected<void> attachDetails(std::vector<ReportRow>& rows, const char* sql,
                                 const SqlRow& params);
    std::unique_ptr<SqlConnection> m_sql;
};

nlohmann::json toJson(const ReportRow& row);

} // namespace sp::ledger
