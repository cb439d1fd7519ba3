// stackpilot-cli gc: remove installed runtimes that no profile of the catalog uses,
// the leftovers of interrupted installs (staging and trash folders), and partial
// downloads nobody resumed for --partial-days days (they are kept otherwise, so an
// interrupted install resumes where it stopped).

#include "installers/gc.h"

#include "app/cli/commands/install_support.h"
#include "core/paths.h"
#include "installers/prefix_store.h"

#include <ostream>

namespace sp::cli {

namespace {

class GcCommand : public Command
{
public:
    void addOptions(QCommandLineParser& parser) override
    {
        parser.addOption(
            {QStringLiteral("dry-run"), QStringLiteral("Only say what would be removed.")});
        parser.addOption(
            {QStringLiteral("partial-days"),
             QStringLiteral("Remove partial downloads untouched for DAYS days, 0 to 3650 "
                            "(default 14)."),
             QStringLiteral("DAYS"), QStringLiteral("14")});
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        // Every option is checked before anything is touched.
        auto age = parsePartialDays(toStd(parser.value(QStringLiteral("partial-days"))));
        if (!age)
            return fail(io, "gc", age.error());
        int rc = 0;
        auto loaded = loadCatalogForCli(parser, io, "gc", &rc);
        if (!loaded)
            return rc;
        const Catalog* catalog = &loaded->catalog;
        GcOptions options;
        for (const auto& p : catalog->profiles)
            options.usedRuntimes.insert(p.runtimes.begin(), p.runtimes.end());
        for (const auto& r : catalog->runtimes)
            if (r.system)
                options.systemRuntimes.insert(r.id);
        options.partialAge = *age;
        options.partialDir = paths::cacheDir() / "downloads" / "partial";
        options.dryRun = parser.isSet(QStringLiteral("dry-run"));
        const PrefixStore store(prefixRootOf(parser));
        const GcReport report = collectGarbage(store, options);
        for (const auto& e : report.errors)
            io.err << "stackpilot-cli gc: " << e << "\n";
        const int exitCode = report.errors.empty() ? 0 : 1;
        if (parser.isSet(QStringLiteral("json"))) {
            auto j = toJson(report);
            j["prefix_root"] = paths::toUtf8(store.root());
            io.out << j.dump(2) << "\n";
            return exitCode;
        }
        const std::string verb = options.dryRun ? "would remove " : "removed ";
        for (const auto& l : report.cleaned)
            io.out << l << "\n";
        for (const auto& id : report.removed)
            io.out << verb << id << "\n";
        for (const auto& f : report.partialsRemoved)
            io.out << verb << "partial download " << f << "\n";
        for (const auto& s : report.skipped)
            io.out << "skipped " << s << "\n";
        io.out << report.kept.size() << " runtime(s) in use kept\n";
        return exitCode;
    }
};

} // namespace

SP_REGISTER_COMMAND(GcCommand, "gc",
                    "Remove runtimes no profile uses and leftovers of interrupted installs.",
                    {Json, CatalogDir, PrefixRoot})

} // namespace sp::cli
