#include "detectors/probe_runner.h"

#include "core/process/process_runner.h"
#include "detectors/parsers/tool_parsers.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

namespace sp {

namespace {

using ChildOutcome = ProcessOutcome;

// Detection must see every GPU as it really is: the children run without the
// variables that hide devices or change the reported target (core/process).
ChildOutcome runChild(const QString& program, const QStringList& args, int timeoutMs)
{
    return runProcess(program, args, timeoutMs,
                      withoutDeviceMasking(QProcessEnvironment::systemEnvironment()));
}

QString probeExecutable(const ProbeOptions& options)
{
    if (!options.probeExecutable.empty())
        return QString::fromStdString(options.probeExecutable);
    const QString env = qEnvironmentVariable("STACKPILOT_PROBE");
    if (!env.isEmpty())
        return env;
#ifdef _WIN32
    const QString name = QStringLiteral("stackpilot-probe.exe");
#else
    const QString name = QStringLiteral("stackpilot-probe");
#endif
    const QString dir =
        QCoreApplication::instance() ? QCoreApplication::applicationDirPath() : QString();
    return dir.isEmpty() ? name : QDir(dir).filePath(name);
}

ProbeResult outcomeProbe(const std::string& name, const ChildOutcome& o, int timeoutMs)
{
    ProbeResult r;
    r.name = name;
    r.extra["elapsed_ms"] = o.elapsedMs;
    if (o.kind == ChildOutcome::TimedOut) {
        r.status = ProbeStatus::Timeout;
        r.detail = "no answer within " + std::to_string(timeoutMs) + " ms; killed";
    } else {
        r.status = ProbeStatus::Crashed;
        r.detail = o.why;
        r.extra["exit_code"] = o.exitCode;
    }
    return r;
}

RawProbeOutput rawOutput(const std::string& name, const QString& program, const QStringList& args,
                         const ChildOutcome& o)
{
    RawProbeOutput r;
    r.name = name;
    r.command = (QStringList{program} + args).join(QLatin1Char(' ')).toStdString();
    switch (o.kind) {
    case ChildOutcome::Finished:
        r.outcome = "exit " + std::to_string(o.exitCode);
        break;
    case ChildOutcome::NotStarted:
        r.outcome = "not started: " + o.why;
        break;
    case ChildOutcome::TimedOut:
        r.outcome = "timed out";
        break;
    case ChildOutcome::Crashed:
        r.outcome = "crashed: " + o.why;
        break;
    }
    r.stdoutText = o.stdoutText;
    r.stderrText = o.stderrText;
    return r;
}

void appendParsed(ProbeReport& report, ParsedProbe parsed)
{
    for (auto& g : parsed.gpus)
        report.gpus.push_back(std::move(g));
    for (auto& rt : parsed.runtimes) {
        // NVML and the CUDA driver both report the CUDA driver version.
        const bool dup =
            std::any_of(report.runtimes.begin(), report.runtimes.end(), [&](const RuntimeInfo& x) {
                return x.kind == rt.kind && x.version == rt.version;
            });
        if (!dup)
            report.runtimes.push_back(std::move(rt));
    }
    report.probes.push_back(std::move(parsed.probe));
}

QString findTool(const QStringList& names, const QStringList& extraDirs)
{
    for (const QString& n : names) {
        const QString onPath = QStandardPaths::findExecutable(n);
        if (!onPath.isEmpty())
            return onPath;
    }
    for (const QString& n : names) {
        const QString found = QStandardPaths::findExecutable(n, extraDirs);
        if (!found.isEmpty())
            return found;
    }
    return {};
}

QStringList hipinfoDirs()
{
    QStringList dirs;
    const QString hipPath = qEnvironmentVariable("HIP_PATH");
    if (!hipPath.isEmpty())
        dirs << QDir(hipPath).filePath(QStringLiteral("bin"));
#ifdef _WIN32
    // C:\Program Files\AMD\ROCm\<major.minor>\bin, newest first.
    const QString pf = qEnvironmentVariable("ProgramFiles", QStringLiteral("C:\\Program Files"));
    QDir rocm(QDir(pf).filePath(QStringLiteral("AMD/ROCm")));
    QStringList versions = rocm.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    std::sort(versions.begin(), versions.end(), [](const QString& a, const QString& b) {
        const auto va = a.split(QLatin1Char('.'));
        const auto vb = b.split(QLatin1Char('.'));
        for (int i = 0; i < std::max(va.size(), vb.size()); ++i) {
            const int x = i < va.size() ? va[i].toInt() : 0;
            const int y = i < vb.size() ? vb[i].toInt() : 0;
            if (x != y)
                return x > y;
        }
        return false;
    });
    for (const QString& v : versions)
        dirs << rocm.filePath(v + QStringLiteral("/bin"));
#else
    dirs << QStringLiteral("/opt/rocm/bin");
#endif
    return dirs;
}

const char* const kNvidiaSmiQuery =
    "--query-gpu=name,pci.bus_id,memory.total,compute_cap,driver_version";
const char* const kNvidiaSmiQueryOld = "--query-gpu=name,pci.bus_id,memory.total,driver_version";
const char* const kNvidiaSmiFormat = "--format=csv,noheader,nounits";

// A vendor tool that detection runs, and where it was found (empty: not found).
struct Tool
{
    std::string name;
    QString exe;
    QStringList args;
};

std::vector<Tool> findTools()
{
    QStringList smiDirs{QStringLiteral("/usr/bin")};
#ifdef _WIN32
    smiDirs =
        QStringList{QStringLiteral("C:\\Windows\\System32"),
                    QDir(qEnvironmentVariable("ProgramFiles", QStringLiteral("C:\\Program Files")))
                        .filePath(QStringLiteral("NVIDIA Corporation/NVSMI"))};
#endif
    return {
        {"rocminfo", findTool({QStringLiteral("rocminfo")}, {QStringLiteral("/opt/rocm/bin")}), {}},
        {"hipinfo",
         findTool({QStringLiteral("hipinfo"), QStringLiteral("hipInfo")}, hipinfoDirs()),
         {}},
        {"nvidia-smi",
         findTool({QStringLiteral("nvidia-smi")}, smiDirs),
         {QString::fromLatin1(kNvidiaSmiQuery), QString::fromLatin1(kNvidiaSmiFormat)}},
    };
}

// nvidia-smi's CSV; drivers before ~510 do not know the compute_cap field, so
// those are asked again without it (that second run's output goes to `raw`).
ParsedProbe parseNvidiaSmi(const Tool& t, const ChildOutcome& o, int timeoutMs,
                           std::vector<RawProbeOutput>& raw)
{
    ParsedProbe parsed = parseNvidiaSmiCsv(o.stdoutText, o.exitCode, true);
    const std::string all = o.stdoutText + o.stderrText;
    if (parsed.gpus.empty() && o.exitCode != 0 && all.find("compute_cap") != std::string::npos) {
        const QStringList oldArgs{QString::fromLatin1(kNvidiaSmiQueryOld),
                                  QString::fromLatin1(kNvidiaSmiFormat)};
        const ChildOutcome again = runChild(t.exe, oldArgs, timeoutMs);
        raw.push_back(rawOutput(t.name, t.exe, oldArgs, again));
        if (again.kind == ChildOutcome::Finished)
            parsed = parseNvidiaSmiCsv(again.stdoutText, again.exitCode, false);
    }
    if (parsed.gpus.empty() && !o.stderrText.empty() &&
        parsed.probe.detail.find(':') == std::string::npos)
        parsed.probe.detail += ": " + parse_util::clip(o.stderrText, 160);
    return parsed;
}

// What one finished tool run says, as a probe (and GPUs when it listed any).
ParsedProbe toolProbe(const Tool& t, const ChildOutcome& o, int timeoutMs,
                      std::vector<RawProbeOutput>& raw)
{
    ParsedProbe parsed;
    if (o.kind == ChildOutcome::TimedOut || o.kind == ChildOutcome::Crashed) {
        parsed.probe = outcomeProbe(t.name, o, timeoutMs);
        parsed.probe.extra["path"] = t.exe.toStdString();
        return parsed;
    }
    if (o.kind == ChildOutcome::NotStarted) {
        parsed.probe = {t.name, ProbeStatus::Failed,
                        "could not start " + t.exe.toStdString() + ": " + o.why,
                        nlohmann::json::object()};
        return parsed;
    }
    if (t.name == "rocminfo")
        parsed = parseRocminfo(o.stdoutText + "\n" + o.stderrText, o.exitCode);
    else if (t.name == "hipinfo")
        parsed = parseHipinfo(o.stdoutText + "\n" + o.stderrText, o.exitCode);
    else
        parsed = parseNvidiaSmi(t, o, timeoutMs, raw);
    parsed.probe.extra["path"] = t.exe.toStdString();
    parsed.probe.extra["elapsed_ms"] = o.elapsedMs;
    return parsed;
}

} // namespace

ProbeReport runVendorProbes(const ProbeOptions& options)
{
    ProbeReport report;
    const QString exe = probeExecutable(options);
    if (!QFileInfo(exe).isFile()) {
        for (const auto& name : options.vendorProbes)
            report.probes.push_back({name, ProbeStatus::Failed,
                                     "stackpilot-probe not found at " + exe.toStdString(),
                                     nlohmann::json::object()});
        return report;
    }
    // One process per probe, so one crash cannot hide the others.
    ProcessBatch batch(options.timeoutMs,
                       withoutDeviceMasking(QProcessEnvironment::systemEnvironment()));
    for (const auto& name : options.vendorProbes)
        batch.start(exe, {QString::fromStdString(name)});
    const std::vector<ChildOutcome> outcomes = batch.finish();
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const std::string& name = options.vendorProbes[i];
        const ChildOutcome& o = outcomes[i];
        report.raw.push_back(rawOutput("probe-" + name, exe, {QString::fromStdString(name)}, o));
        if (o.kind == ChildOutcome::TimedOut || o.kind == ChildOutcome::Crashed) {
            report.probes.push_back(outcomeProbe(name, o, options.timeoutMs));
            continue;
        }
        if (o.kind == ChildOutcome::NotStarted) {
            report.probes.push_back({name, ProbeStatus::Failed,
                                     "could not start stackpilot-probe: " + o.why,
                                     nlohmann::json::object()});
            continue;
        }
        ParsedProbe parsed = parseProbeJson(name, o.stdoutText);
        if (o.exitCode != 0 && parsed.probe.status == ProbeStatus::Failed)
            parsed.probe.detail += "; exit code " + std::to_string(o.exitCode) + ": " +
                                   parse_util::clip(o.stderrText, 160);
        parsed.probe.extra["elapsed_ms"] = o.elapsedMs;
        appendParsed(report, std::move(parsed));
    }
    return report;
}

ProbeReport runToolProbes(const ProbeOptions& options)
{
    const std::vector<Tool> tools = findTools();
    ProcessBatch batch(options.timeoutMs,
                       withoutDeviceMasking(QProcessEnvironment::systemEnvironment()));
    std::vector<std::size_t> slot(tools.size(), 0);
    for (std::size_t i = 0; i < tools.size(); ++i) {
        if (!tools[i].exe.isEmpty())
            slot[i] = batch.start(tools[i].exe, tools[i].args);
    }
    const std::vector<ChildOutcome> outcomes = batch.finish();

    ProbeReport report;
    for (std::size_t i = 0; i < tools.size(); ++i) {
        const Tool& t = tools[i];
        if (t.exe.isEmpty()) {
            report.probes.push_back({t.name, ProbeStatus::Missing,
                                     "not found on PATH or in its usual folders",
                                     nlohmann::json::object()});
            continue;
        }
        const ChildOutcome& o = outcomes[slot[i]];
        report.raw.push_back(rawOutput(t.name, t.exe, t.args, o));
        appendParsed(report, toolProbe(t, o, options.timeoutMs, report.raw));
    }
    return report;
}

} // namespace sp
