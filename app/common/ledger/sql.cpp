#include "app/common/ledger/sql.h"

namespace sp::ledger {

Expected<std::unique_ptr<SqlConnection>> openSqlite(const std::string& file);
#ifdef STACKPILOT_HAVE_LIBPQ
Expected<std::unique_ptr<SqlConnection>> openPostgres(const std::string& url);
#endif

Expected<std::unique_ptr<SqlConnection>> openSql(const std::string& db)
{
    if (db.empty())
        return Error::usage("the ledger needs --db FILE or --db postgresql://...");
    if (db.rfind("postgresql://", 0) == 0 || db.rfind("postgres://", 0) == 0) {
#ifdef STACKPILOT_HAVE_LIBPQ
        return openPostgres(db);
#else
        return Error::usage("this build has no PostgreSQL client (libpq); use a SQLite file");
#endif
    }
    return openSqlite(db);
}

std::string textOf(const SqlValue& v)
{
    if (const auto* s = std::get_if<std::string>(&v))
        return *s;
    if (const auto* n = std::get_if<long long>(&v))
        return std::to_string(*n);
    if (const auto* d = std::get_if<double>(&v))
        return std::to_string(*d);
    return {};
}

long long integerOf(const SqlValue& v)
{
    if (const auto* n = std::get_if<long long>(&v))
        return *n;
    if (const auto* s = std::get_if<std::string>(&v)) {
        try {
            return std::stoll(*s); // PostgreSQL returns every value as text
        } catch (...) {
            return 0;
        }
    }
    return 0;
}

} // namespace sp::ledger
