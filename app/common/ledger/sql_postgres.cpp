// The ledger on a PostgreSQL server through libpq (postgresql.org/docs/current/libpq.html):
// the same statements as SQLite, with `?` renumbered to `$1, $2, ...` and every parameter
// sent as text for the server to convert to the column's type.
#include "app/common/ledger/sql.h"

#include <libpq-fe.h>

namespace sp::ledger {

namespace {

// `?` outside quoted text becomes $1, $2, ...
std::string numbered(const std::string& sql)
{
    std::string out;
    int n = 0;
    char quote = 0;
    for (char c : sql) {
        if (quote) {
            quote = c == quote ? 0 : quote;
            out += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            out += c;
        } else if (c == '?') {
            out += "$" + std::to_string(++n);
        } else {
            out += c;
        }
    }
    return out;
}

struct Result
{
    PGresult* r;
    explicit Result(PGresult* res) : r(res) {}
    ~Result() { PQclear(r); }
    Result(const Result&) = delete;
    Result& operator=(const Result&) = delete;
};

class PostgresConnection : public SqlConnection
{
public:
    explicit PostgresConnection(PGconn* c) : m_conn(c) {}
    ~PostgresConnection() override { PQfinish(m_conn); }

    Expected<void> exec(const std::string& sql) override
    {
        Result res(PQexec(m_conn, sql.c_str()));
        const auto status = PQresultStatus(res.r);
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
            return failure();
        return {};
    }

    Expected<long long> change(const std::string& sql, const SqlRow& params) override
    {
        Result res(run(sql, params));
        if (PQresultStatus(res.r) != PGRES_COMMAND_OK)
            return failure();
        const char* n = PQcmdTuples(res.r);
        return n && *n ? std::stoll(n) : 0LL;
    }

    Expected<std::vector<SqlRow>> query(const std::string& sql, const SqlRow& params) override
    {
        Result res(run(sql, params));
        if (PQresultStatus(res.r) != PGRES_TUPLES_OK)
            return failure();
        std::vector<SqlRow> rows;
        for (int i = 0; i < PQntuples(res.r); ++i) {
            SqlRow row;
            for (int f = 0; f < PQnfields(res.r); ++f)
                row.push_back(PQgetisnull(res.r, i, f)
                                  ? SqlValue(nullptr)
                                  : SqlValue(std::string(PQgetvalue(res.r, i, f))));
            rows.push_back(std::move(row));
        }
        return rows;
    }

private:
    PGresult* run(const std::string& sql, const SqlRow& params)
    {
        std::vector<std::string> texts;
        std::vector<const char*> values;
        texts.reserve(params.size());
        for (const auto& p : params)
            texts.push_back(textOf(p));
        for (std::size_t i = 0; i < params.size(); ++i)
            values.push_back(std::holds_alternative<std::nullptr_t>(params[i]) ? nullptr
                                                                               : texts[i].c_str());
        return PQexecParams(m_conn, numbered(sql).c_str(), int(values.size()), nullptr,
                            values.data(), nullptr, nullptr, 0);
    }
    Error failure() const
    {
        std::string why = PQerrorMessage(m_conn);
        while (!why.empty() && (why.back() == '\n' || why.back() == ' '))
            why.pop_back();
        return Error::runtime("PostgreSQL: " + why);
    }
    PGconn* m_conn;
};

} // namespace

Expected<std::unique_ptr<SqlConnection>> openPostgres(const std::string& url)
{
    PGconn* conn = PQconnectdb(url.c_str());
    if (!conn || PQstatus(conn) != CONNECTION_OK) {
        std::string why = conn ? PQerrorMessage(conn) : "out of memory";
        PQfinish(conn);
        while (!why.empty() && (why.back() == '\n' || why.back() == ' '))
            why.pop_back();
        // The URL may hold a password: the message names the server by its kind only.
        return Error::runtime("cannot reach the PostgreSQL ledger: " + why);
    }
    // Quiet the server's NOTICEs ("relation already exists, skipping") on stderr.
    Result res(PQexec(conn, "SET client_min_messages TO WARNING"));
    return std::unique_ptr<SqlConnection>(std::make_unique<PostgresConnection>(conn));
}

} // namespace sp::ledger
