// stackpilot-cli diagnose-log FILE: which known failures a workload's log shows, and
// what fixes each. Finding nothing is a result, not an error (exit 0): the failure the
// log ends with is then explained (core/logmatch/explain.h): its decisive line, the
// component, what to search for, and a redacted report (--report prints it).

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/cli/printable_stream.h"
#include "app/common/diag/redact.h"
#include "core/catalog/loader.h"
#include "core/logmatch/explain.h"
#include "core/logmatch/matcher.h"
#include "core/paths.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace sp::cli {

namespace {

// The report a user pastes into an issue: the decisive lines, redacted like a bundle.
std::string redactedReport(const logmatch::UnknownFailure& f, const std::string& logName)
{
    diag::RedactionCounts counts;
    const diag::Redactor redactor(diag::Identity::fromEnvironment());
    return redactor.text(logmatch::failureReport(f, logName), counts);
}

nlohmann::json unknownJson(const logmatch::UnknownFailure& f, const std::string& logName)
{
    if (!f.found)
        return nullptr;
    return {{"known", false},
            {"line", f.line},
            {"decisive_line", f.decisive},
            {"why", f.why},
            {"component", f.component},
            {"component_name", logmatch::componentName(f.component)},
            {"lines", f.lines},
            {"first_line", f.firstLine},
            {"search_text", f.searchText},
            {"report", redactedReport(f, logName)}};
}

void printUnknown(PrintableStream& out, const logmatch::UnknownFailure& f, const std::string& name)
{
    if (!f.found) {
        out << "Nothing in it looks like a failure.\n";
        return;
    }
    out << "Not a known problem yet. The line that decides it (" << f.why
        << "; component: " << logmatch::componentName(f.component) << "):\n  line " << f.line
        << ": " << f.decisive << "\n";
    out << "Search for: " << f.searchText << "\n";
    out << "Diagnostics bundle: stackpilot-cli diag\n";
    out << "Report this failure: stackpilot-cli diagnose-log --report " << name
        << " (a redacted report with these lines)\n";
}

// The OS the log was written on, when the user says (--os): a cause may need it.
logmatch::LogContext contextFrom(const QCommandLineParser& parser)
{
    logmatch::LogContext c;
    const QString os = parser.value(QStringLiteral("os"));
    c.windows = os == QStringLiteral("windows");
    c.linux = os == QStringLiteral("linux");
    return c;
}

class DiagnoseLogCommand : public Command
{
public:
    void addOptions(QCommandLineParser& parser) override
    {
        parser.addPositionalArgument(QStringLiteral("FILE"),
                                     QStringLiteral("The log file to read (any size, any bytes)."));
        parser.addOption(QCommandLineOption(
            QStringLiteral("os"),
            QStringLiteral("The OS the log was written on (windows, linux), where it shows none."),
            QStringLiteral("OS")));
        parser.addOption(QCommandLineOption(
            QStringLiteral("report"),
            QStringLiteral("Print a redacted report of an unknown failure, to paste into an "
                           "issue.")));
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        const QStringList args = parser.positionalArguments();
        if (args.size() != 1)
            return usageError(io, "expected exactly one FILE (got " + std::to_string(args.size()) +
                                      ")");
        const auto file = toPath(args[0]);
        const QString os = parser.value(QStringLiteral("os"));
        if (!os.isEmpty() && os != QStringLiteral("windows") && os != QStringLiteral("linux"))
            return usageError(io, "--os must be windows or linux");

        int rc = 0;
        auto catalog = loadCatalogForCli(parser, io, "diagnose-log", &rc);
        if (!catalog)
            return rc;

        auto matcher = logmatch::LogMatcher::compile(catalog->catalog.knownIssues);
        if (!matcher) {
            io.err << "stackpilot-cli diagnose-log: " << matcher.error().message << "\n";
            return sp::cli::exitCodeFor(matcher.error());
        }
        std::size_t lines = 0;
        auto matches = logmatch::scanFile(*matcher, file, &lines, contextFrom(parser));
        if (!matches) {
            io.err << "stackpilot-cli diagnose-log: " << matches.error().message << "\n";
            return sp::cli::exitCodeFor(matches.error());
        }

        const std::string name = toStd(args[0]);
        // Only a log with no known issue is explained: a known one says more.
        const logmatch::UnknownFailure unknown =
            matches->empty() ? logmatch::explainFile(file, lines, contextFrom(parser))
                             : logmatch::UnknownFailure{};
        if (parser.isSet(QStringLiteral("report"))) {
            if (!unknown.found) {
                io.err << "stackpilot-cli diagnose-log: no unknown failure to report in " << name
                       << (matches->empty() ? "" : " (it shows a known issue)") << "\n";
                return 1;
            }
            io.out << redactedReport(unknown, paths::toUtf8(file.filename()));
            return 0;
        }
        if (parser.isSet(QStringLiteral("json"))) {
            // One entry per known issue, at its first line (the human report adds counts);
            // without any, "unknown" explains the failure (null: none in the log).
            nlohmann::json out = {{"matches", nlohmann::json::array()}};
            if (matches->empty())
                out["unknown"] = unknownJson(unknown, paths::toUtf8(file.filename()));
            for (const auto& m : *matches)
                out["matches"].push_back({{"known_issue", m.knownIssue},
                                          {"line", m.line},
                                          {"excerpt", m.excerpt},
                                          {"remedy", m.remedy}});
            io.out << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
            return 0;
        }

        PrintableStream out(io.out); // titles come from catalog files, excerpts from the log
        if (matches->empty()) {
            out << "No known issue found in " << name << " (" << lines << " lines read).\n";
            printUnknown(out, unknown, name);
            return 0;
        }
        out << matches->size() << (matches->size() == 1 ? " known issue" : " known issues")
            << " found in " << name << " (" << lines << " lines read):\n";
        for (const auto& m : *matches) {
            out << "\n" << m.title << "  [" << m.knownIssue << "]\n";
            out << "  line " << m.line;
            if (m.count > 1)
                out << " (and " << (m.count - 1) << " more line" << (m.count > 2 ? "s" : "") << ")";
            out << ": " << m.excerpt << "\n";
            out << "  fix: " << m.remedy << "\n";
        }
        return 0;
    }
};

} // namespace

} // namespace sp::cli

using sp::cli::DiagnoseLogCommand;
SP_REGISTER_COMMAND(DiagnoseLogCommand, "diagnose-log",
                    "Find known failures in a workload's log and say what fixes them.",
                    {Json, CatalogDir})
