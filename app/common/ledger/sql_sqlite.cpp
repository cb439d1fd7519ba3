// The ledger's embedded engine: one SQLite file (sqlite.org/lang.html). Every statement is
// prepared with bound parameters; nothing from a record is ever spliced into SQL text.
#include "app/common/ledger/sql.h"

#include <sqlite3.h>

namespace sp::ledger {

namespace {

class Statement
{
public:
    Statement(sqlite3* db, const std::string& sql)
    {
        m_rc = sqlite3_prepare_v2(db, sql.c_str(), int(sql.size()), &m_stmt, nullptr);
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool ok() const { return m_rc == SQLITE_OK && m_stmt; }
    sqlite3_stmt* get() const { return m_stmt; }

    int bind(const SqlRow& params)
    {
        for (std::size_t i = 0; i < params.size(); ++i) {
            const int at = int(i + 1);
            int rc = SQLITE_OK;
            if (const auto* n = std::get_if<long long>(&params[i]))
                rc = sqlite3_bind_int64(m_stmt, at, *n);
            else if (const auto* d = std::get_if<double>(&params[i]))
                rc = sqlite3_bind_double(m_stmt, at, *d);
            else if (const auto* s = std::get_if<std::string>(&params[i]))
                rc = sqlite3_bind_text(m_stmt, at, s->data(), int(s->size()), SQLITE_TRANSIENT);
            else
                rc = sqlite3_bind_null(m_stmt, at);
            if (rc != SQLITE_OK)
                return rc;
        }
        return SQLITE_OK;
    }

private:
    sqlite3_stmt* m_stmt = nullptr;
    int m_rc = SQLITE_ERROR;
};

SqlValue column(sqlite3_stmt* stmt, int i)
{
    switch (sqlite3_column_type(stmt, i)) {
    case SQLITE_INTEGER:
        return static_cast<long long>(sqlite3_column_int64(stmt, i));
    case SQLITE_FLOAT:
        return sqlite3_column_double(stmt, i);
    case SQLITE_NULL:
        return nullptr;
    default: {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
        return std::string(text ? text : "", std::size_t(sqlite3_column_bytes(stmt, i)));
    }
    }
}

class SqliteConnection : public SqlConnection
{
public:
    explicit SqliteConnection(sqlite3* db) : m_db(db) {}
    ~SqliteConnection() override { sqlite3_close(m_db); }

    Expected<void> exec(const std::string& sql) override
    {
        char* message = nullptr;
        if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
            const std::string why = message ? message : sqlite3_errmsg(m_db);
            sqlite3_free(message);
            return Error::runtime("SQLite: " + why);
        }
        return {};
    }

    Expected<long long> change(const std::string& sql, const SqlRow& params) override
    {
        Statement st(m_db, sql);
        if (!st.ok() || st.bind(params) != SQLITE_OK)
            return failure();
        if (sqlite3_step(st.get()) != SQLITE_DONE)
            return failure();
        return static_cast<long long>(sqlite3_changes(m_db));
    }

    Expected<std::vector<SqlRow>> query(const std::string& sql, const SqlRow& params) override
    {
        Statement st(m_db, sql);
        if (!st.ok() || st.bind(params) != SQLITE_OK)
            return failure();
        std::vector<SqlRow> rows;
        int rc = SQLITE_ROW;
        while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
            SqlRow row;
            for (int i = 0; i < sqlite3_column_count(st.get()); ++i)
                row.push_back(column(st.get(), i));
            rows.push_back(std::move(row));
        }
        if (rc != SQLITE_DONE)
            return failure();
        return rows;
    }

private:
    Error failure() const { return Error::runtime(std::string("SQLite: ") + sqlite3_errmsg(m_db)); }
    sqlite3* m_db;
};

} // namespace

Expected<std::unique_ptr<SqlConnection>> openSqlite(const std::string& file)
{
    sqlite3* db = nullptr;
    const int rc =
        sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    if (rc != SQLITE_OK) {
        const std::string why = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        sqlite3_close(db);
        return Error::runtime(file + ": cannot open the ledger: " + why);
    }
    // Another ingest holding the file waits up to 10 s instead of failing at once.
    sqlite3_busy_timeout(db, 10000);
    auto conn = std::make_unique<SqliteConnection>(db);
    if (auto wal = conn->exec("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;"); !wal)
        return Error::runtime(file + ": " + wal.error().message);
    return std::unique_ptr<SqlConnection>(std::move(conn));
}

} // namespace sp::ledger
