// stackpilot-cli diagnose-log FILE: which known failures a workload's log shows, and
// what fixes each. Finding nothing is a result, not an error (exit 0).

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/cli/printable_stream.h"
#include "core/catalog/loader.h"
#include "core/logmatch/matcher.h"
#include "core/paths.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace sp::cli {

namespace {

class DiagnoseLogCommand : public Command
{
public:
    void addOptions(QCommandLineParser& parser) override
    {
        parser.addPositionalArgument(QStringLiteral("FILE"),
                                     QStringLiteral("The log file to read (any size, any bytes)."));
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        const QStringList args = parser.positionalArguments();
        if (args.size() != 1)
            return usageError(io, "expected exactly one FILE (got " + std::to_string(args.size()) +
                                      ")");
        const auto file = toPath(args[0]);

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
        auto matches = logmatch::scanFile(*matcher, file, &lines);
        if (!matches) {
            io.err << "stackpilot-cli diagnose-log: " << matches.error().message << "\n";
            return sp::cli::exitCodeFor(matches.error());
        }

        if (parser.isSet(QStringLiteral("json"))) {
            // One entry per known issue, at its first line (the human report adds counts).
            nlohmann::json out = {{"matches", nlohmann::json::array()}};
            for (const auto& m : *matches)
                out["matches"].push_back({{"known_issue", m.knownIssue},
                                          {"line", m.line},
                                          {"excerpt", m.excerpt},
                                          {"remedy", m.remedy}});
            io.out << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
            return 0;
        }

        const std::string name = toStd(args[0]);
        PrintableStream out(io.out); // titles come from catalog files, excerpts from the log
        if (matches->empty()) {
            out << "No known issue found in " << name << " (" << lines << " lines read).\n";
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
