#include "detectors/probe_runner.h"

#include "detectors/parsers/tool_parsers.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace sp {

namespace {

struct ChildOutcome
{
    enum Kind
    {
        Finished,
        NotStarted,
        TimedOut,
        Crashed
    } kind = Finished;
    int exitCode = 0;
    std::string stdoutText;
    std::string stderrText;
    std::string why; // for NotStarted / Crashed
    qint64 elapsedMs = 0;
};

#ifndef _WIN32
std::string signalName(int sig)
{
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGABRT:
        return "SIGABRT";
    case SIGBUS:
        return "SIGBUS";
    case SIGILL:
        return "SIGILL";
    case SIGFPE:
        return "SIGFPE";
    case SIGKILL:
        return "SIGKILL";
    case SIGTERM:
        return "SIGTERM";
    default:
        return "signal";
    }
}
#endif

#ifdef _WIN32
std::string hex32(std::uint32_t v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", v);
    return buf;
}
#endif

ChildOutcome runChild(const QString& program, const QStringList& args, int timeoutMs,
                      const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    ChildOutcome out;
    QProcess p;
    p.setProcessEnvironment(env);
    p.setProgram(program);
    p.setArguments(args);
    QElapsedTimer timer;
    timer.start();
    p.start(QIODevice::ReadOnly);
    if (!p.waitForStarted(std::max(timeoutMs, 1000))) {
        out.kind = ChildOutcome::NotStarted;
        out.why = p.errorString().toStdString();
        return out;
    }
    const bool finished = p.waitForFinished(std::max(timeoutMs, 1));
    if (!finished) {
        p.kill();
        p.waitForFinished(2000);
        out.kind = ChildOutcome::TimedOut;
    }
    out.elapsedMs = timer.elapsed();
    out.stdoutText = p.readAllStandardOutput().toStdString();
    out.stderrText = p.readAllStandardError().toStdString();
    if (out.kind == ChildOutcome::TimedOut)
        return out;
    out.exitCode = p.exitCode();
#ifdef _WIN32
    // An unhandled exception ends a Windows process with its NTSTATUS as exit
    // code (0xC0000005 access violation, 0xC0000409 stack overrun, ...).
    const auto code = static_cast<std::uint32_t>(out.exitCode);
    if (p.exitStatus() == QProcess::CrashExit || (code & 0xC0000000u) == 0xC0000000u) {
        out.kind = ChildOutcome::Crashed;
        out.why = "exception " + hex32(code);
    }
#else
    if (p.exitStatus() == QProcess::CrashExit) {
        // On Unix QProcess reports the terminating signal as the exit code.
        out.kind = ChildOutcome::Crashed;
        out.why = signalName(out.exitCode) + " (" + std::to_string(out.exitCode) + ")";
    }
#endif
    return out;
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

void append(ProbeReport& report, ParsedProbe parsed)
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

} // namespace

ProbeReport runVendorProbes(const ProbeOptions& options)
{
    ProbeReport report;
    const QString exe = probeExecutable(options);
    for (const auto& name : options.vendorProbes) {
        if (!QFileInfo(exe).isFile()) {
            report.probes.push_back({name, ProbeStatus::Failed,
                                     "stackpilot-probe not found at " + exe.toStdString(),
                                     nlohmann::json::object()});
            continue;
        }
        const ChildOutcome o = runChild(exe, {QString::fromStdString(name)}, options.timeoutMs);
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
        append(report, std::move(parsed));
    }
    return report;
}

ProbeReport runToolProbes(const ProbeOptions& options)
{
    ProbeReport report;
    auto run = [&](const std::string& name, const QString& exe, const QStringList& args,
                   auto parse) {
        if (exe.isEmpty()) {
            report.probes.push_back({name, ProbeStatus::Missing,
                                     "not found on PATH or in its usual folders",
                                     nlohmann::json::object()});
            return;
        }
        const ChildOutcome o = runChild(exe, args, options.timeoutMs);
        if (o.kind == ChildOutcome::TimedOut || o.kind == ChildOutcome::Crashed) {
            ProbeResult r = outcomeProbe(name, o, options.timeoutMs);
            r.extra["path"] = exe.toStdString();
            report.probes.push_back(std::move(r));
            return;
        }
        if (o.kind == ChildOutcome::NotStarted) {
            report.probes.push_back({name, ProbeStatus::Failed,
                                     "could not start " + exe.toStdString() + ": " + o.why,
                                     nlohmann::json::object()});
            return;
        }
        ParsedProbe parsed = parse(o);
        parsed.probe.extra["path"] = exe.toStdString();
        parsed.probe.extra["elapsed_ms"] = o.elapsedMs;
        append(report, std::move(parsed));
    };

    const QString rocminfo =
        findTool({QStringLiteral("rocminfo")}, {QStringLiteral("/opt/rocm/bin")});
    run("rocminfo", rocminfo, {}, [](const ChildOutcome& o) {
        return parseRocminfo(o.stdoutText + "\n" + o.stderrText, o.exitCode);
    });

    const QString hipinfo =
        findTool({QStringLiteral("hipinfo"), QStringLiteral("hipInfo")}, hipinfoDirs());
    run("hipinfo", hipinfo, {}, [](const ChildOutcome& o) {
        return parseHipinfo(o.stdoutText + "\n" + o.stderrText, o.exitCode);
    });

    QStringList smiDirs{QStringLiteral("/usr/bin")};
#ifdef _WIN32
    smiDirs =
        QStringList{QStringLiteral("C:\\Windows\\System32"),
                    QDir(qEnvironmentVariable("ProgramFiles", QStringLiteral("C:\\Program Files")))
                        .filePath(QStringLiteral("NVIDIA Corporation/NVSMI"))};
#endif
    const QString smi = findTool({QStringLiteral("nvidia-smi")}, smiDirs);
    const QString format = QStringLiteral("--format=csv,noheader,nounits");
    run("nvidia-smi", smi, {QString::fromLatin1(kNvidiaSmiQuery), format},
        [&](const ChildOutcome& o) {
            ParsedProbe p = parseNvidiaSmiCsv(o.stdoutText, o.exitCode, true);
            const std::string all = o.stdoutText + o.stderrText;
            if (p.gpus.empty() && o.exitCode != 0 && all.find("compute_cap") != std::string::npos) {
                // Drivers before ~510 do not know the compute_cap field: ask again without it.
                const ChildOutcome again = runChild(
                    smi, {QString::fromLatin1(kNvidiaSmiQueryOld), format}, options.timeoutMs);
                if (again.kind == ChildOutcome::Finished)
                    p = parseNvidiaSmiCsv(again.stdoutText, again.exitCode, false);
            }
            if (p.gpus.empty() && !o.stderrText.empty() &&
                p.probe.detail.find(':') == std::string::npos)
                p.probe.detail += ": " + parse_util::clip(o.stderrText, 160);
            return p;
        });
    return report;
}

} // namespace sp
