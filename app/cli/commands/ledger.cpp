// stackpilot-cli ledger: the maintainers' side of the crowd-proven catalog (issue 34,
// docs/LEDGER.md). `ledger ingest SRC... --db DB` reads shared records from folders,
// JSON-lines files and exported issue bodies; `ledger report --db DB` counts them per
// profile, card, OS and driver, by distinct installs.

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/common/ledger/ingest.h"
#include "app/common/ledger/propose.h"
#include "core/json_file.h"
#include "core/paths.h"
#include "detectors/nvidia_cc_table.h"
#include "detectors/pci_table.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
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
        parser.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                          QStringLiteral("For propose: write the changed catalog to DIR."),
                          QStringLiteral("DIR")});
        parser.addOption({QStringLiteral("now"),
                          QStringLiteral("For propose: count from this date (YYYY-MM-DD; "
                                         "default today)."),
                          QStringLiteral("DATE")});
        parser.addOption({QStringLiteral("policy"),
                          QStringLiteral("For propose: the rules (default the shipped "
                                         "ledger/policy.json)."),
                          QStringLiteral("FILE")});
        parser.addPositionalArgument(QStringLiteral("action"),
                                     QStringLiteral("ingest, report or propose."));
        parser.addPositionalArgument(QStringLiteral("SRC"),
                                     QStringLiteral("For ingest: record files or folders."),
                                     QStringLiteral("[SRC...]"));
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        const QStringList args = parser.positionalArguments();
        const std::string db = toStd(parser.value(QStringLiteral("db")));
        const QString action = args.isEmpty() ? QString() : args[0];
        if (action != QStringLiteral("ingest") && action != QStringLiteral("report") &&
            action != QStringLiteral("propose"))
            return usageError(io, "expected ingest, report or propose");
        if (db.empty())
            return usageError(io, "--db DB is required");
        if (action == QStringLiteral("propose"))
            return runPropose(parser, io, db);
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
    int runPropose(const QCommandLineParser& parser, Io& io, const std::string& db);

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

namespace fs = std::filesystem;

std::string today()
{
    const auto days = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
    const std::chrono::year_month_day d{days};
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02u-%02u", int(d.year()), unsigned(d.month()),
                  unsigned(d.day()));
    return text;
}

struct ProposeArgs
{
    fs::path in, out, policyFile;
    std::string now;
};

// Every argument of `propose`, checked before anything is read or written.
Expected<ProposeArgs> proposeArgs(const QCommandLineParser& parser)
{
    const QStringList dirs = parser.values(QStringLiteral("catalog-dir"));
    if (dirs.size() != 1)
        return Error::usage("propose needs one --catalog-dir DIR: the catalog to change");
    if (!parser.isSet(QStringLiteral("output")))
        return Error::usage("propose needs -o OUT: where the changed catalog goes");
    ProposeArgs a{toPath(dirs[0]), toPath(parser.value(QStringLiteral("output"))), {}, today()};
    std::error_code ec;
    if (!fs::is_directory(a.in, ec))
        return Error::usage(paths::toUtf8(a.in) + ": not a folder");
    if (fs::weakly_canonical(a.in, ec) == fs::weakly_canonical(a.out, ec))
        return Error::usage("-o OUT must be another folder than the catalog's");
    if (fs::exists(a.out, ec) && !(fs::is_directory(a.out, ec) && fs::is_empty(a.out, ec)))
        return Error::usage(paths::toUtf8(a.out) + ": exists and is not an empty folder");
    if (parser.isSet(QStringLiteral("now")))
        a.now = toStd(parser.value(QStringLiteral("now")));
    a.policyFile = parser.isSet(QStringLiteral("policy"))
                       ? toPath(parser.value(QStringLiteral("policy")))
                       : paths::shippedDataDir() / "ledger" / "policy.json";
    return a;
}

