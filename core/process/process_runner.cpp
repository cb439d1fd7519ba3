#include "core/process/process_runner.h"

#include "core/process/exit_status.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <algorithm>

namespace sp {

namespace {

std::string readCapped(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.read(4 * 1024 * 1024).toStdString();
}

} // namespace

struct ProcessBatch::Child
{
    QProcess process;
    QElapsedTimer timer;
    QString outFile;
    QString errFile;
};

bool isDeviceMaskingVariable(const QString& name)
{
    static const QStringList exact = {
        QStringLiteral("HIP_VISIBLE_DEVICES"), QStringLiteral("ROCR_VISIBLE_DEVICES"),
        QStringLiteral("CUDA_VISIBLE_DEVICES"), QStringLiteral("GPU_DEVICE_ORDINAL"),
        QStringLiteral("HSA_OVERRIDE_GFX_VERSION")};
    return exact.contains(name) || name.startsWith(QStringLiteral("HSA_OVERRIDE_GFX_VERSION_"));
}

QProcessEnvironment withoutDeviceMasking(QProcessEnvironment env)
{
    for (const QString& k : env.keys())
        if (isDeviceMaskingVariable(k))
            env.remove(k);
    return env;
}

ProcessBatch::ProcessBatch(int timeoutMs, QProcessEnvironment env)
    : m_timeoutMs(std::max(timeoutMs, 1)), m_env(std::move(env))
{}

ProcessBatch::~ProcessBatch() = default;

std::size_t ProcessBatch::start(const QString& program, const QStringList& args)
{
    auto c = std::make_unique<Child>();
    c->process.setProcessEnvironment(m_env);
    c->process.setProgram(program);
    c->process.setArguments(args);
    const QString base = QString::number(m_children.size());
    if (m_dir.isValid()) {
        c->outFile = m_dir.filePath(base + QStringLiteral(".out"));
        c->errFile = m_dir.filePath(base + QStringLiteral(".err"));
        c->process.setStandardOutputFile(c->outFile);
        c->process.setStandardErrorFile(c->errFile);
    }
    c->timer.start();
    c->process.start(QIODevice::ReadOnly);
    m_children.push_back(std::move(c));
    return m_children.size() - 1;
}

std::vector<ProcessOutcome> ProcessBatch::finish()
{
    std::vector<ProcessOutcome> outcomes;
    for (auto& c : m_children)
        outcomes.push_back(finishOne(*c));
    return outcomes;
}

ProcessOutcome ProcessBatch::finishOne(Child& c)
{
    ProcessOutcome out;
    QProcess& p = c.process;
    if (!p.waitForStarted(std::max<qint64>(m_timeoutMs - c.timer.elapsed(), 1000))) {
        out.kind = ProcessOutcome::NotStarted;
        out.why = p.errorString().toStdString();
        return out;
    }
    const qint64 remaining = m_timeoutMs - c.timer.elapsed();
    if (!p.waitForFinished(static_cast<int>(std::max<qint64>(remaining, 1)))) {
        out.elapsedMs = c.timer.elapsed();
        p.kill();
        p.waitForFinished(2000);
        out.kind = ProcessOutcome::TimedOut;
    } else {
        out.elapsedMs = c.timer.elapsed();
    }
    if (c.outFile.isEmpty()) {
        out.stdoutText = p.readAllStandardOutput().toStdString();
        out.stderrText = p.readAllStandardError().toStdString();
    } else {
        out.stdoutText = readCapped(c.outFile);
        out.stderrText = readCapped(c.errFile);
    }
    if (out.kind == ProcessOutcome::TimedOut)
        return out;
    out.exitCode = p.exitCode();
#ifdef _WIN32
    // An unhandled exception ends a Windows process with its NTSTATUS as exit code.
    const auto code = static_cast<std::uint32_t>(out.exitCode);
    if (p.exitStatus() == QProcess::CrashExit || isNtStatusError(code)) {
        out.kind = ProcessOutcome::Crashed;
        out.why = "exception " + describeNtStatus(code);
    }
#else
    if (p.exitStatus() == QProcess::CrashExit) {
        // On Unix QProcess reports the terminating signal as the exit code.
        out.kind = ProcessOutcome::Crashed;
        out.why = describeSignal(out.exitCode);
    }
#endif
    return out;
}

ProcessOutcome runProcess(const QString& program, const QStringList& args, int timeoutMs,
                          const QProcessEnvironment& env)
{
    ProcessBatch batch(timeoutMs, env);
    batch.start(program, args);
    return batch.finish().front();
}

} // namespace sp
