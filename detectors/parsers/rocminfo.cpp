#include "core/gpu_indices.h"
#include "detectors/parsers/tool_parsers.h"

#include <cstdio>

namespace sp {

using namespace parse_util;

namespace {

struct Agent
{
    std::string name, marketingName, vendorName, deviceType, uuid, isaGfx, lastSegment;
    std::optional<long long> computeUnits, chipId, bdfId, node, vramKb;
    std::optional<long long> number; // "Agent N": 1 for the first agent of a whole output
    bool named = false;
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

template <class T> void setOnce(std::optional<T>& field, std::optional<T> value)
{
    if (!field)
        field = value;
}

void setOnce(std::string& field, std::string_view value)
{
    if (field.empty())
        field = value;
}

// Reads agents from whole, partial, quoted or grepped rocminfo output. An "Agent N"
// header opens an agent; where the paste has none (a window that starts mid-agent, a
// grep), the first field opens one, and a second agent-level "Name:" (not an ISA's
// "amdgcn-amd-amdhsa--..." name) opens the next. At most kMaxParsedGpus agents (CPU
// agents included): the rest of the text is not read.
class AgentScanner
{
public:
    void line(std::string_view raw)
    {
        if (m_full)
            return;
        const std::string_view t = trim(raw);
        if (t.substr(0, 6) == "Agent " && leadingInt(t.substr(6))) {
            openAgent();
            if (!m_full)
                m_agents.back().number = leadingInt(t.substr(6));
            return;
        }
        noteError(t);
        const auto colon = t.find(':');
        if (colon == std::string_view::npos)
            return;
        field(trim(t.substr(0, colon)), trim(t.substr(colon + 1)));
    }

    const std::vector<Agent>& agents() const { return m_agents; }
    const std::string& errorLine() const { return m_error; }

private:
    void openAgent()
    {
        if (m_agents.size() >= kMaxParsedGpus) {
            m_full = true; // no more records; m_spare takes the current line's field
            m_open = false;
            return;
        }
        m_agents.emplace_back();
        m_open = true;
    }

    Agent& current()
    {
        if (!m_open || m_agents.empty())
            openAgent();
        return m_full ? m_spare : m_agents.back();
    }

    void noteError(std::string_view t)
    {
        if (!m_error.empty())
            return;
        const std::string l = lower(t);
        for (const char* w : {"not loaded", "hsa_status_error", "failed", "error"}) {
            if (l.find(w) != std::string::npos) {
                m_error = std::string(t);
                return;
            }
        }
    }

    void field(std::string_view key, std::string_view value)
    {
        if (key == "Name") {
            if (value.find("amdgcn-amd-amdhsa") != std::string_view::npos) {
                Agent& a = current();
                if (a.isaGfx.empty())
                    a.isaGfx = gfxFromTarget(value);
                return;
            }
            if (m_open && !m_agents.empty() && m_agents.back().named)
                m_open = false; // a second agent name: the next agent of a grep or window
            Agent& a = current();
            a.name = value;
            a.named = true;
            return;
        }
        if (!isAgentKey(key))
            return;
        Agent& a = current();
        if (key == "Marketing Name")
            setOnce(a.marketingName, value);
        else if (key == "Vendor Name")
            setOnce(a.vendorName, value);
        else if (key == "Device Type")
            setOnce(a.deviceType, value);
        else if (key == "Uuid")
            setOnce(a.uuid, value);
        else if (key == "Compute Unit")
            setOnce(a.computeUnits, leadingInt(value));
        else if (key == "Chip ID")
            setOnce(a.chipId, leadingInt(value));
        else if (key == "BDFID")
            setOnce(a.bdfId, leadingInt(value));
        else if (key == "Node")
            setOnce(a.node, leadingInt(value));
        else if (key == "Segment")
            a.lastSegment = std::string(value);
        else if (key == "Size" && !a.vramKb && a.lastSegment.find("GLOBAL") != std::string::npos &&
                 a.lastSegment.find("COARSE") != std::string::npos)
            a.vramKb = leadingInt(value);
    }

    static bool isAgentKey(std::string_view key)
    {
        for (const char* k : {"Marketing Name", "Vendor Name", "Device Type", "Uuid",
                              "Compute Unit", "Chip ID", "BDFID", "Node", "Segment", "Size"})
            if (key == k)
                return true;
        return false;
    }

    std::vector<Agent> m_agents;
    Agent m_spare; // written to, never read, once the scanner is full
    std::string m_error;
    bool m_open = false, m_full = false;
};

// The agent's target: its own name ("gfx1031"), else its ISA's ("amdgcn-amd-amdhsa--gfx1031").
std::string agentGfx(const Agent& a)
{
    const std::string own = gfxFromTarget(a.name);
    return own.empty() ? a.isaGfx : own;
}

// A partial paste may lack "Device Type": then an agent that names a gfx target or a
// chip id is a GPU (CPU agents print Chip ID 0, NPUs name "aie2").
bool isGpuAgent(const Agent& a)
{
    if (!a.deviceType.empty())
        return lower(a.deviceType).find("gpu") != std::string::npos;
    return !agentGfx(a).empty() || (a.chipId && *a.chipId > 0);
}

GpuInfo gpuFromAgent(const Agent& a)
{
    GpuInfo g;
    g.vendor = Vendor::Amd;
    g.name = clip(a.marketingName.empty() ? a.name : a.marketingName);
    if (const std::string gfx = agentGfx(a); !gfx.empty())
        g.gfx = gfx;
    if (a.computeUnits && *a.computeUnits > 0 && *a.computeUnits < 100000)
        g.computeUnits = static_cast<int>(*a.computeUnits);
    std::optional<long long> device = a.chipId;
    if (!device || *device <= 0) {
        if (auto placeholder = deviceIdFromPlaceholder(a.marketingName)) // "Device 73bf"
            device = *placeholder;
    }
    if (device && *device > 0 && *device <= 0xffff) {
        char id[16];
        std::snprintf(id, sizeof id, "1002:%04llx", *device);
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
    return g;
}

} // namespace

ParsedProbe parseRocminfo(std::string_view text, int exitCode)
{
    ParsedProbe out;
    out.probe.name = "rocminfo";
    out.probe.status = ProbeStatus::Failed;

    AgentScanner scanner;
    for (std::string_view line : cleanLines(text))
        scanner.line(line);

    // ROCr numbers the GPU agents in the order rocminfo lists them (ROCR_VISIBLE_DEVICES
    // counts GPUs only); the number is known only while every agent from "Agent 1" on is
    // in the paste.
    int gpuOrdinal = 0;
    bool whole = true;
    long long expected = 1;
    for (const Agent& a : scanner.agents()) {
        whole = whole && a.number && *a.number == expected++;
        if (!isGpuAgent(a) || out.gpus.size() >= kMaxParsedGpus)
            continue;
        out.gpus.push_back(gpuFromAgent(a));
        if (whole)
            out.gpus.back().indices[kApiRocr] = gpuOrdinal;
        ++gpuOrdinal;
    }

    const std::string& errorLine = scanner.errorLine();
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
