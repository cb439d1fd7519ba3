// `stackpilot-cli profiles [--workload W] [--json] [--catalog-dir DIR]`: what the
// catalog offers, per workload, with status and runtimes.

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace {

class ProfilesCommand : public sp::cli::Command
{
public:
    QString name() const override { return QStringLiteral("profiles"); }
    QString summary() const override
    {
        return QStringLiteral("List the catalog's profiles (stacks) per workload.");
    }
    void configure(QCommandLineParser& p) override
    {
        p.addOption({QStringLiteral("workload"), QStringLiteral("Only profiles of workload W."),
                     QStringLiteral("W")});
        sp::cli::addJsonOption(p);
        sp::cli::addCatalogDirOption(p);
    }
    int run(const QCommandLineParser& p, sp::cli::Io& io) override
    {
        int rc = 0;
        auto loaded = sp::cli::loadCatalogForCli(p, io, &rc);
        if (!loaded)
            return rc;
        const auto& cat = loaded->catalog;
        const std::string workload = sp::cli::toStd(p.value(QStringLiteral("workload")));
        if (!workload.empty() && !cat.workload(workload)) {
            std::string known;
            for (const auto& w : cat.workloads)
                known += (known.empty() ? "" : ", ") + w.id;
            io.err << "stackpilot-cli profiles: unknown workload '" << workload
                   << "' (known: " << known << ")\n";
            return 2;
        }
        nlohmann::json out = nlohmann::json::array();
        for (const auto& w : cat.workloads) {
            if (!workload.empty() && w.id != workload)
                continue;
            for (const auto& prof : cat.profiles) {
                if (prof.workload != w.id)
                    continue;
                nlohmann::json rts = nlohmann::json::array();
                for (const auto& id : prof.runtimes) {
                    const sp::Runtime* r = cat.runtime(id);
                    nlohmann::json rj{{"id", id}};
                    if (r) {
                        rj["kind"] = r->kind;
                        rj["version"] = r->version;
                        rj["unpinned"] = r->hasUnpinnedArtifact();
                    }
                    rts.push_back(std::move(rj));
                }
                out.push_back({{"id", prof.id},
                               {"workload", prof.workload},
                               {"status", sp::toString(prof.status)},
                               {"fallback", prof.fallback},
                               {"match", prof.match.source},
                               {"runtimes", rts},
                               {"references", prof.references},
                               {"source", prof.where.toString()}});
            }
        }
        if (p.isSet(QStringLiteral("json"))) {
            io.out << nlohmann::json{{"profiles", out},
                                     {"warnings", loaded->warnings},
                                     {"notices", loaded->notices}}
                          .dump(2)
                   << "\n";
            return 0;
        }
        std::string current;
        for (const auto& e : out) {
            const auto wl = e["workload"].get<std::string>();
            if (wl != current) {
                io.out << (current.empty() ? "" : "\n") << wl << " (" << cat.workload(wl)->name
                       << ")\n";
                current = wl;
            }
            std::string line = "  " + e["id"].get<std::string>();
            line.resize(std::max<std::size_t>(line.size() + 1, 44), ' ');
            std::string status =
                e["status"].get<std::string>() + (e["fallback"].get<bool>() ? ", fallback" : "");
            status.resize(std::max<std::size_t>(status.size() + 1, 24), ' ');
            std::string rts;
            for (const auto& r : e["runtimes"])
                rts += (rts.empty() ? "" : " + ") + r["id"].get<std::string>();
            io.out << line << status << rts << "\n";
            if (!e["match"].empty())
                io.out << "      match: " << e["match"].dump() << "\n";
        }
        return 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(ProfilesCommand)
