#pragma once
// What the logs area's hostile tests share: the stand-in world of tests/launch with a
// workload of the test's own, the real CLI run with a given environment, a zip read back
// with libarchive, and a launcher spawned with its stdout and stderr where the test says.

#include "launch_fixture.h"

#include <QProcess>
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <map>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace sp::test {

inline QString cliPath()
{
    return QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli");
}

// Adds the workload "hostile" running `command`, with its profile "hostile-run".
inline void addHostileWorkload(const StandinWorld& w, const std::vector<std::string>& command)
{
    using nlohmann::json;
    const json doc = {{"schema_version", 1},
                      {"workloads",
                       {{{"id", "hostile"},
                         {"name", "Hostile"},
                         {"command", command},
                         {"cwd", w.work.string()},
                         {"references", {"https://example.org/hostile"}}}}},
                      {"profiles",
                       {{{"id", "hostile-run"},
                         {"workload", "hostile"},
                         {"status", "tested"},
                         {"runtimes", json::array()},
                         {"match", {{"os", {"linux"}}}},
                         {"references", {"https://example.org/hostile"}}}}}};
    std::ofstream(w.catalogDir / "hostile.json") << doc.dump(2);
}

inline QStringList launchArgs(const StandinWorld& w, const std::string& profile)
{
    return {QStringLiteral("launch"),        QString::fromStdString(profile),
            QStringLiteral("--hardware"),    QString::fromStdString(w.snapshot.string()),
            QStringLiteral("--catalog-dir"), QString::fromStdString(w.catalogDir.string())};
}

inline fs::path homeOf(const StandinWorld& w)
{
    return w.root / "home";
}

// The CLI as a user runs it, with STACKPILOT_HOME in the world and `extraEnv` added.
struct CliResult
{
    int rc = -1;
    QByteArray out, err;
};
inline CliResult runCli(const StandinWorld& w, const QStringList& args,
                        const std::map<QString, QString>& extraEnv = {}, int timeoutMs = 120000)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("STACKPILOT_HOME"), QString::fromStdString(homeOf(w).string()));
    env.insert(QStringLiteral("STACKPILOT_RUN"),
               QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-run"));
    for (const auto& [k, v] : extraEnv)
        env.insert(k, v);
    p.setProcessEnvironment(env);
    p.start(cliPath(), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-2, {}, "timed out"};
    }
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

inline std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// The launch logs of `profile` under the world's home.
inline std::vector<fs::path> launchLogs(const StandinWorld& w, const std::string& profile)
{
    std::vector<fs::path> out;
    for (const auto& e : fs::recursive_directory_iterator(homeOf(w)))
        if (e.path().extension() == ".log" && e.path().parent_path().filename() == profile)
            out.push_back(e.path());
    return out;
}

// Every entry of a zip, by name.
inline std::map<std::string, std::string> unzipAll(const std::string& zip)
{
    std::map<std::string, std::string> out;
    archive* a = archive_read_new();
    archive_read_support_format_zip(a);
    if (archive_read_open_memory(a, zip.data(), zip.size()) != ARCHIVE_OK) {
        archive_read_free(a);
        return out;
    }
    archive_entry* e = nullptr;
    while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
        std::string data;
        char buf[65536];
        la_ssize_t n = 0;
        while ((n = archive_read_data(a, buf, sizeof buf)) > 0)
            data.append(buf, static_cast<std::size_t>(n));
        out[archive_entry_pathname(e)] = std::move(data);
    }
    archive_read_free(a);
    return out;
}

// A launcher spawned with stdout and stderr both on `fd` (`2>&1`), its own environment
// holding the world's home; killed and reaped when a check fails before it ended.
struct SpawnedCli
{
    pid_t pid = 0;
    SpawnedCli(const StandinWorld& w, const QStringList& args, int fd)
    {
        std::vector<std::string> a = {cliPath().toStdString()};
        for (const auto& s : args)
            a.push_back(s.toStdString());
        std::vector<char*> argv;
        for (auto& s : a)
            argv.push_back(s.data());
        argv.push_back(nullptr);
        qputenv("STACKPILOT_HOME", QByteArray::fromStdString(homeOf(w).string()));
        qputenv("STACKPILOT_RUN", STACKPILOT_BINARY_DIR "/bin/stackpilot-run");
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, fd, 1);
        posix_spawn_file_actions_adddup2(&fa, fd, 2);
        if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) != 0)
            pid = 0;
        posix_spawn_file_actions_destroy(&fa);
    }
    ~SpawnedCli()
    {
        if (pid > 0 && ::kill(pid, SIGKILL) == 0)
            ::waitpid(pid, nullptr, 0);
    }
    // Whether it ended within `ms` (reaped then).
    bool endsWithin(int ms)
    {
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (std::chrono::steady_clock::now() < until) {
            if (::waitpid(pid, nullptr, WNOHANG) == pid) {
                pid = 0;
                return true;
            }
            QThread::msleep(20);
        }
        return false;
    }
};

} // namespace sp::test
