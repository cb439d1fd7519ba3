// `stackpilot-cli detect`: what hardware StackPilot sees, as a table or as the
// snapshot JSON that `plan --hardware` reads back.
#include "detectors/detect.h"

#include "app/cli/command.h"
#include "app/cli/printable_stream.h"
#include "core/format.h"
#include "core/settings.h"
#include "core/strings.h"

#include <algorithm>
#include <ostream>

namespace sp::cli {

namespace {

std::string orDash(const std::string& s)
{
    return s.empty() ? "-" : s;
}

std::string joinedParts(const std::vector<std::string>& parts, const char* sep)
{
    return sp::join(parts, sep);
}

// Columns padded to the widest cell; the last column is left ragged.
void printTable(std::ostream& out, const std::vector<std::vector<std::string>>& rows)
{
    std::vector<std::size_t> width;
    for (const auto& r : rows) {
        width.resize(std::max(width.size(), r.size()), 0);
        for (std::size_t i = 0; i < r.size(); ++i)
            width[i] = std::max(width[i], r[i].size());
    }
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t i = 0; i < r.size(); ++i) {
            line += r[i];
            if (i + 1 < r.size())
                line += std::string(width[i] - r[i].size() + 2, ' ');
        }
        out << "  " << line << "\n";
    }
}

void printDetectReport(std::ostream& out, const HardwareSnapshot& s)
{
    out << "OS: " << s.os.family << " " << s.os.version << "\n\n";
    if (s.gpus.empty()) {
        out << "GPUs: none found\n";
    } else {
        out << "GPUs:\n";
        std::vector<std::vector<std::string>> rows{
            {"#", "GPU", "PCI", "TARGET", "VRAM", "INTEGRATED", "DRIVER", "SOURCES"}};
        for (std::size_t i = 0; i < s.gpus.size(); ++i) {
            const auto& g = s.gpus[i];
            rows.push_back(
                {std::to_string(i), g.name + " [" + toString(g.vendor) + "]",
                 orDash(g.pciId) + (g.pciRevision.empty() ? "" : " rev " + g.pciRevision),
                 format::gpuTarget(g), format::vramMb(g.vramMb),
                 g.integrated ? (*g.integrated ? "yes" : "no") : "?",
                 g.driverVersion ? *g.driverVersion : "-", joinedParts(g.sources, ",")});
        }
        printTable(out, rows);
    }

    out << "\nProbes:\n";
    if (s.probes.empty()) {
        out << "  (none run)\n";
    } else {
        std::vector<std::vector<std::string>> rows;
        for (const auto& p : s.probes)
            rows.push_back({p.name, toString(p.status), p.detail});
        printTable(out, rows);
    }
    if (!s.runtimes.empty()) {
        out << "\nRuntimes:\n";
        std::vector<std::vector<std::string>> rows;
        for (const auto& r : s.runtimes)
            rows.push_back({r.kind, r.version, r.path});
        printTable(out, rows);
    }

    out << "\nHome: " << s.home.path << " (" << orDash(s.home.filesystem) << ")\n";
    if (s.home.network) {
        out << "  WARNING: your home is on a network filesystem. GPU stacks keep kernel and\n"
               "  model caches there (TORCH_HOME, XDG_CACHE_HOME, MIOpen); StackPilot moves\n"
               "  them to a local disk when it launches a workload.\n";
    }
}

class DetectCommand : public Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addOption({QStringLiteral("sysfs-root"),
                     QStringLiteral("Read DIR where detection would read /sys (for tests)."),
                     QStringLiteral("DIR")});
        p.addOption({QStringLiteral("no-probes"),
                     QStringLiteral(
                         "Skip the vendor library probes and tools (rocminfo, nvidia-smi, ...).")});
        p.addOption({QStringLiteral("probe-timeout"),
                     QStringLiteral("Give each probe at most MS milliseconds (default 5000)."),
                     QStringLiteral("MS")});
    }

    int run(const QCommandLineParser& p, Io& io) override
    {
        DetectOptions options;
        if (p.isSet(QStringLiteral("sysfs-root"))) {
            options.sysfsRoot = toPath(p.value(QStringLiteral("sysfs-root")));
            if (options.sysfsRoot.empty()) {
                io.err << "stackpilot-cli detect: --sysfs-root needs a folder\n";
                return 2;
            }
        }
        options.probes = !p.isSet(QStringLiteral("no-probes"));
        if (p.isSet(QStringLiteral("probe-timeout"))) {
            bool ok = false;
            const int ms = p.value(QStringLiteral("probe-timeout")).toInt(&ok);
            if (!ok || ms <= 0) {
                io.err << "stackpilot-cli detect: --probe-timeout must be a positive number of "
                          "milliseconds, not '"
                       << toStd(p.value(QStringLiteral("probe-timeout"))) << "'\n";
                return 2;
            }
            options.probeTimeoutMs = ms;
        } else if (const auto s = Settings::load(); s) {
            options.probeTimeoutMs = s->probeTimeoutMs; // settings.json "probe_timeout_ms"
        }

        const auto snapshot = detectHardware(options);
        if (p.isSet(QStringLiteral("json"))) {
            // Replace rather than throw on bytes that are not UTF-8.
            io.out << toJson(snapshot).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                   << "\n";
        } else {
            {
                PrintableStream out(io.out); // GPU names and probe details come from drivers
                printDetectReport(out, snapshot);
            }
        }
        return 0;
    }
};

} // namespace

} // namespace sp::cli

using sp::cli::DetectCommand;
SP_REGISTER_COMMAND(DetectCommand, "detect", "Show the GPUs, drivers and runtimes found.", {Json})
