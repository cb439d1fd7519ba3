#pragma once
// `stackpilot-cli doctor` (and the window's preflight): checks that find what breaks
// a GPU stack before it is launched, each as a finding with a fix a user can act on.
//
// Every check reads only its DoctorInput: the snapshot, the catalog, the plan, the
// environment, a filesystem root for /dev and /opt, the user's ids and the free-space
// and port probes are all injected, so tests run the real checks on fixtures.

#include "core/catalog/types.h"
#include "core/launch/port_check.h"
#include "core/select/plan.h"
#include "core/snapshot.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sp::doctor {

struct Finding
{
    std::string id;       // "kfd-permissions", "driver:<known issue id>", ...
    std::string severity; // "error" | "warning" | "info"
    std::string text;     // what is wrong
    std::string fix;      // one concrete sentence
};

using FreeSpaceFn =
    std::function<std::optional<std::uint64_t>(const std::filesystem::path& folder)>;
using PortCheckFn = std::function<PortStatus(int port)>;

struct DoctorInput
{
    const HardwareSnapshot* snapshot = nullptr;
    const Catalog* catalog = nullptr;
    const Plan* plan = nullptr;        // null: no workload was planned
    std::filesystem::path dataDir;     // StackPilot's data folder (the install path)
    std::filesystem::path runtimesDir; // <data>/runtimes: the prefix root
    std::map<std::string, std::string> env;
    std::string fsRoot = "/"; // where /dev and /opt are looked up
    unsigned uid = 0;
    std::vector<unsigned> gids;
    FreeSpaceFn freeSpace;
    PortCheckFn portCheck;
    // False when the snapshot comes from another machine (`--hardware` with another OS):
    // the checks that look at this host (devices, PATH, ports, disk) are then skipped.
    bool thisMachine = true;
};

// The checks, one group per file; each returns zero or more findings.
std::vector<Finding> checkInstallPath(const DoctorInput& in);       // paths.cpp
std::vector<Finding> checkNetworkHome(const DoctorInput& in);       // paths.cpp
std::vector<Finding> checkKfdAccess(const DoctorInput& in);         // devices.cpp
std::vector<Finding> checkGitOnPath(const DoctorInput& in);         // devices.cpp
std::vector<Finding> checkStackVersions(const DoctorInput& in);     // versions.cpp
std::vector<Finding> checkStaleGpuVariables(const DoctorInput& in); // versions.cpp
std::vector<Finding> checkDriverKnownIssues(const DoctorInput& in); // catalog_checks.cpp
std::vector<Finding> checkFreeDisk(const DoctorInput& in);          // catalog_checks.cpp
std::vector<Finding> checkRuntimesVerify(const DoctorInput& in);    // runtime_checks.cpp
std::vector<Finding> checkPortFree(const DoctorInput& in);          // runtime_checks.cpp

// Every check, in the order they are reported.
std::vector<Finding> runAllChecks(const DoctorInput& in);

// This process's real uid, groups, free space and port check (doctor.cpp).
void fillFromHost(DoctorInput& in);

nlohmann::json toJson(const std::vector<Finding>& findings);

// Helpers the checks share.
bool isLinux(const DoctorInput& in);
bool isWindows(const DoctorInput& in);
char pathListSeparator(const DoctorInput& in); // ';' for a Windows snapshot, else ':'
std::vector<std::string> splitList(const std::string& text, char sep);
// An absolute path ("/dev/kfd") under in.fsRoot.
std::string hostPath(const DoctorInput& in, const std::string& absolute);

} // namespace sp::doctor
