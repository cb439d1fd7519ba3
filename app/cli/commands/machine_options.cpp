#include "app/cli/commands/machine_options.h"

#include "core/paths.h"
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

} // namespace sp::cli
