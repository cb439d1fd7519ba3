// `stackpilot-cli snapshot import FILE... [--json] [-o OUT] [--os windows|linux]`: a
// hardware snapshot built from tool output a user pasted (detectors/import), the same
// JSON that `detect --json` prints and `plan --hardware` reads.

#include "app/cli/command.h"
#include "core/json_file.h"
#include "core/output_file.h"
#include "core/paths.h"
#include "core/strings.h"
#include "core/text.h"
#include "core/zip_reader.h"
#include "detectors/import/snapshot_import.h"

#include <filesystem>
#include <ostream>
#include <sstream>

namespace sp::cli {

namespace {

std::string target(const GpuInfo& g)
{
    if (g.gfx)
        return *g.gfx;
    if (g.computeCapability)
        return "sm " + *g.computeCapability;
    return "target unknown";
}

void printSnapshotReport(std::ostream& out, const HardwareSnapshot& s)
{
    out << "Read:\n";
    for (const auto& p : s.probes)
        out << "  " << p.detail << "\n";
    out << "\nGPUs (" << s.gpus.size() << "):\n";
    for (std::size_t i = 0; i < s.gpus.size(); ++i) {
        const auto& g = s.gpus[i];
        out << "  " << i << "  " << g.name << " [" << toString(g.vendor) << "]  " << target(g)
            << (g.pciId.empty() ? "" : "  " + g.pciId) << (g.pciBus.empty() ? "" : "  " + g.pciBus)
            << "  from " << join(g.sources, ",") << "\n";
    }
    out << "\nOS: " << (s.os.family.empty() ? "unknown (give --os)" : s.os.family) << "\n";
}

// True when `file` is a plain snapshot that records "imported_from": read as it is,
// not as plan --hardware reads it (a bundle zip or report.json made from an imported
// snapshot carries that mark too, and is the user's).
bool isImportedSnapshot(const std::filesystem::path& file, const std::string& name)
{
    const auto text = readRegularFile(file, kSnapshotLimits.maxBytes, "hardware snapshot");
    if (!text || looksLikeZip(*text))
        return false;
    const auto j = parseJsonText(*text, name, kSnapshotLimits);
    if (!j || !j->is_object() || j->contains(kBundleSchemaKey))
        return false;
    const auto snap = snapshotFromJson(*j, name);
    return snap && snap->extra.contains("imported_from");
}

// -o replaces only a snapshot this verb wrote; any other file at that path is the user's.
Expected<void> checkReplaceable(const std::string& out)
{
    std::error_code ec;
    const auto path = paths::fromUtf8(out);
    if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
        return {};
    if (isImportedSnapshot(path, out))
        return {};
    return Error::usage(out + ": exists and is not a snapshot this command wrote; " +
                        "remove it or choose another -o");
}

class SnapshotCommand : public Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addPositionalArgument(QStringLiteral("import"),
                                QStringLiteral("The action (import is the only one)."));
        p.addPositionalArgument(
            QStringLiteral("FILE"),
            QStringLiteral("Tool output as pasted (any mix of tools; repeatable)."),
            QStringLiteral("FILE..."));
        p.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                     QStringLiteral("Write the snapshot JSON to OUT."),
                     QStringLiteral("OUT")});
        p.addOption({QStringLiteral("os"),
                     QStringLiteral("The OS the output came from, windows or linux (default: "
                                    "inferred from the text)."),
                     QStringLiteral("OS")});
    }

    int run(const QCommandLineParser& p, Io& io) override
    {
        const QStringList args = p.positionalArguments();
        if (args.isEmpty() || args[0] != QStringLiteral("import") || args.size() < 2)
            return usageError(io, "expected import FILE...");
        ImportOptions options;
        options.osFamily = toStd(p.value(QStringLiteral("os")));
        if (!options.osFamily.empty() && options.osFamily != "windows" &&
            options.osFamily != "linux") {
            io.err << "stackpilot-cli snapshot: --os must be windows or linux, not '"
                   << terminalSafe(options.osFamily, false) << "'\n";
            return 2;
        }
        std::vector<std::string> files;
        for (qsizetype i = 1; i < args.size(); ++i)
            files.push_back(toStd(args[i]));
        const std::string out = toStd(p.value(QStringLiteral("output")));
        if (!out.empty()) {
            if (auto ok = checkOutputFile(paths::fromUtf8(out)); !ok)
                return fail(io, ok.error());
            if (auto ok = checkReplaceable(out); !ok)
                return fail(io, ok.error());
        }

        auto snap = importSnapshotFiles(files, options);
        if (!snap)
            return fail(io, snap.error());
        if (snap->gpus.empty()) {
            io.err << "stackpilot-cli snapshot: no GPU found in "
                   << terminalSafe(join(files, ", "), false)
                   << " (rocminfo, hipinfo, clinfo, KFD properties, rocprofv3-avail, "
                      "nvidia-smi, lspci and Windows device ids are read)\n";
            return 1;
        }
        const std::string json =
            toJson(*snap).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        if (!out.empty()) {
            if (auto written = writeFileAtomic(paths::fromUtf8(out), json); !written)
                return fail(io, written.error());
        }
        if (p.isSet(QStringLiteral("json"))) {
            io.out << json;
        } else {
            // Names come from the pasted text: every escape and control shown escaped.
            std::ostringstream human;
            printSnapshotReport(human, *snap);
            if (!out.empty())
                human << "\nWrote " << out << " (use it with plan --hardware).\n";
            io.out << terminalSafe(human.str(), false);
        }
        return 0;
    }

private:
    static int fail(Io& io, const Error& e)
    {
        io.err << "stackpilot-cli snapshot: " << terminalSafe(e.message, false) << "\n";
        return exitCodeFor(e);
    }
};

} // namespace

} // namespace sp::cli

using sp::cli::SnapshotCommand;
SP_REGISTER_COMMAND(
    SnapshotCommand, "snapshot",
    "Build a hardware snapshot from pasted rocminfo/hipinfo/nvidia-smi/KFD/lspci output.", {Json})
