#pragma once
// The hostile smoke tests' world: the self-verifying stacks' fixture (a private
// STACKPILOT_HOME, an RX 7900 XTX snapshot, stackpilot-run) with a catalog of smoke tests
// written as the attacks of issue 35. Workload "hwork", profiles best ranked first:
//   h-sleep   preference 3: its smoke test sleeps (its pid in sleep.pid), deadline 2 s;
//   h-ok      preference 2: passes on the planned card;
//   h-flaky   preference 1: passes, and fails once the file "broken" exists;
//   h-leaver  preference 0: passes, leaving a setsid child running (its pid in leaver.pid);
//   h-big     preference 0: passes with a 64 KiB result line;
//   h-h100    preference -1: claims an NVIDIA H100 (sm_90);
//   h-igpu    preference -1: claims the Radeon 780M iGPU (gfx1103);
//   h-quiet   preference -1: passes without naming its device or arch.
// Workload "otherwork" has one profile, o-other, which rollback of hwork must never take.

#include "verify/verify_fixture.h"

#include <QElapsedTimer>
#include <cerrno>
#include <csignal>
#include <fstream>
#include <thread>

namespace sp::test {

class HostileVerifyWorld : public VerifyWorld
{
public:
    std::filesystem::path hostileCatalog = root / "hostile-catalog";

    HostileVerifyWorld() { writeHostileCatalog(); }

    static nlohmann::json hprofile(const char* id, const char* workload, int preference,
                                   const std::string& shell)
    {
        return {{"id", id},
                {"workload", workload},
                {"status", "community"},
                {"preference", preference},
                {"runtimes", nlohmann::json::array()},
                {"match", {{"os", {"linux"}}}},
                {"verify", smoke(shell)},
                {"references", {"https://example.org/hostile-verify"}},
                {"notes", std::string("Hostile fixture profile ") + id + "."}};
    }

    static std::string okLine(const std::string& device, const std::string& arch)
    {
        return R"(echo '{"ok": true, "device": ")" + device + R"(", "arch": ")" + arch +
               R"(", "seconds": 0.1}')";
    }

    std::string at(const char* name) const { return (root / name).string(); }

    void writeHostileCatalog()
    {
        using nlohmann::json;
        std::filesystem::create_directories(hostileCatalog);
        const std::string ok = okLine("AMD Radeon RX 7900 XTX", "gfx1100");
        json sleeper =
            hprofile("h-sleep", "hwork", 3, "echo $$ > " + at("sleep.pid") + "; exec sleep 600");
        sleeper["verify_timeout_s"] = 2;
        // Two 32,700-byte strings: a result line just under 64 KiB, still read whole.
        const std::string big =
            R"(x=$(head -c 32700 /dev/zero | tr '\0' a); printf '{"ok": true, "arch": )"
            R"("gfx1100", "error": "%s", "junk": "%s"}\n' "$x" "$x")";
        const json doc = {
            {"schema_version", 1},
            {"workloads",
             {{{"id", "hwork"},
               {"name", "Hostile smoke tests"},
               {"command", {"sh", "-c", "echo the workload ran"}},
               {"references", {"https://example.org/hostile-verify"}}},
              {{"id", "otherwork"},
               {"name", "Another workload"},
               {"command", {"sh", "-c", "echo the other workload ran"}},
               {"references", {"https://example.org/hostile-verify"}}}}},
            {"profiles",
             {sleeper, hprofile("h-ok", "hwork", 2, ok),
              hprofile("h-flaky", "hwork", 1,
                       "if test -e " + at("broken") +
                           R"(; then echo '{"ok": false, "error": "broken now"}'; exit 1; fi; )" +
                           ok),
              hprofile("h-leaver", "hwork", 0,
                       "setsid sleep 600 & echo $! > " + at("leaver.pid") + "; " + ok),
              hprofile("h-big", "hwork", 0, big),
              hprofile("h-h100", "hwork", -1, okLine("NVIDIA H100 80GB HBM3", "sm_90")),
              hprofile("h-igpu", "hwork", -1, okLine("AMD Radeon 780M Graphics", "gfx1103")),
              hprofile("h-quiet", "hwork", -1, R"(echo '{"ok": true, "seconds": 0.1}')"),
              hprofile("o-other", "otherwork", 0, ok)}}};
        std::ofstream(hostileCatalog / "hostile.json") << doc.dump(2);
    }

    QStringList where() const
    {
        return {QStringLiteral("--catalog-dir"), QString::fromStdString(hostileCatalog.string()),
                QStringLiteral("--hardware"),
                QString::fromStdString((root / "snap.json").string())};
    }

    // The real CLI with the hostile catalog; `seconds` receives how long it ran.
    CliRun hcli(const QStringList& args, double* seconds = nullptr, int timeoutMs = 120000) const
    {
        QElapsedTimer t;
        t.start();
        // The real process: smoke tests that hang past their deadline or leave a child
        // running are the attacks, and what the CLI's process tree does with them is checked.
        CliRun r = runCliBinary(args + where(), timeoutMs);
        if (seconds)
            *seconds = double(t.elapsed()) / 1000.0;
        return r;
    }

    CliRun verifyStack(const char* profile, double* seconds = nullptr) const
    {
        return hcli(
            {QStringLiteral("verify-stack"), QString::fromUtf8(profile), QStringLiteral("--json")},
            seconds);
    }

    nlohmann::json evidence() const
    {
        std::ifstream in(home / "data" / "evidence.json");
        return nlohmann::json::parse(in, nullptr, false);
    }

    // The pid written to `file`, or 0.
    long long pidIn(const char* file) const
    {
        long long pid = 0;
        std::ifstream(root / file) >> pid;
        return pid;
    }

    // Whether `pid` is gone within `ms` (a stopped child may take a moment to be reaped).
    static bool goneWithin(long long pid, int ms)
    {
        for (int waited = 0; waited <= ms; waited += 50) {
            if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return false;
    }
};

inline nlohmann::json lastVerified(const CliRun& r)
{
    const auto v = events(jsonLines(r.out), "verified");
    return v.empty() ? nlohmann::json::object() : v.back();
}

} // namespace sp::test
