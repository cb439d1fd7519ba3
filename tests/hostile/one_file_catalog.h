#pragma once
// A catalog folder (for --catalog-dir) with one workload "wl", one profile and one
// runtime that downloads one file: what the hostile tests hand the real CLI.

#include "feed/feed_fixture.h"
#include "installers/sha256.h"

#include <nlohmann/json.hpp>

namespace sp::test {

inline void writeOneFileCatalog(const fs::path& cat, const std::string& profile,
                                const std::string& runtime, const std::string& url,
                                const std::string& bytes)
{
    using nlohmann::json;
    fs::create_directories(cat);
    const json artifact{{"url", url},
                        {"format", "file"},
                        {"file_name", "a.bin"},
                        {"sha256", Sha256::ofBytes(bytes.data(), bytes.size())},
                        {"size", bytes.size()}};
    const json rt{{"id", runtime}, {"kind", "source"}, {"version", "1"}, {"artifacts", {artifact}}};
    writeAll(cat / "runtimes.json", json{{"schema_version", 1}, {"runtimes", {rt}}}.dump(2));
    writeAll(cat / "workloads.json",
             json{{"schema_version", 1},
                  {"workloads", {{{"id", "wl"}, {"name", "W"}, {"command", {"true"}}}}}}
                 .dump(2));
    const json p{{"id", profile},
                 {"workload", "wl"},
                 {"status", "community"},
                 {"match", {{"os", {"linux", "windows"}}}},
                 {"runtimes", {runtime}}};
    writeAll(cat / "profiles.json", json{{"schema_version", 1}, {"profiles", {p}}}.dump(2));
}

} // namespace sp::test
