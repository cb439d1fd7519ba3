// `stackpilot-cli launch PROFILE [--dry-run] [--json] [--hardware FILE] [-- ARGS...]`:
// compose the environment, run the setup steps once, run the workload as a contained
// tree, stream its output and say what went wrong. Ctrl-C stops the whole tree
// (gracefully, then by force; a second Ctrl-C forces at once).
//
// All of the work is in the session (app/common/session); this file parses the
// options and prints the session's events.

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/cli/commands/event_printer.h"
#include "app/cli/commands/install_support.h"
#include "app/cli/commands/line_writer.h"
#include "app/cli/commands/machine_options.h"
#include "app/cli/printable_stream.h"
#include "app/common/session/session.h"
#include "core/launch/launch_prep.h"
#include "core/paths.h"

#include <ostream>

namespace {

void printDryRun(const sp::LaunchRequest& r, std::ostream& out)
{
    out << "Launch " << r.plan.profile << " (" << r.plan.workload << ")\n";
    out << "  cwd:  " << r.composed.cwd << "\n  argv:";
    for (const auto& a : r.composed.argv)
        out << " " << a;
    out << "\n\nChanges to your environment:\n";
    for (const auto& c : r.composed.changes) {
        out << "  " << sp::toString(c.kind) << " " << c.name;
        if (c.kind != sp::EnvChange::Removed)
            out << "=" << c.after;
        out << "\n      why: " << c.reason << "\n";
    }
    if (!r.plan.steps.empty())
        out << "\n" << r.plan.steps.size() << " setup step(s) run before the first launch.\n";
}

class LaunchCommand : public sp::cli::Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addPositionalArgument(QStringLiteral("profile"), QStringLiteral("Profile id."));
        p.addOption({QStringLiteral("dry-run"),
                     QStringLiteral("Print the environment, argv and folder; run nothing.")});
        p.addOption({QStringLiteral("rerun-steps"),
                     QStringLiteral("Run the setup steps even when done before.")});
    }
    int run(const QCommandLineParser& p, sp::cli::Io& io) override
    {
        // With `2>&1` into a pipe nobody reads, no message may hold the launcher once
        // its tree has stopped.
        sp::cli::StderrDeadline stderrDeadline(io.err);
        const QStringList pos = p.positionalArguments();
        if (pos.isEmpty())
            return usageError(io, "PROFILE is required");
        int rc = 0;
        auto in = sp::cli::planningForCli(p, io, "launch", &rc);
        if (!in)
            return rc;
        const bool json = p.isSet(QStringLiteral("json"));
        const bool dryRun = p.isSet(QStringLiteral("dry-run"));
        sp::cli::EventPrinter printer(io, "launch", json, false);
        auto context = sp::session::contextFor(&in->loaded.catalog, std::move(in->machine),
                                               sp::currentEnvironment());
        context.gpuSpec = in->gpuSpec;
        sp::session::Session session(std::move(context), [&](const sp::session::Event& e) {
            if (!dryRun || std::holds_alternative<sp::session::Failed>(e))
                printer(e);
        });
        auto request = session.prepare(sp::cli::toStd(pos.front()), sp::cli::workloadArgs(p));
        if (!request)
            return sp::cli::exitCodeFor(request.error());
        request->rerunSteps = p.isSet(QStringLiteral("rerun-steps"));
        if (dryRun) {
            if (json)
                // A caller's value that is not UTF-8 shows as U+FFFD here (JSON holds
                // text); the workload gets its bytes.
                io.out << sp::dryRunJson(*request).dump(2, ' ', false,
                                                        nlohmann::json::error_handler_t::replace)
                       << "\n";
            else {
                sp::cli::PrintableStream out(io.out);
                printDryRun(*request, out);
            }
            return 0;
        }
        const sp::session::Outcome& end =
            sp::cli::waitFor(session, session.startLaunch(std::move(*request), false));
        if (!end.result)
            return sp::cli::exitCodeFor(end.result.error());
        if (!json && !*end.result)
            io.err << "stackpilot-cli launch: log: " << sp::paths::toUtf8(end.log) << "\n";
        return *end.result ? 0 : 1;
    }
};

} // namespace

SP_REGISTER_COMMAND(LaunchCommand, "launch",
                    "Run a profile's workload in its composed environment.",
                    {Own, WorkloadArgs, Machine, Gpu, Json, CatalogDir})
