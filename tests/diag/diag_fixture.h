#pragma once
// Shared by the diagnostics tests and the bench: a private user (HOME, USER and
// STACKPILOT_HOME under a temporary folder), runtimes installed by the real installer
// from an offline folder, launches recorded through core/launch/launch_log, and a zip
// read back entry by entry with libarchive.

#include "archive_builder.h"
#include "core/launch/launch_log.h"
#include "core/paths.h"
#include "installers/installer.h"
#include "installers/sha256.h"

#include <QByteArray>
#include <QTemporaryDir>
#include <archive.h>
#include <archive_entry.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace sp::test {

// Every entry of a zip, by name, read with libarchive.
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
        char buf[1 << 16];
        la_ssize_t n;
        while ((n = archive_read_data(a, buf, sizeof buf)) > 0)
            data.append(buf, static_cast<std::size_t>(n));
        out[archive_entry_pathname(e)] = std::move(data);
    }
    archive_read_free(a);
    return out;
}

inline std::string readAll(const std::filesystem::path& f)
{
    std::ifstream in(f, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeText(const std::filesystem::path& f, const std::string& text)
{
    std::filesystem::create_directories(f.parent_path());
    std::ofstream(f, std::ios::binary) << text;
}

// A user named `name` with a home under a temporary folder; StackPilot's files live in
// <home>/.stackpilot. Restores the environment when it goes.
class TestUser
{
public:
    explicit TestUser(const std::string& name) : m_name(name)
    {
        for (const char* var : {"HOME", "USER", "LOGNAME", "USERNAME", "STACKPILOT_HOME"})
            m_saved.emplace_back(var, qgetenv(var));
        m_home = std::filesystem::path(m_tmp.path().toStdString()) / "home" / name;
        std::filesystem::create_directories(m_home);
        qputenv("HOME", QByteArray::fromStdString(m_home.string()));
        qputenv("USER", QByteArray::fromStdString(name));
        qputenv("LOGNAME", QByteArray::fromStdString(name));
        qunsetenv("USERNAME");
        qputenv("STACKPILOT_HOME", QByteArray::fromStdString((m_home / ".stackpilot").string()));
    }
    ~TestUser()
    {
        for (const auto& [var, value] : m_saved) {
            if (value.isNull())
                qunsetenv(var);
            else
                qputenv(var, value);
        }
    }
    const std::filesystem::path& home() const { return m_home; }
    const std::string& name() const { return m_name; }

private:
    QTemporaryDir m_tmp;
    std::string m_name;
    std::filesystem::path m_home;
    std::vector<std::pair<const char*, QByteArray>> m_saved;
};

// Installs `id` with the real installer from an offline folder holding `archive` (tar.gz)
// under the last segment of `url`.
inline Expected<InstallResult> installOffline(const std::string& id, const std::string& url,
                                              const std::string& archive,
                                              const std::filesystem::path& offlineDir)
{
    Artifact a;
    a.url = url;
    a.sha256 = Sha256::ofBytes(archive.data(), archive.size());
    a.size = archive.size();
    a.format = "tar.gz";
    writeText(offlineDir / url.substr(url.rfind('/') + 1), archive);
    Runtime rt;
    rt.id = id;
    rt.kind = "tool";
    rt.version = "1.0";
    rt.artifacts = {a};
    InstallOptions o;
    o.offlineDir = offlineDir;
    o.allowNetwork = false;
    return Installer(std::move(o)).install(rt);
}

// A finished launch of `profile` that printed `log`, recorded as LaunchSession does.
inline LaunchLogFiles recordLaunch(const std::string& profile, const std::string& workload,
                                   const std::string& log, const Clock& clock,
                                   std::vector<std::string> knownIssues = {})
{
    auto files = newLaunchFiles(paths::logDir(), profile, clock);
    writeText(files->log, log);
    LaunchRecord r;
    r.profile = profile;
    r.workload = workload;
    r.started = isoTime(clock.now());
    r.ended = r.started;
    r.exit = {{"code", 1}, {"text", "exited with code 1"}};
    r.knownIssues = std::move(knownIssues);
    r.log = paths::toUtf8(files->log.filename());
    writeText(files->record, toJson(r).dump(2));
    return *files;
}

// A Linux machine with an RX 6750 XT (gfx1031), its home at `home`.
inline std::string linuxSnapshotJson(const std::string& home)
{
    nlohmann::json j = {
        {"schema", 1},
        {"os", {{"family", "linux"}, {"version", "Debian 12"}}},
        {"home", {{"path", home}, {"filesystem", "ext4"}}},
        {"gpus",
         {{{"vendor", "amd"},
           {"name", "AMD Radeon RX 6750 XT"},
           {"pci_id", "1002:73df"},
           {"pci_bus", "0000:03:00.0"},
           {"gfx", "gfx1031"},
           {"vram_mb", 12288},
           {"integrated", false},
           {"sources", {"kfd", "drm"}}}}},
        {"runtimes", nlohmann::json::array()},
        {"probes",
         {{{"name", "rocminfo"}, {"status", "ok"}, {"detail", "found at " + home + "/rocm/bin"}}}}};
    return j.dump(2);
}

} // namespace sp::test
