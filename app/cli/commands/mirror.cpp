// stackpilot-cli mirror export PROFILE... DIR [--base-url URL]: the artifacts of some
// profiles (or runtimes) in a folder a static HTTP server serves as the lab's artifact
// mirror (installers/mirror_export.h, docs/LAB.md).

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "core/paths.h"
#include "core/settings.h"
#include "installers/install_plan.h"
#include "installers/mirror_export.h"

#include <nlohmann/json.hpp>
#include <ostream>
#include <set>

namespace sp::cli {

namespace {

int mirrorFail(Io& io, const Error& e)
{
    io.err << "stackpilot-cli mirror: " << e.message << "\n";
    return exitCodeFor(e);
}

void printExport(const MirrorExportResult& r, const std::string& dir, const std::string& base,
                 Io& io)
{
    int exported = 0;
    for (const auto& item : r.items) {
        if (item.exported) {
            ++exported;
            io.out << "exported  " << item.runtime << " " << item.url << " -> " << item.path << " ("
                   << item.note << ")\n";
        } else {
            io.out << "skipped   " << item.runtime << " " << item.url << ": " << item.note << "\n";
        }
    }
    io.out << exported << " of " << r.items.size() << " artifact(s) in " << dir
           << "; serve the folder and put these rules into each machine's settings.json (" << dir
           << "/mirrors.json):\n"
           << mirrorRulesJson(r, base.empty() ? "BASE_URL" : base) << "\n";
}

class MirrorCommand : public Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addPositionalArgument(QStringLiteral("export"), QStringLiteral("What to do."));
        p.addPositionalArgument(QStringLiteral("PROFILE..."),
                                QStringLiteral("Profile (or runtime) ids."));
        p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("The folder to serve."));
        p.addOption({QStringLiteral("base-url"),
                     QStringLiteral("The URL the folder will be served at (for the rules)."),
                     QStringLiteral("URL")});
        p.addOption({QStringLiteral("offline"),
                     QStringLiteral("Take artifacts from DIR as well (install --offline's)."),
                     QStringLiteral("DIR")});
    }
    int run(const QCommandLineParser& p, Io& io) override
    {
        const QStringList args = p.positionalArguments();
        if (args.size() < 3 || args[0] != QStringLiteral("export"))
            return usageError(io, "expected export PROFILE... DIR");
        int rc = 0;
        auto loaded = loadCatalogForCli(p, io, "mirror", &rc);
        if (!loaded)
            return rc;
        std::vector<const Runtime*> runtimes;
        std::set<std::string> seen;
        for (int i = 1; i + 1 < args.size(); ++i) {
            auto r = runtimesFor(loaded->catalog, toStd(args[i]));
            if (!r)
                return mirrorFail(io, r.error());
            for (const Runtime* rt : *r)
                if (seen.insert(rt->id).second)
                    runtimes.push_back(rt);
        }
        auto settings = Settings::load();
        if (!settings)
            return mirrorFail(io, settings.error());
        FetchOptions o;
        o.settings = *settings;
        if (p.isSet(QStringLiteral("offline")))
            o.offlineDir = toPath(p.value(QStringLiteral("offline")));
        const std::string dir = toStd(args.back());
        auto r = exportMirror(runtimes, paths::fromUtf8(dir), o);
        if (!r)
            return mirrorFail(io, r.error());
        const std::string base = toStd(p.value(QStringLiteral("base-url")));
        bool failed = false;
        for (const auto& item : r->items)
            failed = failed || (!item.exported && item.note.rfind("not exported", 0) != 0);
        if (p.isSet(QStringLiteral("json"))) {
            nlohmann::json items = nlohmann::json::array();
            for (const auto& item : r->items)
                items.push_back({{"runtime", item.runtime},
                                 {"url", item.url},
                                 {"path", item.path},
                                 {"exported", item.exported},
                                 {"note", item.note}});
            io.out << nlohmann::json{{"items", items},
                                     {"rules", nlohmann::json::parse(mirrorRulesJson(
                                                   *r, base.empty() ? "BASE_URL" : base))}}
                          .dump(2)
                   << "\n";
        } else {
            printExport(*r, dir, base, io);
        }
        return failed ? 1 : 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(MirrorCommand, "mirror",
                    "A lab's artifact mirror: export profiles' artifacts to a folder.",
                    {Own, CatalogDir, Json})

} // namespace sp::cli
