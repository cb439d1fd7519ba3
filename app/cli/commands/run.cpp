// `stackpilot-cli run WORKLOAD [--profile P] [--yes] [--json] [-- ARGS...]`: the whole
// one-click path on the command line, as the window's primary button takes it: detect
// (or --hardware), plan, install what is missing (repairs first), the setup steps, the
// launch, and the workload watched for known issues until it ends. A lab provisions
// machines with it; tests drive the workflow end to end with it.

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/cli/commands/event_printer.h"
#include "app/cli/commands/install_support.h"
#include "app/cli/commands/machine_options.h"
#include "app/common/session/session.h"
#include "core/format.h"
#include "core/os_family.h"
#include "core/paths.h"

#include <cstdio>
#include <iostream>
#include <ostream>

#ifdef _WIN32
#include <io.h>
#define SP_ISATTY _isatty
#define SP_FILENO _fileno
#else
#include <unistd.h>
#define SP_ISATTY isatty
#define SP_FILENO fileno
#endif

namespace {

using namespace sp;

// Without --yes an install is confirmed at the terminal; without a terminal it is
// refused, so a script never installs by accident.
bool confirmInstall(const session::ConfirmInstall& c, cli::Io& io)
{
    io.err << c.workload << " runs on " << c.profile << ". To install:";
    for (const auto& id : c.runtimes)
        io.err << " " << id;
    if (!c.model.empty()) // pulled into the vault first; its size is pinned
        io.err << (c.runtimes.empty() ? " " : ", and ") << "the model " << c.model << " ("
               << format::bytes(c.modelBytes) << ")";
    // The total of the sizes known, and by name what has none: never a lower bound.
    if (c.downloadBytes)
        io.err << " (about " << format::bytes(c.downloadBytes) << " to download, about "
               << format::bytes(c.diskNeeded) << " of disk while installing"
               << (c.diskFree ? ", " + format::bytes(*c.diskFree) + " free" : std::string()) << ")";
    if (!c.unsized.empty()) {
        io.err << "; the download size of";
        for (std::size_t i = 0; i < c.unsized.size(); ++i)
            io.err << (i ? ", " : " ") << c.unsized[i];
        io.err << " is not known before the download";
    }
    io.err << "\n";
    if (c.diskFree && *c.diskFree < c.diskNeeded)
        io.err << "warning: the disk has less free space than the install needs\n";
    if (!c.needsAdmin.empty())
        io.err << "needs administrator rights: " << c.needsAdmin.front()
               << (c.needsAdmin.size() > 1 ? " and others" : "") << "\n";
    if (c.unpinned)
        io.err << c.unpinned
               << " download(s) have no published checksum: the first bytes are recorded and "
                  "a later change is refused\n";
    for (const auto& a : c.advice)
        io.err << "note: " << a << "\n";
    if (!SP_ISATTY(SP_FILENO(stdin))) {
        io.err << "stackpilot-cli run: pass --yes to install without asking\n";
        return false;
    }
    io.err << "Install and launch? [Y/n] " << std::flush;
    std::string answer;
    std::getline(std::cin, answer);
    return answer.empty() || answer[0] == 'y' || answer[0] == 'Y';
}

class RunCommand : public cli::Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addPositionalArgument(QStringLiteral("workload"), QStringLiteral("Workload id."));
        p.addOption(
            cli::profileOption(QStringLiteral("Use this profile instead of the best one.")));
        p.addOption(
            {QStringLiteral("yes"), QStringLiteral("Install what the plan needs without asking.")});
        p.addOption({QStringLiteral("rerun-steps"),
                     QStringLiteral("Run the setup steps even when done before.")});
        p.addOption({QStringLiteral("auto-fallback"),
                     QStringLiteral("When a download is gone or the smoke test fails, switch to "
                                    "the next profile without asking.")});
        p.addOption({QStringLiteral("no-verify"),
                     QStringLiteral("Launch without the smoke test, even on a new stack.")});
        p.addOption({QStringLiteral("model"),
                     QStringLiteral("Run this model: a catalog model in the vault (models "
                                    "pull) or a model file."),
                     QStringLiteral("ID|FILE")});
        p.addOption({QStringLiteral("models-dir"),
                     QStringLiteral("The model vault (default: <data>/models)."),
                     QStringLiteral("DIR")});
    }
    int run(const QCommandLineParser& p, cli::Io& io) override
    {
        const QStringList pos = p.positionalArguments();
        if (pos.isEmpty())
            return usageError(io, "WORKLOAD is required");
        session::RunOptions options;
        options.workload = cli::toStd(pos.front());
        int rc = 0;
        auto in = cli::planningForCli(p, io, "run", &rc, &options.workload);
        if (!in)
            return rc;
        if (in->machine.os.family != toString(hostOs())) {
            io.err << "stackpilot-cli run: the snapshot is of a " << in->machine.os.family
                   << " machine; run installs and launches on this one (see: stackpilot-cli "
                      "plan --hardware)\n";
            return 2;
        }
        options.profile = cli::toStd(p.value(QStringLiteral("profile")));
        options.rerunSteps = p.isSet(QStringLiteral("rerun-steps"));
        options.autoFallback = p.isSet(QStringLiteral("auto-fallback"));
        options.verify = !p.isSet(QStringLiteral("no-verify"));
        if (!cli::readInstallSourceOptions(p, io, "run", options.install))
            return 2;
        options.extraArgs = cli::workloadArgs(p);
        options.model = cli::toStd(p.value(QStringLiteral("model")));
        options.confirm = !p.isSet(QStringLiteral("yes"));
        const bool json = p.isSet(QStringLiteral("json"));
        cli::EventPrinter printer(io, "run", json, true);
        session::Session* self = nullptr;
        auto context =
            session::contextFor(&in->loaded.catalog, std::move(in->machine), currentEnvironment());
        context.modelsRoot = cli::toPath(p.value(QStringLiteral("models-dir")));
        context.gpuSpec = in->gpuSpec;
        session::Session session(std::move(context), [&](const session::Event& e) {
            printer(e);
            if (const auto* c = std::get_if<session::ConfirmInstall>(&e))
                self->confirm(confirmInstall(*c, io));
        });
        self = &session;
        const session::Outcome& end = cli::waitFor(session, session.startRun(options));
        if (!end.result)
            return cli::exitCodeFor(end.result.error());
        if (!json && !*end.result)
            io.err << "stackpilot-cli run: log: " << paths::toUtf8(end.log) << "\n";
        return *end.result ? 0 : 1;
    }
};

} // namespace

SP_REGISTER_COMMAND(RunCommand, "run",
                    "Detect, plan, install, run the setup steps and launch a workload, watched.",
                    {Own, WorkloadArgs, InstallSource, Machine, Gpu, Json, CatalogDir})
