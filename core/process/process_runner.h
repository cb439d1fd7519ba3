#pragma once
// Runs child processes with a deadline and says how each ended: finished (exit code),
// did not start, timed out (killed), or crashed (signal / NTSTATUS in words). Children
// run side by side, each with its own deadline, with output captured to files so a
// talkative child never blocks on a full pipe. The probe runner uses it; the launcher
// will use it for setup steps.

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>
#include <string>
#include <vector>

class QProcess;

namespace sp {

struct ProcessOutcome
{
    enum Kind
    {
        Finished,
        NotStarted,
        TimedOut,
        Crashed
    } kind = Finished;
    int exitCode = 0;
    std::string stdoutText; // at most 4 MiB each: a runaway child cannot eat our memory
    std::string stderrText;
    std::string why; // for NotStarted and Crashed ("SIGSEGV (11)", "exception 0xC0000005 ...")
    long long elapsedMs = 0;
};

// The environment without the variables that hide GPUs or change what a runtime
// reports (HIP/ROCR/CUDA_VISIBLE_DEVICES, GPU_DEVICE_ORDINAL, HSA_OVERRIDE_GFX_VERSION*).
QProcessEnvironment withoutDeviceMasking(QProcessEnvironment env);
bool isDeviceMaskingVariable(const QString& name);

class ProcessBatch
{
public:
    ProcessBatch(int timeoutMs, QProcessEnvironment env);
    ~ProcessBatch();
    ProcessBatch(const ProcessBatch&) = delete;
    ProcessBatch& operator=(const ProcessBatch&) = delete;

    // Starts a child now; returns its index.
    std::size_t start(const QString& program, const QStringList& args);
    // Waits for every child (killing those past their deadline); outcomes in start order.
    std::vector<ProcessOutcome> finish();

private:
    struct Child;
    ProcessOutcome finishOne(Child& c);

    int m_timeoutMs;
    QProcessEnvironment m_env;
    QTemporaryDir m_dir;
    std::vector<std::unique_ptr<Child>> m_children;
};

// One child with a deadline.
ProcessOutcome runProcess(const QString& program, const QStringList& args, int timeoutMs,
                          const QProcessEnvironment& env);

} // namespace sp
