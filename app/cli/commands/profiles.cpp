// `stackpilot-cli profiles [--workload W] [--json] [--catalog-dir DIR]`: what the
// catalog offers, per workload, with status and runtimes.

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/cli/printable_stream.h"
#include "core/paths.h"
#include "core/select/coverage.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace {

// Markdown, one table per OS, so the README can show it as printed; CPU cells are
// numbered and their reasons listed under the table. An experimental profile (no public
// report of it working yet) is marked with *, one the plan itself calls unsupported with !.
void printCoverage(const sp::CoverageTable& t, const std::vector<std::string>& oses,
                   std::ostream& out)
{
    out << "Each cell: the profile chosen for that card, workload and OS; `*` experimental (no "
           "public report of it working yet); `!` the plan calls the GPU unsupported; "
           "`CPU [n]`: the CPU fallback, for reason n.\n";
    for (const auto& os : oses) {
        out << "\n### " << os << "\n\n| GPU |";
        std::string rule = "|---|";
        for (const auto& [w, o] : t.columns)
            if (o == os) {
                out << " " << w << " |";
                rule += "---|";
            }
        out << "\n" << rule << "\n";
        std::vector<std::string> notes;
        for (const auto& row : t.rows) {
            out << "| " << row.gpu.name << " ("
                << row.gpu.gfx.value_or(row.gpu.computeCapability.value_or("?")) << ") |";
            for (std::size_t c = 0; c < t.columns.size(); ++c) {
                if (t.columns[c].second != os)
                    continue;
                const auto& cell = row.cells[c];
                if (cell.gpu) {
                    out << " " << cell.profile << (cell.status == "experimental" ? " *" : "")
                        << (cell.calledUnsupported ? " !" : "") << " |";
                    continue;
                }
                notes.push_back(cell.note);
                out << " " << (cell.profile.empty() ? "none" : "CPU") << " [" << notes.size()
                    << "] |";
            }
            out << "\n";
        }
        out << "\n";
        for (std::size_t i = 0; i < notes.size(); ++i)
            out << "[" << i + 1 << "] " << notes[i] << "  \n";
    }
}

nlohmann::json coverageJson(const sp::CoverageTable& t)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : t.rows) {
        nlohmann::json cells = nlohmann::json::array();
        for (std::size_t c = 0; c < t.columns.size(); ++c)
            cells.push_back({{"workload", t.columns[c].first},
                             {"os", t.columns[c].second},
                             {"profile", row.cells[c].profile},
                             {"status", row.cells[c].status},
                             {"gpu_stack", row.cells[c].gpu},
                             {"called_unsupported", row.cells[c].calledUnsupported},
                             {"note", row.cells[c].note}});
        rows.push_back({{"gpu", row.gpu.name}, {"cells", cells}});
    }
    return {{"coverage", rows}};
}

int runCoverage(const sp::Catalog& cat, bool json, sp::cli::Io& io)
{
    const auto file = sp::paths::shippedDataDir() / "gpu" / "coverage-gpus.json";
    auto list = sp::loadCoverageList(file);
    if (!list) {
        io.err << "stackpilot-cli profiles: " << list.error().message << "\n";
        return 3;
    }
    const std::vector<std::string> oses = {"windows", "linux"};
    sp::SelectSettings settings;
    settings.dataDir = "<data>";
    settings.cacheDir = "<cache>";
    const auto table = sp::coverage(cat, list->gpus, oses, settings, list->workloads);
    if (json)
        io.out << coverageJson(table).dump(2) << "\n";
    else {
        sp::cli::PrintableStream text(io.out);
        printCoverage(table, oses, text);
    }
    return 0;
}

class ProfilesCommand : public sp::cli::Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addOption(sp::cli::workloadOption(QStringLiteral("Only profiles of workload W.")));
        p.addOption({QStringLiteral("coverage"),
                     QStringLiteral("For common GPUs, the profile chosen per workload and OS.")});
    }
    int run(const QCommandLineParser& p, sp::cli::Io& io) override
    {
        int rc = 0;
        auto loaded = sp::cli::loadCatalogForCli(p, io, "profiles", &rc);
        if (!loaded)
            return rc;
        const auto& cat = loaded->catalog;
        if (p.isSet(QStringLiteral("coverage")))
            return runCoverage(cat, p.isSet(QStringLiteral("json")), io);
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
        sp::cli::PrintableStream text(io.out); // ids, names and conditions come from catalog files
        std::string current;
        for (const auto& e : out) {
            const auto wl = e["workload"].get<std::string>();
            if (wl != current) {
                text << (current.empty() ? "" : "\n") << wl << " (" << cat.workload(wl)->name
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
            text << line << status << rts << "\n";
            if (!e["match"].empty())
                text << "      match: " << e["match"].dump() << "\n";
        }
        return 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(ProfilesCommand, "profiles",
                    "List the catalog's profiles (stacks) per workload.", {Own, Json, CatalogDir})
