#include "app/cli/commands/catalog_common.h"

#include "core/paths.h"
#include "detectors/detect.h"

#include <cstdlib>

#include <ostream>

namespace sp::cli {

std::optional<LoadedCatalog> loadCatalogForCli(const QCommandLineParser& parser, Io& io,
                                               const std::string& verb, int* exitCode)
{
    CatalogLoadOptions options;
    for (const auto& dir : parser.values(QStringLiteral("catalog-dir")))
        options.extraDirs.push_back(paths::fromUtf8(toStd(dir)));
    auto loaded = loadCatalog(options);
    if (!loaded) {
        io.err << "stackpilot-cli " << verb << ": " << loaded.error().message << "\n";
        *exitCode = sp::cli::exitCodeFor(loaded.error());
        return std::nullopt;
    }
    for (const auto& w : loaded->warnings)
        io.err << w << "\n";
    for (const auto& n : loaded->notices)
        io.err << n << "\n";
    return std::move(*loaded);
}

void addSnapshotOptions(QCommandLineParser& p)
{
    p.addOption({QStringLiteral("hardware"),
                 QStringLiteral("Use the snapshot in FILE (from detect --json)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("no-probes"),
                 QStringLiteral("Detect without the vendor probes (faster, less exact).")});
    p.addOption({QStringLiteral("sysfs-root"), QStringLiteral("Detect from DIR instead of /sys."),
                 QStringLiteral("DIR")});
}

std::optional<HardwareSnapshot> snapshotForCli(const QCommandLineParser& p, Io& io,
                                               const std::string& verb, int* exitCode)
{
    if (p.isSet(QStringLiteral("hardware"))) {
        auto s = loadSnapshotFile(toStd(p.value(QStringLiteral("hardware"))));
        if (!s) {
            io.err << "stackpilot-cli " << verb << ": " << s.error().message << "\n";
            *exitCode = exitCodeFor(s.error());
            return std::nullopt;
        }
        return std::move(*s);
    }
    DetectOptions opts;
    opts.probes = !p.isSet(QStringLiteral("no-probes"));
    opts.sysfsRoot = toStd(p.value(QStringLiteral("sysfs-root")));
    return detectHardware(opts);
}

SelectSettings selectSettingsForCli(const HardwareSnapshot& snapshot)
{
    SelectSettings host;
    host.dataDir = paths::toUtf8(paths::dataDir());
    host.cacheDir = paths::toUtf8(paths::cacheDir());
    return settingsForSnapshot(snapshot, std::move(host), std::getenv("STACKPILOT_HOME") != nullptr);
}

} // namespace sp::cli
