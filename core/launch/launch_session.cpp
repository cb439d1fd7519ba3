#include "core/launch/launch_session.h"

#include "core/json_file.h"
#include "core/launch/port_check.h"
#include "core/launch/profile_env.h"
#include "core/launch/step_receipt.h"
#include "core/paths.h"

#include <QCryptographicHash>

#ifdef _WIN32
#include <windows.h>
#else
#include <cerrno>
#include <csignal>
#endif

namespace fs = std::filesystem;

namespace sp {

namespace {

constexpr std::size_t kFailedStepLines = 20;

// Which step and of how many are emitStep's to fill in.
events::StepChanged stepEvent(events::StepState state, std::optional<ProcessEnd> exit = {},
                              std::string text = {})
{
    events::StepChanged s;
    s.state = state;
    s.exit = std::move(exit);
    s.text = std::move(text);
    return s;
}

// Records left without an end by launchers that were killed are closed as "ended
// abnormally" at the next launch. A profile's records are touched only under its
// lock: our own (held), or another's taken for a moment when it has an open record.
void closeAbandonedLaunches(const fs::path& logsRoot, const fs::path& dataDir,
                            const std::string& own, const std::string& now)
{
    std::error_code ec;
    for (fs::directory_iterator it(logsRoot, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_directory(ec))
            continue;
        const std::vector<fs::path> open = openLaunchRecords(it->path());
        if (open.empty())
            continue;
        const std::string profile = paths::toUtf8(it->path().filename());
        std::unique_ptr<LaunchLock> held;
        if (profile != own) {
            auto lock = LaunchLock::acquire(dataDir, profile);
            if (!lock)
                continue; // running now
            held = std::move(*lock);
        }
        // One that cannot be written now is tried again at the next launch.
        for (const fs::path& record : open)
            (void)closeAbandonedRecord(record, now);
    }
}

// "300 s", "1.5 s"
std::string deadlineText(int ms)
{
    return ms % 1000 == 0
               ? std::to_string(ms / 1000) + " s"
               : std::to_string(ms / 1000) + "." + std::to_string(ms % 1000 / 100) + " s";
}

} // namespace

std::string planHash(const Plan& plan)
{
    const std::string text = toJson(plan).dump();
    return QCryptographicHash::hash(
               QByteArrayView(text.data(), static_cast<qsizetype>(text.size())),
               QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

LaunchSession::LaunchSession(LaunchRequest request, events::LaunchSink sink, const Clock& clock,
                             QObject* parent)
    : QObject(parent), m_req(std::move(request)), m_sink(std::move(sink)), m_clock(clock)
{}

LaunchSession::~LaunchSession()
{
    m_process.reset(); // ends the tree (ContainedProcess closes the helper's stdin)
    if (m_log)
        std::fclose(m_log);
}

bool LaunchSession::start(std::string& error)
{
    // One launch per profile: a second one would run the setup steps into the same
    // venv at the same time.
    const fs::path lockDir = m_req.dataDir.empty() ? paths::dataDir() : m_req.dataDir;
    auto lock = LaunchLock::acquire(lockDir, m_req.plan.profile);
    if (!lock) {
        error = lock.error().message;
        return false;
    }
    m_lock = std::move(*lock);
    closeAbandonedLaunches(m_req.logsRoot, lockDir, m_req.plan.profile, isoTime(m_clock.now()));
    // A ghost instance of a self-restarting UI holding the port is the classic failure:
    // say who holds it instead of launching a second one that fails to bind.
    if (m_req.port) {
        const PortStatus port = checkPort(*m_req.port);
        if (port.inUse) {
            error = port.describe() + ": another instance may still be running; stop it, or "
                                      "launch with -- --port N";
            return false;
        }
    }
    m_stepsHash = stepsHash(m_req.plan);
    const auto receipt = stepReceiptFile(m_req.dataDir, m_req.plan.profile);
    const bool runSteps =
        !m_req.plan.steps.empty() && (m_req.rerunSteps || !stepsAlreadyDone(receipt, m_stepsHash));
    // The venv folder is claimed before any step writes into it, and a folder of the
    // user's with its name stops the launch before anything runs.
    if (runSteps && !m_req.plan.venv.empty()) {
        if (auto v = claimVenv(paths::fromUtf8(m_req.plan.venv), m_req.plan.profile); !v) {
            error = v.error().message;
            return false;
        }
    }
    auto files = newLaunchFiles(m_req.logsRoot, m_req.plan.profile, m_clock);
    if (!files) {
        error = files.error().message;
        return false;
    }
    m_files = *files;
    m_log = std::fopen(paths::toUtf8(m_files.log).c_str(), "wb");
    if (!m_log) {
        error = paths::toUtf8(m_files.log) + ": cannot create the log";
        return false;
    }
    rotateLaunchLogs(m_files.log.parent_path(), m_req.keepLaunches);
    m_record.profile = m_req.plan.profile;
    m_record.workload = m_req.plan.workload;
    m_record.planHash = planHash(m_req.plan);
    m_record.started = isoTime(m_clock.now());
    m_record.log = paths::toUtf8(m_files.log.filename());
    if (m_req.plan.card) {
        m_record.gpuName = m_req.plan.card->name;
        m_record.gpuBus = m_req.plan.card->pciBus;
    }
    writeRecord();
    m_pipeline = std::make_unique<OutputPipeline>(
        m_req.matcher.get(), m_req.urlRegex, m_req.codePage,
        [this](const events::FromLaunch& e) { forward(e); }, m_log, m_req.logContext);
    m_pipeline->setLogFilter(m_req.logFilter);
    m_process = std::make_unique<ContainedProcess>();
    m_process->onOutput = [this](bool isStderr, std::string_view chunk) {
        m_pipeline->feed(isStderr, chunk);
    };
    if (!runSteps) {
        if (!m_req.plan.steps.empty())
            emitStep(stepEvent(events::StepState::Skipped, {},
                               "done before with the same steps and runtimes"));
        startWorkload();
    } else {
        m_inSteps = true;
        runNextStep();
    }
    return true;
}

void LaunchSession::forward(const events::FromLaunch& e)
{
    if (const auto* line = std::get_if<events::ConsoleLine>(&e); line && m_inSteps) {
        m_lastLines.push_back(line->text);
        if (m_lastLines.size() > kFailedStepLines)
            m_lastLines.pop_front();
    }
    m_sink(e);
}

// A step event says which step (while in the steps) and of how many.
void LaunchSession::emitStep(events::StepChanged step)
{
    step.of = int(m_req.plan.steps.size());
    if (m_inSteps) {
        step.index = int(m_step) + 1;
        step.argv = m_req.plan.steps[m_step];
    }
    m_sink(step);
}

void LaunchSession::runNextStep()
{
    if (m_step >= m_req.plan.steps.size()) {
        m_inSteps = false;
        const auto receipt = stepReceiptFile(m_req.dataDir, m_req.plan.profile);
        if (auto w = writeStepReceipt(receipt, m_stepsHash, m_req.plan.steps.size(),
                                      isoTime(m_clock.now()));
            !w)
            emitStep(stepEvent(events::StepState::Warning, {}, w.error().message));
        startWorkload();
        return;
    }
    emitStep(stepEvent(events::StepState::Started));
    m_lastLines.clear();
    disconnect(m_process.get(), &ContainedProcess::finished, this, nullptr);
    connect(m_process.get(), &ContainedProcess::finished, this, &LaunchSession::onStepFinished);
    m_process->start(
        {m_req.plan.steps[m_step], m_req.composed.env, m_req.composed.cwd, m_req.graceMs});
}

void LaunchSession::onStepFinished(const ProcessEnd& end)
{
    m_pipeline->finish();
    if (!end.ok() || m_stopping) {
        auto step =
            stepEvent(m_stopping ? events::StepState::Stopped : events::StepState::Failed, end);
        step.lastLines.assign(m_lastLines.begin(), m_lastLines.end());
        emitStep(std::move(step));
        m_record.exit = toJson(end);
        m_record.stoppedBy = end.stoppedBy;
        finish(false);
        return;
    }
    emitStep(stepEvent(events::StepState::Done, end));
    ++m_step;
    runNextStep();
}

void LaunchSession::startWorkload()
{
    if (m_stopping) {
        finish(false);
        return;
    }
    disconnect(m_process.get(), &ContainedProcess::finished, this, nullptr);
    connect(m_process.get(), &ContainedProcess::finished, this, &LaunchSession::onWorkloadFinished);
    m_process->start({m_req.composed.argv, m_req.composed.env, m_req.composed.cwd, m_req.graceMs});
    startLimits();
}

void LaunchSession::startLimits()
{
    if (m_req.deadlineMs) {
        m_deadline.setSingleShot(true);
        connect(&m_deadline, &QTimer::timeout, this, [this] {
            if (m_done)
                return;
            m_timedOut = true;
            m_process->stop();
        });
        m_deadline.start(*m_req.deadlineMs);
    }
    if (m_req.afterMainMs) {
        connect(&m_mainWatch, &QTimer::timeout, this, &LaunchSession::watchMain);
        m_mainWatch.start(100);
    }
}

// A smoke test has said its word when its first process has exited: a child it left
// running (a setsid daemon, a stuck compiler) gets afterMainMs, then the tree stops.
void LaunchSession::watchMain()
{
    if (m_mainPid == 0)
        m_mainPid = m_process->mainPid();
    if (m_mainPid == 0 || processAlive(m_mainPid))
        return;
    m_mainWatch.stop();
    QTimer::singleShot(*m_req.afterMainMs, this, [this] {
        if (m_done || !m_process->isRunning())
            return;
        m_leftoversStopped = true;
        m_process->stop();
    });
}

void LaunchSession::onWorkloadFinished(const ProcessEnd& end)
{
    m_pipeline->finish();
    m_deadline.stop();
    m_mainWatch.stop();
    ProcessEnd e = end;
    if (m_timedOut) {
        e.stoppedBy = "deadline";
        e.text = "did not finish within " + deadlineText(*m_req.deadlineMs);
    } else if (m_leftoversStopped) {
        e.text += "; the processes it left running were stopped";
    }
    std::vector<std::string> issues;
    for (const auto& m : m_pipeline->matches())
        issues.push_back(m.knownIssue);
    // A crash with a known issue in the log names both.
    if (!e.ok() && !issues.empty())
        e.text += "; the log shows known issue " + issues.front();
    m_sink(events::WorkloadExited{e, m_timedOut, m_leftoversStopped, issues});
    m_record.exit = toJson(e);
    m_record.stoppedBy = e.stoppedBy;
    finish(e.ok() && !m_timedOut);
}

void LaunchSession::finish(bool ok)
{
    if (m_done)
        return;
    m_done = true;
    m_deadline.stop();
    m_mainWatch.stop();
    m_succeeded = ok;
    m_record.ended = isoTime(m_clock.now());
    for (const auto& m : m_pipeline->matches())
        m_record.knownIssues.push_back(m.knownIssue);
    m_record.urls = m_pipeline->urls();
    m_record.lines = m_pipeline->lineCount();
    std::fflush(m_log);
    writeRecord();
    m_lock.reset();
    emit finished();
}

void LaunchSession::writeRecord()
{
    // The record is what `diag export` and the next start read; a failure to write it
    // is said in the launch's own log rather than lost.
    if (auto w = writeFileAtomic(m_files.record, toJson(m_record).dump(2) + "\n"); !w && m_log)
        std::fprintf(m_log, "stackpilot: launch record not written: %s\n",
                     w.error().message.c_str());
}

void LaunchSession::stop()
{
    m_stopping = true;
    if (m_process)
        m_process->stop();
}

void LaunchSession::kill()
{
    m_stopping = true;
    if (m_process)
        m_process->kill();
}

bool LaunchSession::isRunning() const
{
    return !m_done && m_process && m_process->isRunning();
}

} // namespace sp