// Each catalog file of `in`, with its profiles changed by the counts, written to `out`.
Expected<ledger::Proposal> proposeInto(const ProposeArgs& a, const ledger::LedgerPolicy& policy,
                                       const std::string& since, ledger::LedgerStore& store)
{
    using By = ledger::LedgerStore::CountBy;
    ledger::LedgerCounts counts;
    for (auto [by, rows] :
         {std::pair{By::Profile, &counts.byProfile}, std::pair{By::Driver, &counts.byDriver},
          std::pair{By::Arch, &counts.byArch}}) {
        auto got = store.counts(since, by);
        if (!got)
            return got.error();
        *rows = std::move(*got);
    }
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(a.in))
        if (e.is_regular_file() && e.path().extension() == ".json")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    ledger::Proposal all;
    for (const auto& f : files) {
        auto text = readRegularFile(f, kCatalogLimits.maxBytes, "catalog file");
        if (!text)
            return text.error();
        if (const auto deep = checkJsonDepth(*text, paths::toUtf8(f), kCatalogLimits.maxDepth);
            !deep.empty())
            return Error::invalid(deep);
        auto doc = nlohmann::ordered_json::parse(*text, nullptr, false);
        std::vector<ledger::StatusChange> mine;
        if (doc.is_object() && doc.contains("profiles") && doc["profiles"].is_array()) {
            auto p = ledger::propose(doc["profiles"], counts, policy, since);
            mine = p.changes;
            mine.insert(mine.end(), p.refreshed.begin(), p.refreshed.end());
            all.changes.insert(all.changes.end(), p.changes.begin(), p.changes.end());
            all.refreshed.insert(all.refreshed.end(), p.refreshed.begin(), p.refreshed.end());
            for (auto& d : p.drafts)
                all.drafts.push_back(std::move(d));
        }
        // An unchanged file is copied as it is, byte for byte; a changed one keeps its
        // layout where the patch parses to the proposed document.
        std::string bytes = *text;
        if (!mine.empty()) {
            const auto patched = ledger::patchCatalogText(*text, mine);
            // Compared as unordered JSON: the patch puts "proof" after "status".
            const bool same = patched && nlohmann::json::parse(*patched, nullptr, false) ==
                                             nlohmann::json::parse(doc.dump());
            bytes = same ? *patched : doc.dump(2) + "\n";
        }
        if (auto w = writeFileAtomic(a.out / f.filename(), bytes); !w)
            return w.error();
    }
    return all;
}

std::string proposalText(const ledger::Proposal& p, const nlohmann::json& j)
{
    std::string text = "# Ledger proposal\n\nCounted since " + j["since"].get<std::string>() +
                       ". Review, then `catalog diff` and `catalog publish`.\n\n";
    for (const auto& c : p.changes)
        text += "- " + c.profile + ": " + c.from + " -> " + c.to + " (" + c.reason + ")\n";
    for (const auto& c : p.refreshed)
        text += "- " + c.profile + ": stays " + c.to + ", counts updated (" + c.reason + ")\n";
    return text + "\n```json\n" + j.dump(2) + "\n```\n";
}

nlohmann::json toJson(const ledger::Proposal& p, const std::string& since)
{
    nlohmann::json changes = nlohmann::json::array();
    for (const auto& c : p.changes)
        changes.push_back({{"profile", c.profile},
                           {"from", c.from},
                           {"to", c.to},
                           {"reason", c.reason},
                           {"proof", c.proof}});
    nlohmann::json refreshed = nlohmann::json::array();
    for (const auto& c : p.refreshed)
        refreshed.push_back({{"profile", c.profile}, {"status", c.to}, {"proof", c.proof}});
    return {{"since", since},
            {"changes", changes},
            {"proof_updates", refreshed},
            {"known_issue_drafts", p.drafts}};
}

int LedgerCommand::runPropose(const QCommandLineParser& parser, Io& io, const std::string& db)
{
    auto args = proposeArgs(parser);
    if (!args)
        return usageError(io, args.error().message);
    auto policy = ledger::readPolicy(args->policyFile);
    if (!policy)
        return fail(io, policy.error());
    auto since = ledger::daysBefore(args->now, policy->windowDays);
    if (!since)
        return usageError(io, "--now: " + since.error().message);
    auto store = ledger::LedgerStore::open(db);
    if (!store)
        return fail(io, store.error());
    auto proposal = proposeInto(*args, *policy, *since, *store);
    if (!proposal)
        return fail(io, proposal.error());
    const auto j = toJson(*proposal, *since);
    // Beside the catalog files, for the maintainer who reviews it (the loader reads only
    // *.json, so it never takes this for a catalog file).
    if (auto w = writeFileAtomic(args->out / "PROPOSAL.md", proposalText(*proposal, j)); !w)
        return fail(io, w.error());
    if (parser.isSet(QStringLiteral("json"))) {
        io.out << j.dump(2) << "\n";
        return 0;
    }
    for (const auto& c : proposal->changes)
        io.out << c.profile << ": " << c.from << " -> " << c.to << " (" << c.reason << ")\n";
    io.out << proposal->changes.size() << " status change(s), " << proposal->refreshed.size()
           << " profile(s) with new counts, " << proposal->drafts.size()
           << " known-issue draft(s); the catalog is in " << paths::toUtf8(args->out) << "\n";
    return 0;
}

} // namespace

SP_REGISTER_COMMAND(LedgerCommand, "ledger",
                    "Maintainers: ingest shared results into a ledger, and report them.",
                    {Json, CatalogDir, Own})

} // namespace sp::cli
