#include "detectors/parsers/tool_parsers.h"

#include <cstdio>

namespace sp {

using namespace parse_util;

namespace {

struct Agent
{
    std::string name, marketingName, vendorName, deviceType, uuid;
    std::optional<long long> computeUnits, chipId, bdfId, node, vramKb;
};

// PCI bus from rocminfo's BDFID (bus << 8 | device << 3 | function); rocminfo
// does not print the PCI domain, which is 0 on almost every desktop.
std::string busFromBdf(long long bdf)
{
    char s[32];
    std::snprintf(s, sizeof s, "0000:%02llx:%02llx.%llx", (bdf >> 8) & 0xff, (bdf >> 3) & 0x1f,
                  bdf & 7);
    return s;
}

// Nested ISA blocks repeat "Name:"; the agent's own comes first.
void readAgentField(Agent& a, std::string& lastSegment, std::string_view key,
                    std::string_view value)
{
    if (key == "Name" && a.name.empty())
        a.name = value;
    else if (key == "Marketing Name" && a.marketingName.empty())
        a.marketingName = value;
    else if (key == "Vendor Name" && a.vendorName.empty())
        a.vendorName = value;
    else if (key == "Device Type" && a.deviceType.empty())
        a.deviceType = value;
    else if (key == "Uuid" && a.uuid.empty())
        a.uuid = value;
    else if (key == "Compute Unit" && !a.computeUnits)
        a.computeUnits = leadingInt(value);
    else if (key == "Chip ID" && !a.chipId)
        a.chipId = leadingInt(value);
    else if (key == "BDFID" && !a.bdfId)
        a.bdfId = leadingInt(value);
    else if (key == "Node" && !a.node)
        a.node = leadingInt(value);
    else if (key == "Segment")
        lastSegment = std::string(value);
    else if (key == "Size" && !a.vramKb && lastSegment.find("GLOBAL") != std::string::npos &&
             lastSegment.find("COARSE") != std::string::npos)
        a.vramKb = leadingInt(value);
}

} // namespace

ParsedProbe parseRocminfo(std::string_view text, int exitCode)
{
    ParsedProbe out;
    out.probe.name = "rocminfo";
    out.probe.status = ProbeStatus::Failed;

    std::vector<Agent> agents;
    std::string lastSegment;
    const std::string errorLine = scanKeyValueBlocks(
        text,
        [&](std::string_view line) {
            if (line.substr(0, 6) != "Agent " || !leadingInt(line.substr(6)))
                return false;
            agents.emplace_back();
            lastSegment.clear();
            return true;
        },
        {"not loaded", "hsa_status_error", "failed", "error"},
        [&](std::string_view key, std::string_view value) {
            readAgentField(agents.back(), lastSegment, key, value);
        });

    for (const Agent& a : agents) {
        if (lower(a.deviceType) != "gpu")
            continue;
        GpuInfo g;
        g.vendor = Vendor::Amd;
        g.name = a.marketingName.empty() ? a.name : a.marketingName;
        const std::string gfx = gfxFromTarget(a.name);
        if (!gfx.empty())
            g.gfx = gfx;
        if (a.computeUnits && *a.computeUnits > 0 && *a.computeUnits < 100000)
            g.computeUnits = static_cast<int>(*a.computeUnits);
        if (a.chipId && *a.chipId > 0 && *a.chipId <= 0xffff) {
            char id[16];
            std::snprintf(id, sizeof id, "1002:%04llx", *a.chipId);
            g.pciId = id;
        }
        if (a.bdfId && *a.bdfId > 0 && *a.bdfId <= 0xffff)
            g.pciBus = busFromBdf(*a.bdfId);
        if (a.node && *a.node >= 0 && *a.node < 1024)
            g.kfdNode = static_cast<int>(*a.node);
        if (a.vramKb && *a.vramKb > 0 && *a.vramKb < (1LL << 40))
            g.vramMb = *a.vramKb / 1024;
        if (!a.uuid.empty())
            g.extra["uuid"] = clip(a.uuid, 64);
        g.sources = {"rocminfo"};
        out.gpus.push_back(std::move(g));
    }

    if (!out.gpus.empty()) {
        out.probe.status = ProbeStatus::Ok;
        out.probe.detail = std::to_string(out.gpus.size()) + " GPU agent(s)";
    } else if (exitCode != 0 || !errorLine.empty()) {
        // e.g. "ROCk module is NOT loaded, possibly no GPU devices" with exit code 1.
        out.probe.detail =
            "no device: " +
            clip(errorLine.empty() ? "exit code " + std::to_string(exitCode) : errorLine);
    } else {
        out.probe.detail = "no device";
    }
    out.probe.extra["exit_code"] = exitCode;
    return out;
}

} // namespace sp
