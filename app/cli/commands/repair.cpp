// stackpilot-cli repair ID: re-install a runtime that verify found damaged. The
// whole runtime goes through staging again (so it is never half-repaired); its
// artifacts come from the download cache, so nothing is downloaded twice.

#include "app/cli/commands/install_support.h"
#include "core/launch/step_receipt.h"
#include "core/paths.h"
#include "installers/prefix_store.h"

#include <ostream>

namespace sp::cli {

namespace {

class RepairCommand : public Command
{
public:
    QString name() const override { return QStringLiteral("repair"); }
    QString summary() const override
    {
        return QStringLiteral("Re-install a runtime whose files are missing or modified.");
    }

    void configure(QCommandLineParser& parser) override
    {
        addJsonOption(parser);
        addCatalogDirOption(parser);
        addPrefixRootOption(parser);
        parser.addOption({QStringLiteral("offline"),
                          QStringLiteral("Take artifacts from DIR; never use the network."),
                          QStringLiteral("DIR")});
        parser.addPositionalArgument(QStringLiteral("ID"), QStringLiteral("The runtime id."));
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        const QStringList args = parser.positionalArguments();
        if (args.size() != 1) {
            io.err << "stackpilot-cli repair: expected one runtime ID\n";
            return 2;
        }
        const std::string id = toStd(args[0]);
        const bool json = parser.isSet(QStringLiteral("json"));
        int rc = 0;
        auto loaded = loadCatalogForCli(parser, io, "repair", &rc);
        if (!loaded)
            return rc;
        const Catalog* catalog = &loaded->catalog;
        const Runtime* rt = catalog->runtime(id);
        if (!rt)
            return fail(io, "repair", Error::usage("'" + id + "' is not a runtime of the catalog"));
        PrefixStore store(prefixRootOf(parser));
        auto check = checkForRepair(store, *rt);
        if (!check)
            return fail(io, "repair", check.error());
        nlohmann::json report;
        report["problems_before"] = check->problems.size();
        // Whatever the files say, the setup steps built on this runtime run again.
        report["steps_rerun_for"] = clearStepReceiptsUsing(*catalog, id, paths::dataDir());
        if (!check->needed()) {
            report["repaired"] = false;
            if (json)
                io.out << report.dump(2) << "\n";
            else
                io.out << id << ": ok, nothing to repair\n";
            return 0;
        }
        if (!json && check->installed)
            io.out << id << ": " << check->problems.size() << " problem(s), re-installing\n";
        InstallOptions options;
        options.prefixRoot = store.root();
        options.force = true;
        if (parser.isSet(QStringLiteral("offline"))) {
            options.offlineDir = paths::fromUtf8(toStd(parser.value(QStringLiteral("offline"))));
            options.allowNetwork = false;
        }
        report["repaired"] = true;
        return installRuntimes({rt}, std::move(options), "repair", io, json, report);
    }
};

} // namespace

SP_REGISTER_COMMAND(RepairCommand)

} // namespace sp::cli
