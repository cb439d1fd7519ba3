#include "core/launch/contained_process.h"

#include "core/json_file.h"
#include "core/launch/text_decoder.h"
#include "core/paths.h"
#include "core/process/exit_status.h"
#include "core/qt_text.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcessEnvironment>

#ifndef _WIN32
#include "core/launch/tree_kill_linux.h"
#endif

namespace sp {

namespace {

// Whether a variable goes through QProcessEnvironment, which turns bytes that are not
// UTF-8 into U+FFFD; the others reach the helper as --env-hex (POSIX).
bool passesAsText(const std::string& name, const std::string& value)
{
#ifdef _WIN32
    (void)name;
    (void)value;
    return true;
#else
    return isValidUtf8(name) && isValidUtf8(value);
#endif
}

QProcessEnvironment toQt(const EnvMap& env)
{
    QProcessEnvironment q;
    for (const auto& [name, value] : env)
        if (passesAsText(name, value))
            q.insert(QString::fromStdString(name), QString::fromStdString(value));
    return q;
}

QString hex(const std::string& bytes)
{
    return QString::fromLatin1(
        QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())).toHex());
}

ProcessEnd endFromStatus(const nlohmann::json& j)
{
    ProcessEnd e;
    const nlohmann::json exit = j.value("exit", nlohmann::json::object());
    if (exit.contains("signal"))
        e.kind = ProcessEnd::Signaled;
    else if (exit.contains("ntstatus"))
        e.kind = ProcessEnd::NtStatus;
    e.value = exit.value(e.kind == ProcessEnd::Signaled   ? "signal"
                         : e.kind == ProcessEnd::NtStatus ? "ntstatus"
                                                          : "code",
                         0LL);
    e.mainPid = j.value("main_pid", 0LL);
    e.stoppedBy = j.value("stopped_by", "none");
    e.mainEndedMs = j.value("main_ended_ms", -1LL);
    e.treeEndedMs = j.value("tree_ended_ms", -1LL);
    return e;
}

// The helper was killed while its tree lived (the started status is its last word):
// on Linux the tree was re-parented to init, so it is killed here, through the cgroup
// the helper made, else through the workload's session. On Windows the job died with
// the helper's handle to it, and the tree with the job.
void stopWhatTheHelperLeft(const nlohmann::json& started)
{
#ifdef _WIN32
    (void)started;
#else
    const auto mainPid = static_cast<pid_t>(started.value("main_pid", 0LL));
    tree::stopOrphanedTree(started.value("cgroup", std::string()), mainPid, 3000);
#endif
}

} // namespace

std::string describeEnd(ProcessEnd::Kind kind, long long value)
{
    switch (kind) {
    case ProcessEnd::Signaled:
        return "killed by " + describeSignal(static_cast<int>(value));
    case ProcessEnd::NtStatus:
        return "crashed: " + describeNtStatus(static_cast<std::uint32_t>(value));
    case ProcessEnd::NotStarted:
        return "did not start";
    case ProcessEnd::Exited:
        break;
    }
    return "exited with code " + std::to_string(value);
}

nlohmann::json toJson(const ProcessEnd& e)
{
    nlohmann::json j;
    if (e.kind == ProcessEnd::Signaled) {
        j["signal"] = e.value;
    } else if (e.kind == ProcessEnd::NtStatus) {
        j["ntstatus"] = e.value;
        j["code"] = e.value;
    } else {
        j["code"] = e.kind == ProcessEnd::NotStarted ? -1 : e.value;
    }
    j["text"] = e.text;
    return j;
}

QString containmentHelper()
{
    const QString env = qEnvironmentVariable("STACKPILOT_RUN");
    if (!env.isEmpty())
        return env;
#ifdef _WIN32
    const QString name = QStringLiteral("stackpilot-run.exe");
#else
    const QString name = QStringLiteral("stackpilot-run");
#endif
    const QString dir =
        QCoreApplication::instance() ? QCoreApplication::applicationDirPath() : QString();
    return dir.isEmpty() ? name : QDir(dir).filePath(name);
}

