// `stackpilot-cli bench WORKLOAD [--json]`: the smoke test's timed part for every
// installed profile of the workload that fits this machine, in a table with each one's
// ratio to the fastest. `stackpilot-cli evidence export [-o FILE]`: this machine's
// records of smoke tests and launches, without what names the user, for maintainers.

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/cli/commands/event_printer.h"
#include "app/cli/commands/install_support.h"
#include "app/cli/commands/machine_options.h"
#include "app/common/diag/redact.h"
#include "app/common/session/session.h"
#include "core/atomic_file.h"
#include "core/evidence/evidence.h"
#include "core/launch/launch_prep.h"
#include "core/output_file.h"
#include "core/paths.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace sp::cli {
// `evidence share` (evidence_share.cpp).
int runEvidenceShare(const QCommandLineParser& p, Io& io);
} // namespace sp::cli

namespace {

using namespace sp;

std::string benchTable(const std::vector<session::StackVerified>& rows)
{
    double best = 0;
    for (const auto& r : rows)
        if (r.passed && r.seconds && (best == 0 || *r.seconds < best))
            best = *r.seconds;
    std::ostringstream out;
    out << std::left << std::setw(36) << "profile" << std::setw(12) << "seconds" << std::setw(10)
        << "ratio"
        << "device\n";
    for (const auto& r : rows) {
        out << std::setw(36) << r.profile;
        if (r.passed && r.seconds) {
            std::ostringstream s, ratio;
            s << std::fixed << std::setprecision(4) << *r.seconds;
            ratio << std::fixed << std::setprecision(2) << (best > 0 ? *r.seconds / best : 1.0);
            out << std::setw(12) << s.str() << std::setw(10) << ratio.str() << r.device << "\n";
        } else {
            out << "failed: " << r.reason << "\n";
        }
    }
    return out.str();
}

class BenchCommand : public cli::OnMachineCommand
{
public:
    BenchCommand() : OnMachineCommand(Argument::Workload) {}
    int runOn(const std::string& workload, cli::Planning& in, const QCommandLineParser& p,
              cli::Io& io) override
    {
        const bool json = p.isSet(QStringLiteral("json"));
        // The smoke tests' own output is not the point here: only errors are printed.
        auto context =
            session::contextFor(&in.loaded.catalog, std::move(in.machine), currentEnvironment());
        context.gpuSpec = in.gpuSpec;
        session::Session s(std::move(context), [&](const session::Event& e) {
            if (const auto* f = std::get_if<session::Failed>(&e))
                io.err << "stackpilot-cli bench: " << f->message << "\n";
        });
        const session::Outcome& end = cli::waitFor(s, s.startBench(workload));
        if (!end.result)
            return cli::exitCodeFor(end.result.error());
        const auto* rows = &end.verified;
        if (rows->empty()) {
            io.err << "stackpilot-cli bench: no installed profile of " << workload
                   << " with a smoke test fits this machine\n";
            return 1;
        }
        if (json) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto& r : *rows)
                list.push_back(session::toJson(r));
            io.out << list.dump(2) << "\n";
        } else {
            io.out << benchTable(*rows);
        }
        return 0;
    }
};

class EvidenceCommand : public cli::Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addPositionalArgument(QStringLiteral("action"),
                                QStringLiteral("export, or share (docs/LEDGER.md)."));
        p.addOption({QStringLiteral("yes"),
                     QStringLiteral("share: queue and send them; without it, only show them.")});
        p.addOption({QStringLiteral("ledger"),
                     QStringLiteral("share: the ledger's URL (default STACKPILOT_LEDGER_URL)."),
                     QStringLiteral("URL")});
        p.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                     QStringLiteral("Write to FILE instead of stdout."),
                     QStringLiteral("FILE")});
    }
    int run(const QCommandLineParser& p, cli::Io& io) override
    {
        if (p.positionalArguments() == QStringList{QStringLiteral("share")})
            return cli::runEvidenceShare(p, io);
        if (p.positionalArguments() != QStringList{QStringLiteral("export")})
            return usageError(io, "expected: evidence export [-o FILE] | share [--yes]");
        const auto out = toPath(p.value(QStringLiteral("output")));
        if (!out.empty())
            if (auto ok = checkOutputFile(out); !ok) {
                io.err << "stackpilot-cli evidence: " << ok.error().message << "\n";
                return 2;
            }
        auto records = EvidenceStore().records();
        if (!records) {
            io.err << "stackpilot-cli evidence: " << records.error().message << "\n";
            return cli::exitCodeFor(records.error());
        }
        diag::RedactionCounts counts;
        const diag::Redactor redactor(diag::Identity::fromEnvironment());
        const std::string text = redactor.json(exportJson(*records), counts).dump(2) + "\n";
        if (out.empty()) {
            io.out << text;
            return 0;
        }
        if (auto w = replaceFileAtomically(out, text, "evidence", 0644); !w) {
            io.err << "stackpilot-cli evidence: " << w.error().message << "\n";
            return 1;
        }
        io.err << records->size() << " records written to " << paths::toUtf8(out) << "\n";
        return 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(BenchCommand, "bench",
                    "Time the smoke test of every installed profile of a workload.",
                    {Machine, Gpu, Json, CatalogDir})
SP_REGISTER_COMMAND(EvidenceCommand, "evidence",
                    "Export or share this machine's smoke-test and launch records, redacted.",
                    {Own, Json, Machine}) // --json: the export is JSON either way
