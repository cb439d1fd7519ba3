#pragma once
// Shared by the installer integration tests: a loopback server, a private prefix
// root and cache, runtimes built in the test, and a catalog file for the CLI.

#include "archive_builder.h"
#include "core/catalog/types.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "http_test_server.h"
#include "installers/installer.h"
#include "installers/sha256.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace sp::test {

using sp::qpath;
using sp::toPath;

inline Artifact artifactFor(const std::string& url, const std::string& bytes,
                            const std::string& format)
{
    Artifact a;
    a.url = url;
    a.sha256 = Sha256::ofBytes(bytes.data(), bytes.size());
    a.size = bytes.size();
    a.format = format;
    return a;
}

inline Runtime runtimeWith(const std::string& id, std::vector<Artifact> artifacts)
{
    Runtime rt;
    rt.id = id;
    rt.kind = "source";
    rt.version = "1.0";
    rt.artifacts = std::move(artifacts);
    return rt;
}

inline InstallOptions quickOptions(const std::filesystem::path& prefix,
                                   const std::filesystem::path& cache)
{
    InstallOptions o;
    o.prefixRoot = prefix;
    o.downloader.cacheDir = cache;
    o.downloader.maxTriesPerUrl = 2;
    o.downloader.backoffBase = std::chrono::milliseconds(1);
    o.downloader.sleep = [](std::chrono::milliseconds) {};
    return o;
}

// A catalog file holding `runtimes` (as the loader reads it) in `dir`.
inline void writeCatalog(const std::filesystem::path& dir, const std::vector<Runtime>& runtimes,
                         const std::string& profileId = {})
{
    using nlohmann::json;
    json rts = json::array();
    for (const auto& rt : runtimes) {
        json arts = json::array();
        for (const auto& a : rt.artifacts) {
            json j = {{"url", a.url}, {"format", a.format}, {"sha256", *a.sha256}};
            if (a.size)
                j["size"] = *a.size;
            if (a.stripComponents)
                j["strip_components"] = a.stripComponents;
            arts.push_back(j);
        }
        rts.push_back(
            {{"id", rt.id}, {"kind", rt.kind}, {"version", rt.version}, {"artifacts", arts}});
    }
    json doc = {{"schema_version", 1}, {"runtimes", rts}};
    (void)profileId;
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "test-runtimes.json") << doc.dump(2);
}

inline QString cliPath()
{
    return QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli");
}

} // namespace sp::test
