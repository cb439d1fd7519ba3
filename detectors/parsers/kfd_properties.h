#pragma once
// KFD topology node properties ("name value" lines, decimal), as
// /sys/class/kfd/kfd/topology/nodes/N/properties holds them, and as users paste them:
// whole files, greps with or without the file name ("…/nodes/1/properties:gfx_target_version
// 100301"), several nodes in one paste, and rocprofv3-avail's "key : value" node dumps.
// Detection (linux/sysfs_gpus.cpp) and import read them with the same code.

#include "detectors/parsers/parsed_probe.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sp {

struct KfdProperties
{
    std::uint64_t gfxTargetVersion = 0; // 0 = CPU node
    std::uint32_t vendorId = 0;
    std::uint32_t deviceId = 0;
    std::optional<std::uint64_t> uniqueId;
    std::optional<std::uint32_t> locationId; // PCI bus << 8 | device << 3 | function
    std::optional<std::uint32_t> domain;
    std::uint64_t simdCount = 0;
    std::uint64_t simdPerCu = 0;
    std::optional<int> nodeId; // rocprofv3-avail's node_id
    std::string name;          // rocprofv3-avail's name ("gfx906"); KFD files have none
    std::string productName;   // rocprofv3-avail's product_name
    bool dumpHeader = false;   // opened by a "GPU:0" line (rocprofv3-avail)
};

// Reads one node; unknown keys and malformed lines are skipped, and a key that repeats
// ends the node (the rest is ignored).
KfdProperties parseKfdProperties(std::string_view text);

// Reads every node of a paste: a node ends where a key repeats, where the file name of a
// grep changes, or at a rocprofv3-avail "GPU:N"/"CPU:N" line. At most kMaxParsedGpus
// nodes.
std::vector<KfdProperties> parseKfdNodes(std::string_view text);

// 100301 -> "gfx1031", 90012 -> "gfx90c", 90010 -> "gfx90a"; nullopt for 0 (a CPU
// node) or values that name no target.
std::optional<std::string> gfxFromTargetVersion(std::uint64_t version);

// The GPU nodes of a paste, with sources "kfd-properties" (or "rocprofv3-avail").
ParsedProbe parseKfdText(std::string_view text);

} // namespace sp
