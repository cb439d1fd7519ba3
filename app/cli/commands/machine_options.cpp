#include "app/cli/commands/machine_options.h"

#include "core/paths.h"
#include "core/select/gpu_choice.h"
#include "detectors/detect.h"

#include <cstdlib>
#include <ostream>

namespace sp::cli {

std::optional<HardwareSnapshot> machineForCli(const QCommandLineParser& p, Io& io, int* exitCode)
{
    if (p.isSet(QStringLiteral("hardware"))) {
        auto s = loadSnapshotFile(toPath(p.value(QStringLiteral("hardware"))));
        if (!s) {
            io.err << s.error().message << "\n"; // it names the file and position
            *exitCode = exitCodeFor(s.error());
            return std::nullopt;
        }
        return std::move(*s);
    }
    DetectOptions opts;
    opts.probes = !p.isSet(QStringLiteral("no-probes"));
    opts.sysfsRoot = toPath(p.value(QStringLiteral("sysfs-root")));
    return detectHardware(opts);
}

std::optional<Planning> planningForCli(const QCommandLineParser& p, Io& io, const std::string& verb,
                                       int* exitCode, const std::string* workload)
{
    auto loaded = loadCatalogForCli(p, io, verb, exitCode);
    if (!loaded)
        return std::nullopt;
    if (workload && !loaded->catalog.workload(*workload)) {
        io.err << "stackpilot-cli " << verb << ": unknown workload " << *workload << "\n";
        *exitCode = 2;
        return std::nullopt;
    }
    auto machine = machineForCli(p, io, exitCode);
    if (!machine)
        return std::nullopt;
    // --gpu names a GPU of this machine, or nothing is planned, installed or started.
    const bool given =
        p.optionNames().contains(QStringLiteral("gpu")) && p.isSet(QStringLiteral("gpu"));
    const std::string gpu = given ? toStd(p.value(QStringLiteral("gpu"))) : std::string();
    // An empty --gpu "" names nothing; it is not the default rule in disguise.
    if (given)
        if (auto index = resolveGpuSpec(*machine, gpu); !index) {
            io.err << "stackpilot-cli " << verb << ": --gpu: " << index.error().message << "\n";
            *exitCode = 2;
            return std::nullopt;
        }
    return Planning{std::move(*loaded), std::move(*machine), gpu};
}

void OnMachineCommand::addOptions(QCommandLineParser& p)
{
    if (m_argument == Argument::Profile)
        p.addPositionalArgument(QStringLiteral("PROFILE"), QStringLiteral("An installed profile."));
    else
        p.addPositionalArgument(QStringLiteral("WORKLOAD"), QStringLiteral("Workload id."));
}

int OnMachineCommand::run(const QCommandLineParser& p, Io& io)
{
    const bool workload = m_argument == Argument::Workload;
    const auto id = oneArgument(p, io, workload ? "WORKLOAD" : "PROFILE");
    if (!id)
        return 2;
    int rc = 0;
    auto in = planningForCli(p, io, toStd(name()), &rc, workload ? &*id : nullptr);
    return in ? runOn(*id, *in, p, io) : rc;
}

} // namespace sp::cli
