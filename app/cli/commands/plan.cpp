// `stackpilot-cli plan --workload W [--profile P] [--gpu GPU] [--hardware SNAPSHOT.json] [--json]
// [--catalog-dir DIR]`: what would be installed, set and run, and why.
//
// Without --hardware it detects this machine, probes included (they are what tell
// the gfx target on Windows and the compute capability on NVIDIA, without which the
// plan would be wrong); --no-probes skips them for speed. A snapshot from any OS
// plans on any OS. A diagnostics bundle plans with its user's settings and catalog.d
// (bundle_replan.h).

#include "app/cli/command.h"
#include "app/cli/commands/bundle_replan.h"
#include "app/cli/commands/catalog_common.h"
#include "app/cli/commands/machine_options.h"
#include "app/cli/printable_stream.h"
#include "app/common/session/plans.h"
#include "core/format.h"
#include "core/select/select.h"
#include "core/settings.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

namespace {

std::string joinArgv(const std::vector<std::string>& argv)
{
    std::string out;
    for (const auto& a : argv) {
        const bool quote = a.find(' ') != std::string::npos || a.empty();
        out += (out.empty() ? "" : " ") + (quote ? "\"" + a + "\"" : a);
    }
    return out;
}

// "Plan for W on linux, GPU 1: NAME at BUS (gfx1100), chosen by --gpu".
void printPlanHeadline(const sp::Plan& plan, const sp::HardwareSnapshot& snap, std::ostream& out)
{
    out << "Plan for " << plan.workload << " on "
        << (snap.os.family.empty() ? "unknown OS" : snap.os.family);
    if (!plan.gpu) {
        out << ", no usable GPU\n";
        return;
    }
    const auto& g = snap.gpus[*plan.gpu];
    out << ", GPU " << *plan.gpu << ": " << g.name;
    if (!g.pciBus.empty())
        out << " at " << g.pciBus;
    if (g.gfx)
        out << " (" << *g.gfx << ")";
    if (g.computeCapability)
        out << " (compute capability " << *g.computeCapability << ")";
    if (plan.card && plan.card->chosenBy != "default")
        out << ", chosen by " << plan.card->chosenBy;
    out << "\n";
}

void printPlanReport(const sp::Plan& plan, const sp::HardwareSnapshot& snap, std::ostream& out)
{
    printPlanHeadline(plan, snap, out);
    if (plan.profile.empty()) {
        out << "No profile fits this machine.\n";
    } else {
        out << "Profile: " << plan.profile << " (" << sp::toString(plan.status) << ")\n";
        if (!plan.localEvidence.empty())
            out << "This machine: " << plan.localEvidence << "\n";
        if (!plan.sharedEvidence.empty())
            out << "Other PCs: " << plan.sharedEvidence << "\n";
        out << "\n";
        out << "Will install:\n";
        for (const auto& r : plan.runtimes) {
            out << "  " << r.id << "  " << r.kind << " " << r.version << " -> " << r.dir;
            if (r.system)
                out << "  (system package, not downloaded)";
            else if (r.unpinned)
                out << (std::count(r.pins.begin(), r.pins.end(), "new") > 0
                            ? "  (no pinned SHA-256: pinned on this machine when first downloaded)"
                            : "  (no SHA-256 in the catalog; pinned on this machine)");
            out << "\n";
        }
        if (!plan.repair.empty())
            out << "Will reinstall (asked for by a remedy): " << joinArgv(plan.repair) << "\n";
        if (!plan.steps.empty()) {
            out << "\nBefore launch:\n";
            for (std::size_t i = 0; i < plan.steps.size(); ++i)
                out << "  " << i + 1 << ". " << joinArgv(plan.steps[i]) << "\n";
        }
        std::vector<std::string> argv = plan.command;
        argv.insert(argv.end(), plan.args.begin(), plan.args.end());
        out << "\nLaunch: " << joinArgv(argv) << "\n";
        for (const auto& n : plan.argsNotes)
            out << "  " << joinArgv(n.args) << ": " << n.why.en << "\n";
        if (!plan.env.empty()) {
            out << "\nEnvironment:\n";
            for (const auto& [k, v] : plan.env) {
                out << "  " << k << "=" << v << "\n";
                if (auto it = plan.envWhy.find(k); it != plan.envWhy.end())
                    out << "      why: " << it->second << "\n";
            }
        }
        if (!plan.envUnset.empty())
            out << "Unset (stale values break the stack): " << joinArgv(plan.envUnset) << "\n";
    }
    if (!plan.warnings.empty()) {
        out << "\nWarnings:\n";
        for (const auto& w : plan.warnings)
            out << "  - " << w << "\n";
    }
    if (!plan.alternatives.empty()) {
        // One screen: --json has every reason of every alternative.
        out << "\nOther profiles:\n";
        const auto groups = sp::groupAlternatives(plan);
        for (const auto* a : groups.explained) {
            out << "  " << a->profile << ": " << a->verdict << "\n";
            for (const auto& r : a->reasons)
                out << "      " << r.text << (r.knownIssue.empty() ? "" : " [" + r.knownIssue + "]")
                    << "\n";
        }
        std::string elsewhere;
        for (const auto& id : groups.otherMachine)
            elsewhere += (elsewhere.empty() ? "" : ", ") + id;
        if (!elsewhere.empty())
            out << "  made for another GPU, OS or vendor: " << elsewhere << "\n";
    }
}

void printModel(const sp::session::ModelChoice& m, std::ostream& out)
{
    if (m.id.empty())
        return;
    out << "\nModel: " << m.name;
    if (m.bytes)
        out << " (" << sp::format::bytes(m.bytes) << ")";
    out << (m.userFile  ? ", your file"
            : m.inVault ? ", in the vault"
                        : ", pulled at the first run after the checklist");
    if (m.fits)
        out << (*m.fits ? "; fits the card" : "; does not fit the card");
    if (!m.why.empty())
        out << ": " << m.why;
    out << "\n";
}

class PlanCommand : public sp::cli::Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addOption(sp::cli::workloadOption(
            QStringLiteral("Workload id (sdnext, comfyui, llamafile, ...).")));
        p.addOption(
            sp::cli::profileOption(QStringLiteral("Use profile P instead of the best one.")));
    }
    int run(const QCommandLineParser& p, sp::cli::Io& io) override
    {
        const std::string workload = sp::cli::toStd(p.value(QStringLiteral("workload")));
        if (workload.empty())
            return usageError(io, "--workload W is required");
        int rc = 0;
        auto bundle = sp::cli::BundleReplan::fromOptions(p, io, "plan", &rc);
        if (!bundle)
            return rc;
        auto loaded = sp::cli::loadCatalogForCli(p, io, "plan", &rc, bundle->userCatalogTexts());
        if (!loaded)
            return rc;
        auto machine = sp::cli::machineForCli(p, io, &rc);
        if (!machine)
            return rc;
        const sp::HardwareSnapshot& snap = *machine;
        const auto userSettings = bundle->settings(io);
        if (!userSettings) {
            io.err << "stackpilot-cli plan: " << userSettings.error().message << "\n";
            return sp::cli::exitCodeFor(userSettings.error());
        }
        bundle->explain(io);
        // The same inputs as `run` and the window (app/common/session/plans.h).
        auto context = sp::session::contextFor(&loaded->catalog, snap);
        context.gpuSpec = sp::cli::toStd(p.value(QStringLiteral("gpu")));
        const std::string profile = sp::cli::toStd(p.value(QStringLiteral("profile")));
        const bool profileChosenHere = !profile.empty();
        sp::SelectSettings base = sp::session::selectBaseFor(context);
        base.gpuSpec = sp::cli::toStd(p.value(QStringLiteral("gpu")));
        auto plan =
            sp::session::planFor(context, *userSettings, workload, std::move(base), profile);
        if (!plan) {
            io.err << "stackpilot-cli plan: " << plan.error().message << "\n";
            return sp::cli::exitCodeFor(plan.error());
        }
        if (!profileChosenHere)
            bundle->compare(workload, plan->profile, io);
        // The model a run would use (issue 30), and how it fits the planned card.
        const auto model = sp::session::describeModel(context, *userSettings, workload);
        if (p.isSet(QStringLiteral("json"))) {
            nlohmann::json j = sp::toJson(*plan);
            j["model"] = sp::session::toJson(model);
            io.out << j.dump(2) << "\n";
        } else {
            sp::cli::PrintableStream out(io.out); // names and reasons come from inputs
            printPlanReport(*plan, snap, out);
            printModel(model, out);
        }
        if (plan->profile.empty()) {
            io.err << "stackpilot-cli plan: no profile of '" << workload << "' fits this machine\n";
            return 1;
        }
        return 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(PlanCommand, "plan",
                    "Choose a stack for a workload on this (or a saved) machine and explain it.",
                    {Own, Machine, Gpu, Json, CatalogDir})
