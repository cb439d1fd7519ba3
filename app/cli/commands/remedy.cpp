// `stackpilot-cli remedy apply|undo ISSUE_ID [--workload W] [--hardware FILE] [--json]
// [--catalog-dir DIR]`: applies a known issue's remedy to a workload's settings (or
// undoes it) and says how the plan changes. The change lives in settings.json
// ("workloads"), written atomically; core/remedy does the work.

#include "core/remedy/remedy.h"

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/cli/commands/machine_options.h"
#include "app/cli/printable_stream.h"
#include "app/common/session/session.h"

#include <ostream>

namespace {

std::string joinedList(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& s : items)
        out += (out.empty() ? "" : " ") + s;
    return out;
}

void printRemedyReport(const sp::RemedyChange& c, std::ostream& out)
{
    out << c.message << "\n";
    for (const auto& d : c.details)
        out << "  " << d << "\n";
    if (!c.planned || !c.changed)
        return;
    const auto& b = c.planBefore;
    const auto& a = c.planAfter;
    auto name = [](const std::string& p) { return p.empty() ? std::string("none") : p; };
    out << "Plan for " << c.workload << ":\n";
    if (a.profile != b.profile)
        out << "  profile: " << name(b.profile) << " -> " << name(a.profile) << "\n";
    for (const auto& [k, v] : c.envAdded())
        out << "  env: " << k << "=" << v << "\n";
    for (const auto& [k, v] : b.env)
        if (!a.env.count(k))
            out << "  env: " << k << " no longer set\n";
    if (const auto added = c.argsAdded(); !added.empty())
        out << "  args added: " << joinedList(added) << "\n";
    if (a.repair != b.repair)
        out << "  reinstall before launch: "
            << (a.repair.empty() ? "nothing" : joinedList(a.repair)) << "\n";
}

class RemedyCommand : public sp::cli::Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addPositionalArgument(QStringLiteral("apply|undo"),
                                QStringLiteral("Apply the remedy, or undo it."));
        p.addPositionalArgument(QStringLiteral("ISSUE_ID"), QStringLiteral("The known issue."));
        p.addOption(sp::cli::workloadOption(
            QStringLiteral("The workload to change (default: the one the issue is "
                           "about, or for undo the one it was applied to).")));
    }
    int run(const QCommandLineParser& p, sp::cli::Io& io) override
    {
        const QStringList args = p.positionalArguments();
        const std::string verb = args.size() == 2 ? sp::cli::toStd(args[0]) : std::string();
        if (verb != "apply" && verb != "undo")
            return usageError(io, "expected apply|undo ISSUE_ID");
        int rc = 0;
        auto in = sp::cli::planningForCli(p, io, "remedy", &rc);
        if (!in)
            return rc;
        const std::string issue = sp::cli::toStd(args[1]);
        const std::string workload = sp::cli::toStd(p.value(QStringLiteral("workload")));
        sp::session::Session session(
            sp::session::contextFor(&in->loaded.catalog, std::move(in->machine)), {});
        auto change = verb == "apply" ? session.applyRemedy(issue, workload)
                                      : session.undoRemedy(issue, workload);
        if (!change)
            return fail(io, change.error());
        if (p.isSet(QStringLiteral("json"))) {
            io.out << sp::toJson(*change).dump(2) << "\n";
        } else {
            sp::cli::PrintableStream out(io.out); // the remedy's words come from the catalog
            printRemedyReport(*change, out);
        }
        return 0;
    }

private:
    static int fail(sp::cli::Io& io, const sp::Error& e)
    {
        io.err << "stackpilot-cli remedy: " << e.message << "\n";
        return sp::cli::exitCodeFor(e);
    }
};

} // namespace

SP_REGISTER_COMMAND(RemedyCommand, "remedy",
                    "Apply a known issue's remedy to a workload's settings, or undo it.",
                    {Own, Machine, Json, CatalogDir})
