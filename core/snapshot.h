#pragma once
// The hardware snapshot: what detection found, in the JSON shape of
// docs/ARCHITECTURE.md ("Contracts").
// Plain value types so that detectors, the selection engine and both front ends
// can share them, and so that a snapshot read back from a user's bundle plans
// exactly like the machine it came from.

#include "core/expected.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sp {

enum class Vendor
{
    Amd,
    Nvidia,
    Intel,
    Other
};
std::string toString(Vendor v);
Vendor vendorFromString(const std::string& s);
Vendor vendorFromPciId(std::uint32_t pciVendor);

enum class ProbeStatus
{
    Ok,
    Missing,
    Failed,
    Timeout,
    Crashed
};
std::string toString(ProbeStatus s);
std::optional<ProbeStatus> probeStatusFromString(const std::string& s);

struct GpuInfo
{
    Vendor vendor = Vendor::Other;
    std::string name;
    std::string pciId;                            // "1002:73df", lower-case hex
    std::string pciRevision;                      // "c0"
    std::string pciBus;                           // "0000:03:00.0"
    std::optional<std::string> gfx;               // "gfx1031", AMD only
    std::optional<std::string> computeCapability; // "6.1", NVIDIA only
    std::optional<std::int64_t> vramMb;
    std::optional<std::int64_t> gttMb;
    std::optional<bool> integrated;
    std::optional<std::string> driverVersion;
    std::optional<int> computeUnits;
    std::optional<int> kfdNode; // KFD topology node, for per-device HSA overrides
    // The device index each API gives this GPU where a tool or probe showed it
    // ("hip", "rocr", "cuda", "nvml", "vulkan", "amd-smi"; core/gpu_indices.h).
    std::map<std::string, int> indices;
    std::vector<std::string> sources; // "kfd", "drm", "pci-table", "hip", "nvml", ...
    nlohmann::json extra = nlohmann::json::object(); // fields from newer versions, kept verbatim

    bool operator==(const GpuInfo&) const = default;
};

struct RuntimeInfo
{
    std::string kind; // hip-sdk | rocm | cuda-driver | zluda | ...
    std::string version;
    std::string path;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const RuntimeInfo&) const = default;
};

struct ProbeResult
{
    std::string name; // "hip", "nvml", "cuda", "rocminfo", "hipinfo", "nvidia-smi", "kfd-access"
    ProbeStatus status = ProbeStatus::Missing;
    std::string detail; // signal/exception code, error text, or a summary
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const ProbeResult&) const = default;
};

struct HomeInfo
{
    std::string path;
    std::string filesystem; // "ext4", "nfs", "cifs", "fuse.sshfs", "ntfs", "unc", ...
    bool network = false;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const HomeInfo&) const = default;
};

struct OsInfo
{
    std::string family; // "windows" | "linux"
    std::string version;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const OsInfo&) const = default;
};

struct HardwareSnapshot
{
    static constexpr int kSchema = 1;
    OsInfo os;
    HomeInfo home;
    std::vector<GpuInfo> gpus;
    std::vector<RuntimeInfo> runtimes;
    std::vector<ProbeResult> probes;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const HardwareSnapshot&) const = default;
};

nlohmann::json toJson(const HardwareSnapshot& s);
// `origin` names the input (a file path) in error messages.
Expected<HardwareSnapshot> snapshotFromJson(const nlohmann::json& j, const std::string& origin);
Expected<HardwareSnapshot> parseSnapshot(const std::string& text, const std::string& origin);
// A diagnostics bundle's report.json (it has kBundleSchemaKey) carries the snapshot
// under "hardware": parseSnapshot takes it from there. loadSnapshotFile also reads a
// bundle zip, taking its report.json under the zip limits of core/zip_reader.h; the
// snapshot's own size limit applies to that entry.
Expected<HardwareSnapshot> loadSnapshotFile(const std::filesystem::path& file);
Expected<HardwareSnapshot> snapshotFromBundleBytes(std::string_view zip, const std::string& origin);
inline constexpr const char* kBundleReportEntry = "report.json";
inline constexpr const char* kBundleSchemaKey = "diagnostics_schema";

// Network filesystems (NFS, SMB, ...) whose caches break GPU stacks: the known issue
// hsa-aperture-violation, whose remedy moves the caches to a local disk
// (profiles/catalog/known-issues.json; https://github.com/ROCm/ROCm/issues/3951).
bool isNetworkFilesystem(const std::string& fsType);

} // namespace sp
