// `stackpilot-cli doctor [--workload W] [--hardware FILE] [--json] [--catalog-dir DIR]
// [--sysfs-root DIR]`: preflight checks, each finding with its fix.
//
// A report, not a verdict: exit 0 whatever it finds; 1 only when the doctor itself
// could not run (catalog, snapshot or plan failed). The checks live in
// app/common/doctor so the window runs the same ones.

#include "app/common/doctor/doctor.h"

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "app/cli/printable_stream.h"
#include "core/os_family.h"
#include "core/paths.h"
#include "core/select/select.h"
#include "detectors/detect.h"
#include "installers/prefix_store.h"

#include <QProcessEnvironment>
#include <cstdlib>
#include <ostream>

namespace {

std::map<std::string, std::string> processEnvironment()
{
    std::map<std::string, std::string> env;
    const auto sys = QProcessEnvironment::systemEnvironment();
    for (const QString& key : sys.keys())
        env[key.toStdString()] = sys.value(key).toStdString();
    return env;
}

// The plan of `workload`, or when none is named, of the first workload that has a
// profile for this machine; nullopt when none fits.
sp::Expected<std::optional<sp::Plan>> choosePlan(const sp::HardwareSnapshot& snap,
                                                 const sp::Catalog& catalog,
                                                 const std::string& workload,
                                                 const sp::SelectSettings& settings)
{
    if (!workload.empty()) {
        auto plan = sp::makePlan(snap, catalog, workload, settings);
        if (!plan)
            return plan.error();
        return std::optional<sp::Plan>(std::move(*plan));
    }
    for (const auto& w : catalog.workloads) {
        auto plan = sp::makePlan(snap, catalog, w.id, settings);
        if (plan && !plan->profile.empty())
            return std::optional<sp::Plan>(std::move(*plan));
    }
    return std::optional<sp::Plan>();
}

void printDoctorReport(const std::vector<sp::doctor::Finding>& findings, std::ostream& out)
{
    for (const auto& f : findings) {
        out << f.severity << ": " << f.text << "\n";
        if (!f.fix.empty())
            out << "  fix: " << f.fix << "\n";
    }
    if (findings.empty())
        out << "no problems found\n";
    else
        out << findings.size() << (findings.size() == 1 ? " finding" : " findings") << "\n";
}

class DoctorCommand : public sp::cli::Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addOption(sp::cli::workloadOption(
            QStringLiteral("Check for workload W (default: the first that fits).")));
        p.addOption({QStringLiteral("hardware"),
                     QStringLiteral("Use the snapshot in FILE (from detect --json)."),
                     QStringLiteral("FILE")});
        p.addOption({QStringLiteral("sysfs-root"),
                     QStringLiteral("Detect from DIR instead of /sys."), QStringLiteral("DIR")});
    }
    int run(const QCommandLineParser& p, sp::cli::Io& io) override
    {
        int rc = 0;
        auto loaded = sp::cli::loadCatalogForCli(p, io, "doctor", &rc);
        if (!loaded)
            return 1;
        sp::HardwareSnapshot snap;
        const bool fromFile = p.isSet(QStringLiteral("hardware"));
        if (fromFile) {
            auto s = sp::loadSnapshotFile(sp::toPath(p.value(QStringLiteral("hardware"))));
            if (!s) {
                io.err << "stackpilot-cli doctor: " << s.error().message << "\n";
                return 1;
            }
            snap = std::move(*s);
        } else {
            sp::DetectOptions opts;
            opts.sysfsRoot = sp::toPath(p.value(QStringLiteral("sysfs-root")));
            snap = sp::detectHardware(opts);
        }
        sp::SelectSettings host;
        host.dataDir = sp::paths::toUtf8(sp::paths::dataDir());
        host.cacheDir = sp::paths::toUtf8(sp::paths::cacheDir());
        const auto settings =
            sp::settingsForSnapshot(snap, host, std::getenv("STACKPILOT_HOME") != nullptr);
        auto plan = choosePlan(snap, loaded->catalog,
                               sp::cli::toStd(p.value(QStringLiteral("workload"))), settings);
        if (!plan) {
            io.err << "stackpilot-cli doctor: " << plan.error().message << "\n";
            return 1;
        }
        sp::doctor::DoctorInput in;
        in.snapshot = &snap;
        in.catalog = &loaded->catalog;
        in.plan = *plan ? &**plan : nullptr;
        in.dataDir = sp::paths::dataDir();
        in.runtimesDir = sp::PrefixStore::defaultRoot();
        in.env = processEnvironment();
        sp::doctor::fillFromHost(in);
        // A snapshot of another OS (a user's bundle) says nothing about this host's
        // devices, PATH, ports or disks.
        in.thisMachine = !fromFile || snap.os.family == sp::toString(sp::hostOs());
        const auto findings = sp::doctor::runAllChecks(in);
        if (p.isSet(QStringLiteral("json"))) {
            io.out << sp::doctor::toJson(findings).dump(2) << "\n";
        } else {
            sp::cli::PrintableStream out(io.out); // paths and names come from the machine
            printDoctorReport(findings, out);
        }
        return 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(DoctorCommand, "doctor",
                    "Check this machine for what breaks GPU stacks, with fixes.",
                    {Own, Json, CatalogDir})
