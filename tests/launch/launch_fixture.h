#pragma once
// The stand-in workload's catalog, snapshot and work folder, written by each test: a
// workload running tests/launch/standin_workload.cpp, one profile per behaviour, and
// a Linux snapshot whose home is on NFS (so caches are relocated).

#include "core/paths.h"
#include "core/snapshot.h"

#include <QFile>
#include <QTemporaryDir>
#include <QThread>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace sp::test {

namespace fs = std::filesystem;

// A real failure line from a public report (tests/logmatch/logs/ keeps the source).
inline const char* kQuotedFailure =
    STACKPILOT_SOURCE_DIR "/tests/logmatch/logs/fail-pytorch-conv2d-aperture-violation.log:6";

struct StandinWorld
{
    QTemporaryDir tmp;
    fs::path root = fs::path(tmp.path().toStdString());
    fs::path catalogDir = root / "catalog";
    fs::path snapshot = root / "snapshot.json";
    fs::path work = root / "work";

    fs::path envFile() const { return work / "env.bin"; }
    fs::path pidsFile() const { return work / "pids"; }
    fs::path stepsFile() const { return work / "steps.txt"; }

    // Profiles "standin-crash", "standin-exit-early", "standin-serve", each with the
    // given setup steps.
    void write(int childMs, const std::vector<std::vector<std::string>>& steps = {})
    {
        fs::create_directories(catalogDir);
        fs::create_directories(work);
        using nlohmann::json;
        json profiles = json::array();
        for (const char* mode : {"crash", "exit-early", "serve"}) {
            profiles.push_back({{"id", std::string("standin-") + mode},
                                {"workload", "standin"},
                                {"status", "tested"},
                                {"runtimes", json::array()},
                                {"match", {{"os", {"linux"}}}},
                                {"args", {"--mode", mode}},
                                {"env", {{"STANDIN_PROFILE_VAR", "from-profile"}}},
                                {"steps", steps},
                                {"references", {"https://example.org/standin"}}});
        }
        const json workload = {{"id", "standin"},
                               {"name", "Stand-in UI"},
                               {"command",
                                {STANDIN_WORKLOAD, "--env-out", envFile().string(), "--pids-out",
                                 pidsFile().string(), "--quote", kQuotedFailure, "--cache-var",
                                 "TORCH_HOME", "--child-ms", std::to_string(childMs)}},
                               {"cwd", work.string()},
                               {"references", {"https://example.org/standin"}}};
        const json doc = {{"schema_version", 1}, {"workloads", {workload}}, {"profiles", profiles}};
        std::ofstream(catalogDir / "standin.json") << doc.dump(2);
        HardwareSnapshot s;
        s.os.family = "linux";
        s.home.path = "/home/u";
        s.home.filesystem = "nfs4";
        s.home.network = true;
        std::ofstream(snapshot) << toJson(s).dump(2);
    }

    // The environment the stand-in saw.
    std::map<std::string, std::string> seenEnv() const
    {
        std::ifstream in(envFile(), std::ios::binary);
        std::map<std::string, std::string> env;
        std::string entry;
        while (std::getline(in, entry, '\0')) {
            const auto eq = entry.find('=');
            env[entry.substr(0, eq)] = eq == std::string::npos ? "" : entry.substr(eq + 1);
        }
        return env;
    }

    // main, first child, setsid child; empty until the stand-in wrote them.
    std::vector<long> pids() const
    {
        std::ifstream in(pidsFile());
        std::vector<long> out;
        for (long p; in >> p;)
            out.push_back(p);
        return out;
    }

    bool waitForPids(int ms = 10000) const
    {
        for (int waited = 0; waited < ms; waited += 20) {
            if (pids().size() == 3)
                return true;
            QThread::msleep(20);
        }
        return false;
    }
};

// Whether a process is alive (a zombie counts as gone: it runs nothing).
inline bool alive(long pid)
{
    if (::kill(static_cast<pid_t>(pid), 0) != 0)
        return false;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    return close == std::string::npos || line.size() < close + 2 || line[close + 2] != 'Z';
}

// Waits until none of `pids` is alive; false when some still are after `ms`.
inline bool allGone(const std::vector<long>& pids, int ms)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    for (;;) {
        bool any = false;
        for (long p : pids)
            any = any || alive(p);
        if (!any)
            return true;
        if (std::chrono::steady_clock::now() > until)
            return false;
        QThread::msleep(20);
    }
}

} // namespace sp::test
