#pragma once
// One launch of a workload: its setup steps (once per step receipt), then the
// workload, each as a contained process tree, with the output going through the
// OutputPipeline into the log, the matcher and the subscribers. The CLI and the window
// both drive this object; it runs on whichever thread owns it and never blocks it.
//
// Order: the profile's launch lock (a second launch of it fails here, naming the
// holder) → log files → port check → steps (or "skipped") → workload → exit event and
// the launch record. A failed step stops the launch: its event names the step, its
// exit and its last lines, and no step receipt is written.

#include "core/clock.h"
#include "core/launch/contained_process.h"
#include "core/launch/env_composer.h"
#include "core/launch/launch_lock.h"
#include "core/launch/launch_log.h"
#include "core/launch/output.h"
#include "core/select/plan.h"

#include <QObject>
#include <QTimer>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>

namespace sp {

struct LaunchRequest
{
    Plan plan;
    ComposedLaunch composed;
    std::string urlRegex; // the workload's
    std::filesystem::path logsRoot;
    std::filesystem::path dataDir; // step receipts under <data>/steps
    int graceMs = 5000;
    int keepLaunches = 20;
    unsigned codePage = 0;
    std::shared_ptr<const logmatch::LogMatcher> matcher; // null: no live diagnosis
    // What the machine tells the matcher before the log does: its OS and the plan's GPU
    // runtimes (a known issue's cause may need them, docs/CATALOG.md "Causes").
    logmatch::LogContext logContext;
    bool rerunSteps = false; // repair: ignore the receipt
    std::optional<int> port; // checked before the launch
    // What the log file gets of each line: the front ends redact the secrets of the
    // environment and of the settings here (app/common/diag, launchLogFilter), so no
    // log on disk holds them. Unset: lines as they are.
    std::shared_ptr<LogFilter> logFilter;
    // A smoke test's limits (docs/VERIFY.md); unset, a workload runs as long as it likes.
    // `deadlineMs`: from the workload's start, its whole tree is stopped (graceMs, then
    // killed) and the launch fails as timed out. `afterMainMs`: once the first process
    // has exited, what it left running gets this long, then is stopped; the end is the
    // first process's.
    std::optional<int> deadlineMs;
    std::optional<int> afterMainMs;
};

// The plan's SHA-256, for the launch record.
std::string planHash(const Plan& plan);

class LaunchSession : public QObject
{
    Q_OBJECT
public:
    LaunchSession(LaunchRequest request, events::LaunchSink sink,
                  const Clock& clock = Clock::system(), QObject* parent = nullptr);
    ~LaunchSession() override;

    // Opens the log files and begins; false (with `error`) when nothing could start,
    // e.g. the port is taken. Everything after that is reported through events and
    // `finished`.
    bool start(std::string& error);
    void stop();
    void kill();
    bool isRunning() const;

    const LaunchRecord& record() const { return m_record; }
    const LaunchLogFiles& files() const { return m_files; }
    // Whether the launch ended well: steps done and the workload exited with 0.
    bool succeeded() const { return m_succeeded; }
    // Whether the workload ran past request.deadlineMs and was stopped for it.
    bool timedOut() const { return m_timedOut; }

signals:
    void finished();

private:
    void runNextStep();
    void onStepFinished(const ProcessEnd& end);
    void startWorkload();
    void onWorkloadFinished(const ProcessEnd& end);
    void emitStep(events::StepChanged step);
    void finish(bool ok);
    void writeRecord();
    void forward(const events::FromLaunch& e);
    void startLimits();
    void watchMain();

    LaunchRequest m_req;
    events::LaunchSink m_sink;
    std::unique_ptr<LaunchLock> m_lock; // held until the launch has finished
    const Clock& m_clock;
    LaunchLogFiles m_files;
    std::FILE* m_log = nullptr;
    std::unique_ptr<OutputPipeline> m_pipeline;
    std::unique_ptr<ContainedProcess> m_process;
    LaunchRecord m_record;
    std::string m_stepsHash;
    std::size_t m_step = 0;
    bool m_inSteps = false;
    bool m_stopping = false;
    bool m_succeeded = false;
    bool m_done = false;
    bool m_timedOut = false;
    bool m_leftoversStopped = false;
    long long m_mainPid = 0;
    QTimer m_deadline;                   // request.deadlineMs
    QTimer m_mainWatch;                  // polls the first process while afterMainMs applies
    std::deque<std::string> m_lastLines; // for a failed step's report
};

} // namespace sp