ContainedProcess::ContainedProcess(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<sp::ProcessEnd>();
    m_statusFile = toPath(m_dir.filePath(QStringLiteral("status.json")));
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &ContainedProcess::drain);
    connect(&m_process, &QProcess::readyReadStandardError, this, &ContainedProcess::drain);
    connect(&m_process, &QProcess::started, this, &ContainedProcess::started);
    connect(&m_process, &QProcess::finished, this, &ContainedProcess::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError err) {
        if (err != QProcess::FailedToStart || m_emitted)
            return;
        m_emitted = true;
        ProcessEnd e;
        e.kind = ProcessEnd::NotStarted;
        e.text = "did not start: " + containmentHelper().toStdString() + ": " +
                 m_process.errorString().toStdString();
        emit finished(e);
    });
}

ContainedProcess::~ContainedProcess()
{
    // Closing our end of the helper's stdin is its cue to end the tree; then wait
    // briefly so a destroyed launcher leaves no helper behind either.
    if (m_process.state() != QProcess::NotRunning) {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(2000))
            m_process.kill();
        m_process.waitForFinished(1000);
    }
}

void ContainedProcess::start(const Spec& spec)
{
    m_emitted = false;
    QFile::remove(qpath(m_statusFile));
    QStringList args{QStringLiteral("--grace-ms"), QString::number(spec.graceMs),
                     QStringLiteral("--status"), qpath(m_statusFile)};
    if (!spec.cgroup)
        args << QStringLiteral("--no-cgroup");
    for (const auto& [name, value] : spec.env)
        if (!passesAsText(name, value))
            args << QStringLiteral("--env-hex") << hex(name) + QLatin1Char('=') + hex(value);
    args << QStringLiteral("--");
    for (const std::string& a : spec.argv)
        args << QString::fromStdString(a);
    m_process.setProcessEnvironment(toQt(spec.env));
    m_process.setWorkingDirectory(QString::fromStdString(spec.cwd));
    m_process.setProgram(containmentHelper());
    m_process.setArguments(args);
    m_process.start(QIODevice::ReadWrite);
}

// Written while the helper is still starting too: QProcess keeps the bytes until
// the pipe is there.
void ContainedProcess::stop()
{
    if (m_process.state() != QProcess::NotRunning)
        m_process.write("stop\n");
}

void ContainedProcess::kill()
{
    if (m_process.state() != QProcess::NotRunning)
        m_process.write("kill\n");
}

bool ContainedProcess::isRunning() const
{
    return m_process.state() != QProcess::NotRunning;
}

long long ContainedProcess::helperPid() const
{
    return isRunning() ? m_process.processId() : 0;
}

long long ContainedProcess::mainPid() const
{
    auto j = readJsonFile(m_statusFile, kSettingsLimits, "status file");
    return j && j->is_object() ? j->value("main_pid", 0LL) : 0;
}

void ContainedProcess::drain()
{
    for (const auto channel : {QProcess::StandardOutput, QProcess::StandardError}) {
        m_process.setReadChannel(channel);
        const QByteArray bytes = m_process.readAll();
        if (!bytes.isEmpty() && onOutput)
            onOutput(channel == QProcess::StandardError,
                     std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    }
}

ProcessEnd ContainedProcess::readStatus(int exitCode, QProcess::ExitStatus status) const
{
    ProcessEnd e;
    auto j = readJsonFile(m_statusFile, kSettingsLimits, "status file");
    if (j && j->contains("error")) {
        e.kind = ProcessEnd::NotStarted;
        e.text = "did not start: " + j->value("error", "");
        return e;
    }
    if (j && j->contains("exit")) {
        e = endFromStatus(*j);
    } else {
        e.value = exitCode;
        if (j && j->value("started", false) && status == QProcess::CrashExit) {
            stopWhatTheHelperLeft(*j);
            e.mainPid = j->value("main_pid", 0LL);
            e.stoppedBy = "helper-killed";
        }
    }
    // Every text reads after "The workload " ("exited with code 3"), as the front ends
    // print it.
    e.text = describeEnd(e.kind, e.value);
    if (e.stoppedBy == "helper-killed") // the workload's parent, the helper's inner half
        e.text = "was stopped: its containment helper (stackpilot-run) was killed";
    else if ((!j || !j->contains("exit")) && status == QProcess::CrashExit)
        e.text = "did not start: its containment helper (stackpilot-run) was killed first";
    return e;
}

void ContainedProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    drain();
    if (m_emitted)
        return;
    m_emitted = true;
    emit finished(readStatus(exitCode, status));
}

} // namespace sp
