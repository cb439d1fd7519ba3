#pragma once
// What the hostile-pass tests share: the real stackpilot-cli run with a private home
// (and any planted variables), files written and read byte for byte, and a world of
// its own for `launch`: a catalog whose one workload is a shell script the test writes
// (the attack: a workload that kills its parent, prints escapes or secrets), and a
// Linux snapshot.

#include "support/poll_until.h"

#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>
#include <QThread>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sp::hostile {

namespace fs = std::filesystem;

inline QString cliPath()
{
    return QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli");
}

inline QString q(const fs::path& p)
{
    return QString::fromStdString(p.string());
}

inline std::string readAll(const fs::path& f)
{
    std::ifstream in(f, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeFile(const fs::path& f, const std::string& bytes)
{
    if (f.has_parent_path())
        fs::create_directories(f.parent_path());
    std::ofstream(f, std::ios::binary) << bytes;
}

struct Run
{
    int rc = -1; // -2: killed after the time limit (a hang); -1: died of a signal
    std::string out, err;
};

// The real binary with `env`; a run past `timeoutMs` is killed and reported as rc -2.
inline Run runCli(const QStringList& args, const QProcessEnvironment& env, int timeoutMs = 30000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(cliPath(), args);
    Run r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.rc = -2;
    } else {
        r.rc = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

using sp::test::pollUntil; // support/poll_until.h

// Whether a process runs (a zombie runs nothing).
inline bool alive(long pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line))
        return false;
    const auto close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

inline std::vector<long> readPids(const fs::path& file)
{
    std::ifstream in(file);
    std::vector<long> out;
    for (long p; in >> p;)
        out.push_back(p);
    return out;
}

// A private StackPilot home, a catalog with the workload "hostile" (/bin/sh running
// work/workload.sh) and its profile "hostile-sh", and a Linux snapshot without a GPU.
struct ShellWorld
{
    QTemporaryDir tmp{QDir::tempPath() + QStringLiteral("/hostile-XXXXXX")};
    fs::path root = fs::path(tmp.path().toStdString());
    fs::path home = root / "home";
    fs::path catalogDir = root / "catalog";
    fs::path snapshot = root / "snapshot.json";
    fs::path work = root / "work";
    fs::path script = work / "workload.sh";
    fs::path pids = work / "pids";
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();

    ShellWorld()
    {
        env.insert(QStringLiteral("STACKPILOT_HOME"), q(home));
        env.insert(QStringLiteral("STACKPILOT_DATA_DIR"),
                   QStringLiteral(STACKPILOT_BINARY_DIR "/share/stackpilot"));
        env.insert(QStringLiteral("PIDS"), q(pids));
        env.remove(QStringLiteral("STACKPILOT_RUN")); // the helper beside the CLI
    }

    // The workload runs `body`; `profile` adds fields to the profile (env, steps).
    void write(const std::string& body, const nlohmann::json& profile = nlohmann::json::object())
    {
        using nlohmann::json;
        writeFile(script, "#!/bin/sh\n" + body + "\n");
        json p = {{"id", "hostile-sh"},           {"workload", "hostile"},
                  {"status", "tested"},           {"runtimes", json::array()},
                  {"match", {{"os", {"linux"}}}}, {"references", {"https://example.org/hostile"}}};
        p.update(profile);
        const json workload = {{"id", "hostile"},
                               {"name", "Hostile workload"},
                               {"command", {"/bin/sh", script.string()}},
                               {"cwd", work.string()},
                               {"references", {"https://example.org/hostile"}}};
        const json doc = {{"schema_version", 1}, {"workloads", {workload}}, {"profiles", {p}}};
        writeFile(catalogDir / "hostile.json", doc.dump(2));
        writeFile(snapshot, R"({"schema": 1, "os": {"family": "linux"},
            "home": {"path": "/home/u", "filesystem": "ext4"}, "gpus": []})");
    }

    QStringList launchArgs(const QStringList& extra = {}) const
    {
        QStringList a{QStringLiteral("launch"),        QStringLiteral("hostile-sh"),
                      QStringLiteral("--hardware"),    q(snapshot),
                      QStringLiteral("--catalog-dir"), q(catalogDir)};
        return a + extra;
    }

    Run cli(const QStringList& args, int timeoutMs = 30000) const
    {
        return runCli(args, env, timeoutMs);
    }

    // The launch records and logs of hostile-sh.
    std::vector<fs::path> launchFiles(const std::string& extension) const
    {
        std::vector<fs::path> out;
        std::error_code ec;
        for (fs::recursive_directory_iterator it(home, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == extension &&
                it->path().parent_path().filename() == "hostile-sh")
                out.push_back(it->path());
        return out;
    }
};

} // namespace sp::hostile
