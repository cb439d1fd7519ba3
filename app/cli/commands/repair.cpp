// stackpilot-cli repair ID: re-install a runtime that verify found damaged. The
// whole runtime goes through staging again (so it is never half-repaired); its
// artifacts come from the download cache, so nothing is downloaded twice.
// repair PROFILE rebuilds the profile: its venv and step receipt are removed (so the
// next launch creates the venv and runs every step again) and its runtimes repaired.

#include "app/cli/commands/event_printer.h"
#include "app/cli/commands/install_support.h"
#include "app/common/session/session.h"

#include <ostream>

namespace sp::cli {

namespace {

class RepairCommand : public Command
{
public:
    void addOptions(QCommandLineParser& parser) override
    {
        parser.addOption({QStringLiteral("offline"),
                          QStringLiteral("Take artifacts from DIR; never use the network."),
                          QStringLiteral("DIR")});
        parser.addPositionalArgument(QStringLiteral("ID"),
                                     QStringLiteral("A runtime id, or a profile id."));
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        const auto arg = oneArgument(parser, io, "runtime ID");
        if (!arg)
            return 2;
        const std::string& id = *arg;
        const bool json = parser.isSet(QStringLiteral("json"));
        int rc = 0;
        auto loaded = loadCatalogForCli(parser, io, "repair", &rc);
        if (!loaded)
            return rc;
        const Catalog& catalog = loaded->catalog;
        const Runtime* rt = catalog.runtime(id);
        const Profile* profile = rt ? nullptr : catalog.profile(id);
        if (!rt && !profile)
            return fail(io, "repair",
                        Error::usage("'" + id + "' is not a runtime or profile of the catalog"));
        // The work is the session's (app/common/session/session_repair.cpp); this verb
        // says what it found and did.
        session::RepairWork work;
        work.options = optionsFor(parser);
        if (profile) {
            work.profile = profile->id;
            for (const std::string& rid : profile->runtimes)
                if (const Runtime* r = catalog.runtime(rid))
                    work.runtimes.push_back(*r);
        } else {
            work.runtimes.push_back(*rt);
        }
        ProgressView view(io, json);
        session::Context context;
        context.catalog = &catalog;
        session::Session session(context, [&](const session::Event& e) { view.onEvent(e); });
        const session::Outcome& end = waitFor(session, session.startRepair(std::move(work)));
        view.close();
        if (!end.repair)
            return fail(io, "repair",
                        end.result ? Error::runtime("nothing was checked") : end.result.error());
        nlohmann::json report = reportOf(*end.repair, id);
        if (!json)
            io.out << summaryOf(*end.repair, id) << "\n";
        if (end.repair->damaged.empty() && end.result) {
            if (json)
                io.out << report.dump(2) << "\n";
            return 0;
        }
        return reportInstalled(end, "repair", io, json, report);
    }

private:
    static InstallOptions optionsFor(const QCommandLineParser& parser)
    {
        InstallOptions options;
        options.prefixRoot = prefixRootOf(parser);
        if (parser.isSet(QStringLiteral("offline"))) {
            options.offlineDir = toPath(parser.value(QStringLiteral("offline")));
            options.allowNetwork = false;
        }
        return options;
    }

    static nlohmann::json reportOf(const session::RepairReport& r, const std::string& id)
    {
        nlohmann::json report{{"problems_before", r.problemsBefore},
                              {"steps_rerun_for", r.stepsRerunFor},
                              {"repaired", !r.damaged.empty()}};
        if (!r.profile.empty()) {
            report["profile"] = id;
            report["venv_removed"] = r.venvRemoved;
        }
        return report;
    }

    static std::string summaryOf(const session::RepairReport& r, const std::string& id)
    {
        if (!r.profile.empty())
            return id + ": " + (r.venvRemoved ? "venv removed; " : "") +
                   "its setup steps run again at the next launch; " +
                   std::to_string(r.damaged.size()) + " runtime(s) to re-install";
        if (r.damaged.empty())
            return id + ": ok, nothing to repair";
        return id + ": " + std::to_string(r.problemsBefore) + " problem(s), re-installing";
    }
};

} // namespace

SP_REGISTER_COMMAND(RepairCommand, "repair",
                    "Re-install a runtime whose files are missing or modified.",
                    {Json, CatalogDir, PrefixRoot})

} // namespace sp::cli
