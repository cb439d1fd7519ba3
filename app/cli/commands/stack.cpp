// The verbs around proving stacks on this machine (docs/VERIFY.md):
//   verify-stack PROFILE [--json]      the smoke test, now (installs nothing)
//   rollback WORKLOAD                  back to the last profile that passed here
//   bench WORKLOAD [--json]            every installed stack's smoke test, timed
//   evidence export [-o FILE]          this machine's records, redacted, for maintainers

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/cli/commands/event_printer.h"
#include "app/cli/commands/install_support.h"
#include "app/cli/commands/machine_options.h"
#include "app/common/diag/redact.h"
#include "app/common/session/session.h"
#include "core/launch/launch_prep.h"
#include "core/output_file.h"
#include "core/paths.h"

#include <cstdio>
#include <ostream>

namespace {

using namespace sp;

class VerifyStackCommand : public cli::OnMachineCommand
{
public:
    VerifyStackCommand() : OnMachineCommand(Argument::Profile) {}
    int runOn(const std::string& profile, cli::Planning& in, const QCommandLineParser& p,
              cli::Io& io) override
    {
        const bool json = p.isSet(QStringLiteral("json"));
        cli::EventPrinter printer(io, "verify-stack", json, true);
        auto context =
            session::contextFor(&in.loaded.catalog, std::move(in.machine), currentEnvironment());
        context.gpuSpec = in.gpuSpec;
        session::Session s(std::move(context), [&](const session::Event& e) { printer(e); });
        auto request = s.prepare(profile, {});
        if (!request)
            return cli::exitCodeFor(request.error());
        if (const auto missing = missingRuntimes(request->plan); !missing.empty()) {
            io.err << "stackpilot-cli verify-stack: not installed: " << missing.front()
                   << " (run: stackpilot-cli install " << request->plan.profile << ")\n";
            return 1;
        }
        const session::Outcome& end = cli::waitFor(s, s.startVerify(std::move(*request)));
        if (!end.result) {
            io.err << "stackpilot-cli verify-stack: " << end.result.error().message << "\n";
            return cli::exitCodeFor(end.result.error());
        }
        return *end.result ? 0 : 1;
    }
};

class RollbackCommand : public cli::OnMachineCommand
{
public:
    RollbackCommand() : OnMachineCommand(Argument::Workload) {}
    int runOn(const std::string& workload, cli::Planning& in, const QCommandLineParser& p,
              cli::Io& io) override
    {
        auto context = session::contextFor(&in.loaded.catalog, std::move(in.machine));
        context.gpuSpec = in.gpuSpec;
        session::Session s(std::move(context), {});
        auto r = s.rollback(workload);
        if (!r) {
            io.err << "stackpilot-cli rollback: " << r.error().message << "\n";
            return cli::exitCodeFor(r.error());
        }
        if (p.isSet(QStringLiteral("json"))) {
            io.out << nlohmann::json{{"workload", workload},
                                     {"profile", r->profile},
                                     {"passed_at", r->passedAt},
                                     {"notes", r->notes}}
                          .dump(2)
                   << "\n";
            return 0;
        }
        io.out << workload << " now runs on " << r->profile << " (its smoke test passed here on "
               << r->passedAt.substr(0, 10) << ")\n";
        for (const auto& n : r->notes)
            io.out << "  " << n << "\n";
        return 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(VerifyStackCommand, "verify-stack",
                    "Run a profile's smoke test on this machine and record the result.",
                    {Machine, Gpu, Json, CatalogDir})
SP_REGISTER_COMMAND(RollbackCommand, "rollback",
                    "Make the last profile that passed on this machine the choice again.",
                    {Machine, Gpu, Json, CatalogDir})
