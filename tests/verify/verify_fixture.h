#pragma once
// A world for the self-verifying stacks: a loopback server serving one runtime archive
// (and a 404 for another), a fixture catalog with four profiles of one workload, Linux
// snapshots before and after a driver update, and a private STACKPILOT_HOME.
//
// Profiles of workload "vwork", best ranked first:
//   v-a  tested: its runtime's artifact is gone (404): the preflight skips it;
//   v-b  community, preference 1: installs, but its smoke test prints the fixture failure
//        line (known issue v-fixture-crash) and exits 1;
//   v-c  community: its smoke test passes, 0.2 s;
//   v-d  community: its smoke test passes, 0.1 s (bench's second stack).

#include "archive_builder.h"
#include "http_test_server.h"
#include "installers/sha256.h"
#include "support/cli_runner.h"

#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace sp::test {

class VerifyWorld
{
public:
    QTemporaryDir tmp;
    std::filesystem::path root = std::filesystem::path(tmp.path().toStdString());
    std::filesystem::path catalogDir = root / "catalog";
    std::filesystem::path home = root / "home";
    HttpTestServer server;
    std::string archive;

    VerifyWorld()
    {
        qputenv("STACKPILOT_HOME", QByteArray::fromStdString(home.string()));
        qputenv("STACKPILOT_RUN", STACKPILOT_BINARY_DIR "/bin/stackpilot-run");
        archive = buildArchive({TestEntry::file("rt/bin/tool.bin", mixedBytes(200000, 3)),
                                TestEntry::file("rt/README", "fixture runtime\n")},
                               "tar.gz");
        server.addBlob("/rt/ok.tar.gz", archive);
        if (!server.start())
            qFatal("test server: %s", server.error().c_str());
        writeCatalog();
        writeSnapshot("snap.json", "6.8.0");
        writeSnapshot("snap-new-driver.json", "6.9.0");
    }

    static nlohmann::json smoke(const std::string& shell)
    {
        return nlohmann::json::array({"sh", "-c", shell});
    }

    nlohmann::json runtime(const std::string& id, const std::string& path) const
    {
        return {{"id", id},
                {"kind", "torch-wheels"},
                {"version", "1.0"},
                {"os", {"linux"}},
                {"artifacts",
                 {{{"url", server.url(path)},
                   {"sha256", Sha256::ofBytes(archive.data(), archive.size())},
                   {"size", archive.size()},
                   {"format", "tar.gz"},
                   {"strip_components", 1}}}},
                {"references", {"https://example.org/verify-fixture"}}};
    }

    static nlohmann::json profile(const char* id, const char* status, int preference,
                                  const char* runtime, nlohmann::json verify)
    {
        return {{"id", id},
                {"workload", "vwork"},
                {"status", status},
                {"preference", preference},
                {"runtimes", {runtime}},
                {"match", {{"os", {"linux"}}}},
                {"verify", std::move(verify)},
                {"references", {"https://example.org/verify-fixture"}},
                {"notes", std::string("Fixture profile ") + id + "."}};
    }

    void writeCatalog()
    {
        using nlohmann::json;
        std::filesystem::create_directories(catalogDir);
        const json doc = {
            {"schema_version", 1},
            {"runtimes",
             {runtime("v-rt-gone", "/rt/gone.tar.gz"), runtime("v-rt-ok", "/rt/ok.tar.gz")}},
            {"workloads",
             {{{"id", "vwork"},
               {"name", "Verify stand-in"},
               {"command", {"sh", "-c", "echo the workload ran"}},
               {"references", {"https://example.org/verify-fixture"}}}}},
            {"profiles",
             {profile("v-a", "tested", 0, "v-rt-gone", smoke(R"(echo '{"ok": true}')")),
              profile(
                  "v-b", "community", 1, "v-rt-ok",
                  smoke(
                      R"(echo 'fixture kernel failed at launch'; echo '{"ok": false, "error": "HIP error"}'; exit 1)")),
              profile(
                  "v-c", "community", 0, "v-rt-ok",
                  smoke(
                      R"(echo '{"ok": true, "device": "Stand-in GPU", "arch": "gfx1100", "seconds": 0.2}')")),
              profile(
                  "v-d", "community", 0, "v-rt-ok",
                  smoke(
                      R"(echo '{"ok": true, "device": "Stand-in GPU", "arch": "gfx1100", "seconds": 0.1}')"))}},
            {"known_issues",
             {{{"id", "v-fixture-crash"},
               {"title", "The fixture kernel failed"},
               {"applies", {{"os", {"linux"}}}},
               {"signatures", {"fixture kernel failed"}},
               {"remedy", {{"action", "info"}, {"text", "Use another stack."}}},
               {"references", {"https://example.org/verify-fixture"}}}}}};
        std::ofstream(catalogDir / "verify.json") << doc.dump(2);
    }

    void writeSnapshot(const char* name, const char* driver) const
    {
        const nlohmann::json s = {{"schema", 1},
                                  {"os", {{"family", "linux"}, {"version", "6.8"}}},
                                  {"home", {{"path", "/home/u"}, {"filesystem", "ext4"}}},
                                  {"gpus",
                                   {{{"vendor", "amd"},
                                     {"name", "AMD Radeon RX 7900 XTX"},
                                     {"pci_id", "1002:744c"},
                                     {"pci_revision", "c8"},
                                     {"gfx", "gfx1100"},
                                     {"vram_mb", 24576},
                                     {"integrated", false},
                                     {"driver_version", driver}}}},
                                  {"runtimes", nlohmann::json::array()},
                                  {"probes", nlohmann::json::array()}};
        std::ofstream(root / name) << s.dump(2);
    }

    QStringList common(const char* snapshot = "snap.json") const
    {
        return {QStringLiteral("--catalog-dir"), QString::fromStdString(catalogDir.string()),
                QStringLiteral("--hardware"), QString::fromStdString((root / snapshot).string())};
    }

    CliRun cli(QStringList args, const char* snapshot = "snap.json") const
    {
        // The real process: the whole path as a user runs it, with its own child processes
        // (smoke tests through stackpilot-run, the launched workload) and their deadlines.
        return runCliBinary(args + common(snapshot), 120000);
    }
};

// The JSON lines of `--json` output.
inline std::vector<nlohmann::json> jsonLines(const std::string& out)
{
    std::vector<nlohmann::json> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line.front() == '{')
            lines.push_back(nlohmann::json::parse(line, nullptr, false));
    return lines;
}

// The events named `name`, in order.
inline std::vector<nlohmann::json> events(const std::vector<nlohmann::json>& lines,
                                          const std::string& name)
{
    std::vector<nlohmann::json> out;
    for (const auto& l : lines)
        if (l.is_object() && l.value("event", "") == name)
            out.push_back(l);
    return out;
}

} // namespace sp::test
