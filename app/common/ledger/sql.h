#pragma once
// The little SQL the ledger needs, behind one interface so that the embedded engine
// (SQLite, the default) and a server (PostgreSQL) run the same statements. Statements use
// `?` for parameters; an engine that numbers them ($1, $2) rewrites them itself.

#include "core/expected.h"

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace sp::ledger {

using SqlValue = std::variant<std::nullptr_t, long long, double, std::string>;
using SqlRow = std::vector<SqlValue>;

class SqlConnection
{
public:
    virtual ~SqlConnection() = default;
    // Runs statements that return nothing (DDL, BEGIN, COMMIT).
    virtual Expected<void> exec(const std::string& sql) = 0;
    // Runs one statement with parameters; the number of rows it changed.
    virtual Expected<long long> change(const std::string& sql, const SqlRow& params) = 0;
    // Runs one query with parameters; its rows.
    virtual Expected<std::vector<SqlRow>> query(const std::string& sql, const SqlRow& params) = 0;
};

// "postgresql://..." or "postgres://..." opens a server; anything else is a SQLite file,
// created when missing.
Expected<std::unique_ptr<SqlConnection>> openSql(const std::string& db);

std::string textOf(const SqlValue& v);
long long integerOf(const SqlValue& v);

} // namespace sp::ledger
