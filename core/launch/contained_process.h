#pragma once
// One process tree run through stackpilot-run (app/reaper/reaper.h): QProcess starts
// the helper with the composed environment and working folder; the helper starts the
// program as a contained tree and outlives it only as long as any process of the tree
// lives. Stop and kill go to the helper over its stdin; when StackPilot dies the pipe
// closes and the helper ends the tree by itself. When the helper is killed while the
// tree lives, the tree is killed here (its cgroup, else its session) and the end says
// "was stopped: its containment helper (stackpilot-run) was killed" (each end's text
// reads after "The workload ").

#include "core/launch/env_composer.h"

#include <QObject>
#include <QProcess>
#include <QTemporaryDir>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sp {

// How a contained tree ended, as the helper reported it.
struct ProcessEnd
{
    enum Kind
    {
        Exited,   // value = exit code
        Signaled, // value = signal number (Linux)
        NtStatus, // value = the NTSTATUS (Windows)
        NotStarted
    } kind = Exited;
    long long value = 0;
    long long mainPid = 0;
    // "stop" | "kill" | "launcher-gone" | "helper-killed" | "none"
    std::string stoppedBy = "none";
    std::string text;           // "exited with code 3", "killed by SIGSEGV (11)", ...
    long long mainEndedMs = -1; // since the helper started; -1 when unknown
    long long treeEndedMs = -1;

    bool ok() const { return kind == Exited && value == 0; }
};

// {"code": 3} | {"signal": 11} | {"ntstatus": 3221225477}, plus "text".
nlohmann::json toJson(const ProcessEnd& e);
// The words for an end: "exited with code 3", "killed by SIGSEGV (11)",
// "crashed: 0xC0000005 access violation", "did not start: ...".
std::string describeEnd(ProcessEnd::Kind kind, long long value);

// stackpilot-run next to this executable; STACKPILOT_RUN overrides (tests).
QString containmentHelper();

class ContainedProcess : public QObject
{
    Q_OBJECT
public:
    struct Spec
    {
        std::vector<std::string> argv;
        EnvMap env;
        std::string cwd;
        int graceMs = 5000;
        // A cgroup v2 of its own where one can be made (Linux; false: the fallback, for
        // tests).
        bool cgroup = true;
    };

    explicit ContainedProcess(QObject* parent = nullptr);
    ~ContainedProcess() override;

    // Called with each chunk of output as it arrives (stdout: isStderr false).
    std::function<void(bool isStderr, std::string_view chunk)> onOutput;

    // Starts asynchronously; `finished` follows (NotStarted when the helper or the
    // program could not start).
    void start(const Spec& spec);
    void stop(); // graceful, then forced after the grace period
    void kill();
    bool isRunning() const;
    // The helper's pid (the tree's root); 0 when not running.
    long long helperPid() const;
    // The workload's first process, as the helper reported it once started; 0 before.
    long long mainPid() const;

signals:
    void started();
    void finished(const sp::ProcessEnd& end);

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void drain();
    ProcessEnd readStatus(int exitCode, QProcess::ExitStatus status) const;

    QProcess m_process;
    QTemporaryDir m_dir;
    std::filesystem::path m_statusFile;
    bool m_startFailed = false;
    bool m_emitted = false;
};

} // namespace sp

Q_DECLARE_METATYPE(sp::ProcessEnd)
