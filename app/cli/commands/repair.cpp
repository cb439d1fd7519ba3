// stackpilot-cli repair ID: re-install a runtime that verify found damaged. The
// whole runtime goes through staging again (so it is never half-repaired); its
// artifacts come from the download cache, so nothing is downloaded twice.
// repair PROFILE rebuilds the profile: its venv and step receipt are removed (so the
// next launch creates the venv and runs every step again) and its runtimes repaired.

#include "app/cli/commands/install_support.h"
#include "core/launch/launch_lock.h"
#include "core/launch/profile_env.h"
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
        parser.addPositionalArgument(QStringLiteral("ID"),
                                     QStringLiteral("A runtime id, or a profile id."));
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
        PrefixStore store(prefixRootOf(parser));
        if (!rt && catalog->profile(id))
            return repairProfile(*catalog, *catalog->profile(id), store, parser, io);
        if (!rt)
            return fail(io, "repair",
                        Error::usage("'" + id + "' is not a runtime or profile of the catalog"));
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
        report["repaired"] = true;
        return installRuntimes({rt}, optionsFor(store, parser), "repair", io, json, report);
    }

private:
    static InstallOptions optionsFor(const PrefixStore& store, const QCommandLineParser& parser)
    {
        InstallOptions options;
        options.prefixRoot = store.root();
        options.force = true;
        if (parser.isSet(QStringLiteral("offline"))) {
            options.offlineDir = toPath(parser.value(QStringLiteral("offline")));
            options.allowNetwork = false;
        }
        return options;
    }

    // Every check runs before anything is removed: a runtime folder or venv that is not
    // StackPilot's stops the repair with nothing changed.
    static int repairProfile(const Catalog& catalog, const Profile& profile,
                             const PrefixStore& store, const QCommandLineParser& parser, Io& io)
    {
        const bool json = parser.isSet(QStringLiteral("json"));
        // The profile's launch lock: not while it is launched (its steps may be filling
        // the venv this removes), and no launch of it until the repair is done.
        auto held = LaunchLock::acquire(paths::dataDir(), profile.id);
        if (!held)
            return fail(io, "repair", held.error());
        std::vector<const Runtime*> damaged;
        for (const std::string& rid : profile.runtimes) {
            const Runtime* rt = catalog.runtime(rid);
            if (!rt || rt->system)
                continue;
            auto check = checkForRepair(store, *rt);
            if (!check)
                return fail(io, "repair", check.error());
            if (check->needed())
                damaged.push_back(rt);
        }
        auto reset = resetProfileState(paths::dataDir(), profile.id);
        if (!reset)
            return fail(io, "repair", reset.error());
        nlohmann::json report{{"profile", profile.id},
                              {"venv_removed", reset->venvRemoved},
                              {"steps_rerun_for", {profile.id}},
                              {"repaired", !damaged.empty()}};
        if (!json)
            io.out << profile.id << ": " << (reset->venvRemoved ? "venv removed; " : "")
                   << "its setup steps run again at the next launch; " << damaged.size()
                   << " runtime(s) to re-install\n";
        if (damaged.empty()) {
            if (json)
                io.out << report.dump(2) << "\n";
            return 0;
        }
        return installRuntimes(damaged, optionsFor(store, parser), "repair", io, json, report);
    }
};

} // namespace

SP_REGISTER_COMMAND(RepairCommand)

} // namespace sp::cli
