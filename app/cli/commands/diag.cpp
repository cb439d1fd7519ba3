// `stackpilot-cli diag export [-o FILE.zip] [--list] [--json] [--workload W]
// [--hardware FILE] [--no-probes] [--sysfs-root DIR] [--catalog-dir DIR]`: one zip that
// answers what a helper would ask, every entry redacted (app/common/diag).
//
// --list is the review step: what would go in, with what was redacted where, and nothing
// is written. Without -o the bundle goes to the current folder under a new name and
// replaces nothing; -o FILE replaces FILE if it exists (the user named it).
// Exit: 0 written (or listed), 1 it could not be written, 2 usage, 3 a named input
// (--hardware, --catalog-dir) is broken.

#include "app/cli/command.h"
#include "app/cli/commands/machine_options.h"
#include "app/cli/printable_stream.h"
#include "app/common/diag/bundle.h"
#include "core/output_file.h"
#include "core/paths.h"

#include <QDir>
#include <algorithm>
#include <ostream>

namespace {

void printList(const sp::diag::Bundle& bundle, std::ostream& out)
{
    std::uint64_t total = 0;
    std::size_t width = 0;
    for (const auto& item : sp::diag::list(bundle)) {
        total += item.bytes;
        width = std::max(width, item.name.size());
    }
    out << bundle.entries.size() << " entries, " << total << " bytes before compression:\n";
    for (const auto& item : sp::diag::list(bundle)) {
        std::string name = item.name;
        name.resize(width, ' ');
        out << "  " << name << "  " << item.bytes << " bytes";
        if (item.redactions.total())
            out << "  redacted: " << item.redactions.summary();
        if (!item.note.empty())
            out << "  (" << item.note << ")";
        out << "\n";
    }
    out << "Redacted in all (by kind; values are never recorded): " << bundle.redactions.summary()
        << "\n";
}

class DiagCommand : public sp::cli::Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addPositionalArgument(QStringLiteral("export"), QStringLiteral("The action: export."));
        p.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                     QStringLiteral("Write FILE (replacing it if it exists); default: a new "
                                    "stackpilot-diagnostics-<UTC time>.zip here."),
                     QStringLiteral("FILE")});
        p.addOption({QStringLiteral("list"),
                     QStringLiteral("Print what would go in, with redaction counts; write "
                                    "nothing.")});
        p.addOption(sp::cli::workloadOption(
            QStringLiteral("Look closely at workload W (default: the last launched).")));
    }
    int run(const QCommandLineParser& p, sp::cli::Io& io) override
    {
        const QStringList pos = p.positionalArguments();
        if (pos.size() != 1 || pos.front() != QStringLiteral("export"))
            return usageError(io, "expected `diag export` (see --help)");
        if (p.isSet(QStringLiteral("output")) && !p.isSet(QStringLiteral("list"))) {
            // Before any work: a device, FIFO, socket or folder is never written over.
            const auto file = sp::toPath(p.value(QStringLiteral("output")));
            if (auto ok = sp::checkOutputFile(file); !ok) {
                io.err << "stackpilot-cli diag: " << ok.error().message << "\n";
                return sp::cli::exitCodeFor(ok.error());
            }
        }
        sp::diag::CollectOptions options;
        if (p.isSet(QStringLiteral("hardware"))) {
            const std::filesystem::path file = sp::toPath(p.value(QStringLiteral("hardware")));
            auto snap = sp::loadSnapshotFile(file);
            if (!snap) {
                io.err << "stackpilot-cli diag: " << snap.error().message << "\n";
                return sp::cli::exitCodeFor(snap.error());
            }
            options.snapshot = std::move(*snap);
            options.snapshotOrigin = file;
        }
        options.detect.probes = !p.isSet(QStringLiteral("no-probes"));
        options.detect.sysfsRoot = sp::toPath(p.value(QStringLiteral("sysfs-root")));
        for (const auto& dir : p.values(QStringLiteral("catalog-dir")))
            options.catalogDirs.push_back(sp::toPath(dir));
        options.workload = sp::cli::toStd(p.value(QStringLiteral("workload")));
        auto bundle = sp::diag::collect(options);
        if (!bundle) {
            io.err << "stackpilot-cli diag: " << bundle.error().message << "\n";
            return sp::cli::exitCodeFor(bundle.error());
        }
        return finish(p, io, *bundle);
    }

private:
    int finish(const QCommandLineParser& p, sp::cli::Io& io, const sp::diag::Bundle& bundle)
    {
        const bool json = p.isSet(QStringLiteral("json"));
        nlohmann::json report = sp::diag::listJson(bundle);
        report["written"] = nullptr;
        sp::cli::PrintableStream out(io.out); // entry names come from the user's folders
        if (!json)
            printList(bundle, out);
        if (p.isSet(QStringLiteral("list"))) {
            if (json)
                io.out << report.dump(2) << "\n";
            else
                out << "Nothing written (--list).\n";
            return 0;
        }
        std::filesystem::path written;
        if (p.isSet(QStringLiteral("output"))) {
            written = sp::toPath(p.value(QStringLiteral("output")));
            if (auto w = sp::diag::write(bundle, written, sp::diag::Overwrite::Allow); !w) {
                io.err << "stackpilot-cli diag: " << w.error().message << "\n";
                return sp::cli::exitCodeFor(w.error());
            }
        } else {
            auto w = sp::diag::writeNew(bundle, sp::toPath(QDir::currentPath()));
            if (!w) {
                io.err << "stackpilot-cli diag: " << w.error().message << "\n";
                return sp::cli::exitCodeFor(w.error());
            }
            written = *w;
        }
        std::error_code ec;
        const auto size = std::filesystem::file_size(written, ec);
        report["written"] = {{"file", sp::paths::toUtf8(written)}, {"bytes", ec ? 0 : size}};
        if (json)
            io.out << report.dump(2) << "\n";
        else
            out << "Wrote " << sp::paths::toUtf8(written) << " (" << (ec ? 0 : size)
                << " bytes). Review the list above before you share it.\n";
        return 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(DiagCommand, "diag",
                    "Export one redacted zip with everything a helper asks for.",
                    {Own, Machine, Json, CatalogDir})
