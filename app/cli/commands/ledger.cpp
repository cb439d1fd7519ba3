// stackpilot-cli ledger: the maintainers' side of the crowd-proven catalog (issue 34,
// docs/LEDGER.md). `ledger ingest SRC... --db DB` reads shared records from folders,
// JSON-lines files and exported issue bodies; `ledger report --db DB` counts them per
// profile, card, OS and driver, by distinct installs.

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/common/ledger/ingest.h"
#include "detectors/nvidia_cc_table.h"
#include "detectors/pci_table.h"

#include <ostream>

namespace sp::cli {

namespace {

constexpr std::size_t kShownRejections = 20;

class LedgerCommand : public Command
{
public:
    void addOptions(QCommandLineParser& parser) override
    {
        parser.addOption({QStringLiteral("db"),
                          QStringLiteral("The ledger: a SQLite file, or postgresql://..."),
                          QStringLiteral("DB")});
        parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("ingest or report."));
        parser.addPositionalArgument(QStringLiteral("SRC"),
                                     QStringLiteral("For ingest: record files or folders."),
                                     QStringLiteral("[SRC...]"));
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        const QStringList args = parser.positionalArguments();
        const std::string db = toStd(parser.value(QStringLiteral("db")));
        if (args.isEmpty() ||
            (args[0] != QStringLiteral("ingest") && args[0] != QStringLiteral("report")))
            return usageError(io, "expected ingest or report");
        if (db.empty())
            return usageError(io, "--db DB is required");
        const bool isIngest = args[0] == QStringLiteral("ingest");
        if (isIngest && args.size() < 2)
            return usageError(io, "ingest needs at least one SRC");
        if (!isIngest && args.size() > 1)
            return usageError(io, "report takes no SRC");
        std::vector<std::filesystem::path> sources;
        for (qsizetype i = 1; i < args.size(); ++i)
            sources.push_back(toPath(args[i]));
        // Every argument is checked before the database is opened or created.
        int rc = 0;
        auto catalog = isIngest ? loadCatalogForCli(parser, io, "ledger", &rc) : std::nullopt;
        if (isIngest && !catalog)
            return rc;
        auto store = ledger::LedgerStore::open(db);
        if (!store)
            return fail(io, store.error());
        return isIngest ? runIngest(parser, io, sources, catalog->catalog, *store)
                        : runReport(parser, io, *store);
    }

private:
    static int fail(Io& io, const Error& e)
    {
        io.err << "stackpilot-cli ledger: " << e.message << "\n";
        return exitCodeFor(e);
    }

    static int runIngest(const QCommandLineParser& parser, Io& io,
                         const std::vector<std::filesystem::path>& sources, const Catalog& catalog,
                         ledger::LedgerStore& store)
    {
        ledger::IngestChecks checks;
        for (const auto& p : catalog.profiles)
            checks.profiles.insert(p.id);
        checks.pci = &PciTable::shipped();
        checks.nvidia = &NvidiaCcTable::shipped();
        auto report = ledger::ingest(sources, checks, store);
        if (!report)
            return fail(io, report.error());
        if (parser.isSet(QStringLiteral("json"))) {
            io.out << nlohmann::json{{"read", report->read},
                                     {"added", report->added},
                                     {"duplicates", report->duplicates},
                                     {"rejected", report->rejected}}
                          .dump(2)
                   << "\n";
        } else {
            for (std::size_t i = 0; i < report->rejected.size() && i < kShownRejections; ++i)
                io.err << "rejected: " << report->rejected[i] << "\n";
            if (report->rejected.size() > kShownRejections)
                io.err << "rejected: " << report->rejected.size() - kShownRejections
                       << " more (--json lists them all)\n";
            io.out << report->read << " read, " << report->added << " added, " << report->duplicates
                   << " already there, " << report->rejected.size() << " rejected\n";
        }
        return report->rejected.empty() ? 0 : 3;
    }

    static int runReport(const QCommandLineParser& parser, Io& io, ledger::LedgerStore& store)
    {
        auto rows = store.report();
        if (!rows)
            return fail(io, rows.error());
        if (parser.isSet(QStringLiteral("json"))) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& r : *rows)
                out.push_back(ledger::toJson(r));
            io.out << out.dump(2) << "\n";
            return 0;
        }
        for (const auto& r : *rows) {
            io.out << r.profile << "  " << (r.pciId.empty() ? "cpu" : r.pciId) << " "
                   << (r.arch.empty() ? "-" : r.arch) << "  " << r.os << "  driver "
                   << (r.driver.empty() ? "-" : r.driver) << ": " << r.passes << " passed, "
                   << r.failures << " failed, " << r.installs << " PCs, "
                   << r.firstSeen.substr(0, 10) << " to " << r.lastSeen.substr(0, 10) << "\n";
            for (const auto& k : r.knownIssues)
                io.out << "    known issue: " << k << "\n";
            for (const auto& l : r.decisiveLines)
                io.out << "    line: " << l << "\n";
        }
        if (rows->empty())
            io.out << "the ledger holds no records\n";
        return 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(LedgerCommand, "ledger",
                    "Maintainers: ingest shared results into a ledger, and report them.",
                    {Json, CatalogDir, Own})

} // namespace sp::cli
