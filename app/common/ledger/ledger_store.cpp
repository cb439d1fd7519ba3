#include "app/common/ledger/ledger_store.h"

#include <algorithm>
#include <map>

namespace sp::ledger {

using nlohmann::json;

namespace {

// Each migration once, in order; the schema_version table says how many ran. Types are the
// ones both engines read alike (INTEGER, DOUBLE PRECISION, TEXT).
const char* const kMigrations[] = {
    "CREATE TABLE records ("
    " record_id TEXT PRIMARY KEY, install_id TEXT NOT NULL, at TEXT NOT NULL,"
    " kind TEXT NOT NULL, workload TEXT NOT NULL, profile TEXT NOT NULL,"
    " catalog TEXT NOT NULL, pci_id TEXT NOT NULL, revision TEXT NOT NULL,"
    " arch TEXT NOT NULL, vram_class_gib INTEGER NOT NULL, driver TEXT NOT NULL,"
    " os TEXT NOT NULL, os_build TEXT NOT NULL, runtimes TEXT NOT NULL,"
    " passed INTEGER NOT NULL, known_issue TEXT NOT NULL, decisive_line TEXT NOT NULL,"
    " seconds DOUBLE PRECISION);"
    "CREATE INDEX records_group ON records (profile, pci_id, arch, os, driver);",
    // 2: `report` reads its groups from one index that holds every column it counts, in
    // group order, never the table (SQLite took 2.55 s for a million records without it).
    "DROP INDEX records_group;"
    "CREATE INDEX records_report ON records"
    " (profile, pci_id, arch, os, driver, passed, install_id, at);",
};

// Up to kRowsPerInsert records per statement: one round trip for 50 rows, which a server
// engine needs (PostgreSQL took 114 s per million one row at a time) and SQLite likes too.
constexpr std::size_t kRowsPerInsert = 50;

std::string insertFor(std::size_t rows)
{
    std::string sql =
        "INSERT INTO records (record_id, install_id, at, kind, workload, profile, catalog, pci_id,"
        " revision, arch, vram_class_gib, driver, os, os_build, runtimes, passed, known_issue,"
        " decisive_line, seconds) VALUES ";
    for (std::size_t i = 0; i < rows; ++i)
        sql += std::string(i ? ", " : "") +
               "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    return sql + " ON CONFLICT (record_id) DO NOTHING";
}

const char* const kGroups = "SELECT profile, pci_id, arch, os, driver,"
                            " COUNT(DISTINCT CASE WHEN passed = 1 THEN install_id END),"
                            " COUNT(DISTINCT CASE WHEN passed = 0 THEN install_id END),"
                            " COUNT(DISTINCT install_id), MIN(at), MAX(at)"
                            " FROM records GROUP BY profile, pci_id, arch, os, driver"
                            " ORDER BY profile, pci_id, arch, os, driver";

const char* const kDetails =
    "SELECT profile, pci_id, arch, os, driver, known_issue, decisive_line, COUNT(*)"
    " FROM records WHERE passed = 0"
    " GROUP BY profile, pci_id, arch, os, driver, known_issue, decisive_line"
    " ORDER BY COUNT(*) DESC, known_issue, decisive_line";

const char* const kCountsByProfile =
    "SELECT profile, '', '', '', '',"
    " COUNT(DISTINCT CASE WHEN passed = 1 THEN install_id END),"
    " COUNT(DISTINCT CASE WHEN passed = 0 THEN install_id END),"
    " COUNT(DISTINCT install_id), MIN(at), MAX(at)"
    " FROM records WHERE at >= ? GROUP BY profile ORDER BY profile";

const char* const kCountsByDriver =
    "SELECT profile, '', '', '', driver,"
    " COUNT(DISTINCT CASE WHEN passed = 1 THEN install_id END),"
    " COUNT(DISTINCT CASE WHEN passed = 0 THEN install_id END),"
    " COUNT(DISTINCT install_id), MIN(at), MAX(at)"
    " FROM records WHERE at >= ? GROUP BY profile, driver ORDER BY profile, driver";

const char* const kCountsByArch =
    "SELECT profile, '', arch, '', '',"
    " COUNT(DISTINCT CASE WHEN passed = 1 THEN install_id END),"
    " COUNT(DISTINCT CASE WHEN passed = 0 THEN install_id END),"
    " COUNT(DISTINCT install_id), MIN(at), MAX(at)"
    " FROM records WHERE at >= ? AND arch <> '' GROUP BY profile, arch ORDER BY profile, arch";

const char* const kDriverDetails =
    "SELECT profile, '', '', '', driver, known_issue, decisive_line, COUNT(*)"
    " FROM records WHERE passed = 0 AND at >= ?"
    " GROUP BY profile, driver, known_issue, decisive_line"
    " ORDER BY COUNT(*) DESC, known_issue, decisive_line";

SqlRow paramsOf(const SharedRecord& r)
{
    json runtimes = toJson(r)["runtimes"];
    return {r.recordId,
            r.installId,
            r.at,
            r.kind,
            r.workload,
            r.profile,
            r.catalog,
            r.pciId,
            r.revision,
            r.arch,
            static_cast<long long>(r.vramClassGib),
            r.driver,
            r.os,
            r.osBuild,
            runtimes.dump(),
            static_cast<long long>(r.passed ? 1 : 0),
            r.knownIssue,
            r.decisiveLine,
            r.seconds ? SqlValue(*r.seconds) : SqlValue(nullptr)};
}

std::string groupKey(const SqlRow& row)
{
    std::string key;
    for (std::size_t i = 0; i < 5; ++i)
        key += textOf(row[i]) + '\x1f';
    return key;
}

template <class T> void addOnce(std::vector<T>& list, const T& v, std::size_t max)
{
    if (list.size() < max && std::find(list.begin(), list.end(), v) == list.end())
        list.push_back(v);
}

} // namespace

int LedgerStore::latestSchema()
{
    return int(std::size(kMigrations));
}

Expected<LedgerStore> LedgerStore::open(const std::string& db)
{
    auto sql = openSql(db);
    if (!sql)
        return sql.error();
    LedgerStore store(std::move(*sql));
    if (auto m = store.migrate(); !m)
        return Error::runtime(db + ": " + m.error().message);
    return store;
}

Expected<void> LedgerStore::migrate()
{
    if (auto t =
            m_sql->exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
        !t)
        return t;
    auto rows = m_sql->query("SELECT MAX(version) FROM schema_version", {});
    if (!rows)
        return rows.error();
    const long long at = rows->empty() ? 0 : integerOf(rows->front().front());
    if (at > latestSchema())
        return Error::runtime("the ledger's schema " + std::to_string(at) +
                              " is newer than this StackPilot knows (" +
                              std::to_string(latestSchema()) + ")");
    for (long long v = at; v < latestSchema(); ++v) {
        // One transaction per migration: a crash leaves it applied with its number, or not.
        if (auto b = m_sql->exec("BEGIN"); !b)
            return b;
        Expected<void> done = m_sql->exec(kMigrations[v]);
        if (done) {
            if (auto n = m_sql->change("INSERT INTO schema_version (version) VALUES (?)", {v + 1});
                !n)
                done = n.error();
        }
        if (!done) {
            (void)m_sql->exec("ROLLBACK");
            return done;
        }
        if (auto c = m_sql->exec("COMMIT"); !c)
            return c;
    }
    return {};
}

Expected<std::size_t> LedgerStore::add(const std::vector<SharedRecord>& batch)
{
    if (auto b = m_sql->exec("BEGIN"); !b)
        return b.error();
    static const std::string full = insertFor(kRowsPerInsert);
    std::size_t added = 0;
    for (std::size_t from = 0; from < batch.size(); from += kRowsPerInsert) {
        const std::size_t rows = std::min(kRowsPerInsert, batch.size() - from);
        SqlRow params;
        params.reserve(rows * 19);
        for (std::size_t i = from; i < from + rows; ++i)
            for (auto& v : paramsOf(batch[i]))
                params.push_back(std::move(v));
        auto changed = m_sql->change(rows == kRowsPerInsert ? full : insertFor(rows), params);
        if (!changed) {
            (void)m_sql->exec("ROLLBACK");
            return changed.error();
        }
        added += std::size_t(*changed);
    }
    if (auto c = m_sql->exec("COMMIT"); !c)
        return c.error();
    return added;
}

Expected<long long> LedgerStore::count()
{
    auto rows = m_sql->query("SELECT COUNT(*) FROM records", {});
    if (!rows)
        return rows.error();
    return rows->empty() ? 0 : integerOf(rows->front().front());
}

namespace {

std::vector<ReportRow> rowsOf(const std::vector<SqlRow>& rows)
{
    std::vector<ReportRow> out;
    for (const auto& row : rows)
        out.push_back({textOf(row[0]),
                       textOf(row[1]),
                       textOf(row[2]),
                       textOf(row[3]),
                       textOf(row[4]),
                       integerOf(row[5]),
                       integerOf(row[6]),
                       integerOf(row[7]),
                       textOf(row[8]),
                       textOf(row[9]),
                       {},
                       {}});
    return out;
}

} // namespace

Expected<std::vector<ReportRow>> LedgerStore::report()
{
    auto rows = m_sql->query(kGroups, {});
    if (!rows)
        return rows.error();
    auto out = rowsOf(*rows);
    if (auto d = attachDetails(out, kDetails, {}); !d)
        return d.error();
    return out;
}

Expected<std::vector<ReportRow>> LedgerStore::counts(const std::string& since, CountBy by)
{
    const char* sql = by == CountBy::Driver ? kCountsByDriver
                      : by == CountBy::Arch ? kCountsByArch
                                            : kCountsByProfile;
    auto rows = m_sql->query(sql, {since});
    if (!rows)
        return rows.error();
    auto out = rowsOf(*rows);
    if (by == CountBy::Driver)
        if (auto d = attachDetails(out, kDriverDetails, {since}); !d)
            return d.error();
    return out;
}

Expected<void> LedgerStore::attachDetails(std::vector<ReportRow>& rows, const char* sql,
                                          const SqlRow& params)
{
    std::map<std::string, ReportRow*> byKey;
    for (auto& r : rows)
        byKey[r.profile + '\x1f' + r.pciId + '\x1f' + r.arch + '\x1f' + r.os + '\x1f' + r.driver +
              '\x1f'] = &r;
    auto details = m_sql->query(sql, params);
    if (!details)
        return details.error();
    for (const auto& d : *details) {
        const auto it = byKey.find(groupKey(d));
        if (it == byKey.end())
            continue;
        if (!textOf(d[5]).empty())
            addOnce(it->second->knownIssues, textOf(d[5]), 20);
        if (!textOf(d[6]).empty())
            addOnce(it->second->decisiveLines, textOf(d[6]), 5);
    }
    return {};
}

json toJson(const ReportRow& r)
{
    return {{"profile", r.profile},
            {"pci_id", r.pciId},
            {"arch", r.arch},
            {"os", r.os},
            {"driver", r.driver},
            {"passes", r.passes},
            {"failures", r.failures},
            {"installs", r.installs},
            {"first_seen", r.firstSeen},
            {"last_seen", r.lastSeen},
            {"known_issues", r.knownIssues},
            {"decisive_lines", r.decisiveLines}};
}

} // namespace sp::ledger
