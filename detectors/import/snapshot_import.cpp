#include "detectors/import/snapshot_import.h"

#include "core/gpu_indices.h"
#include "core/json_file.h"
#include "core/paths.h"
#include "detectors/import/paste_sections.h"
#include "detectors/merge.h"
#include "detectors/nvidia_cc_table.h"
#include "detectors/parsers/kfd_properties.h"
#include "detectors/parsers/tool_parsers.h"
#include "detectors/pci_table.h"

#include <algorithm>

namespace sp {

namespace {

using Parser = ParsedProbe (*)(std::string_view);

ParsedProbe rocminfo(std::string_view t)
{
    return parseRocminfo(t, 0);
}
ParsedProbe hipinfo(std::string_view t)
{
    return parseHipinfo(t, 0);
}
ParsedProbe nvidiaSmiCsv(std::string_view t)
{
    return parseNvidiaSmiCsv(t, 0, true);
}

// Every parser sees every part of a paste: each reads only the lines of its own tool,
// and what two of them say about one GPU is merged afterwards, the earlier parser's
// value first among equals. lspci comes last: its bracketed names are often ranges
// ("Quadro RTX 6000/8000") where the vendor tools print the product.
constexpr Parser kParsers[] = {rocminfo,
                               hipinfo,
                               parseKfdText,
                               parseClinfo,
                               nvidiaSmiCsv,
                               parseNvidiaSmiTable,
                               parseNvidiaSmiQuery,
                               parseNvidiaSmiList,
                               parseVulkaninfo,
                               parseAmdSmi,
                               parseLspci};

// The OS a tool's output comes from, where only one OS has that tool.
std::string osOfTools(const std::vector<std::string>& tools)
{
    bool linux = false, windows = false;
    for (const auto& t : tools) {
        linux = linux || t == "rocminfo" || t == "lspci" || t == "kfd-properties" ||
                t == "rocprofv3-avail" || t == "amd-smi";
        windows = windows || t == "windows-device-id";
    }
    if (linux == windows)
        return {};
    return linux ? "linux" : "windows";
}

void prefixSources(std::vector<std::string>& sources)
{
    for (auto& s : sources) {
        if (s.rfind("import:", 0) != 0)
            s = "import:" + s;
    }
}

void addUnique(std::vector<std::string>& into, const std::string& s)
{
    if (std::find(into.begin(), into.end(), s) == into.end())
        into.push_back(s);
}

struct PasteResult
{
    std::vector<std::vector<GpuInfo>> lists;
    std::vector<RuntimeInfo> runtimes;
    std::vector<std::string> tools; // sources seen, in order
    std::size_t gpus = 0;
};

PasteResult readOnePaste(const PasteText& paste)
{
    PasteResult r;
    for (std::string_view section : paste::splitSections(paste.text)) {
        for (Parser parse : kParsers) {
            ParsedProbe p = parse(section);
            for (auto& g : p.gpus) {
                for (const auto& s : g.sources)
                    addUnique(r.tools, s);
                prefixSources(g.sources);
            }
            for (auto& rt : p.runtimes) {
                rt.extra["source"] = "import:" + rt.extra.value("source", p.probe.name);
                rt.extra["file"] = paste.origin;
                r.runtimes.push_back(std::move(rt));
            }
            r.gpus += p.gpus.size();
            if (!p.gpus.empty())
                r.lists.push_back(std::move(p.gpus));
        }
    }
    return r;
}

ProbeResult probeFor(const PasteText& paste, const PasteResult& r)
{
    ProbeResult p;
    p.name = "import";
    p.extra["file"] = paste.origin;
    p.extra["tools"] = r.tools;
    if (r.tools.empty()) {
        p.status = ProbeStatus::Failed;
        p.detail =
            paste.origin + ": no GPU found in it (not the output of a tool StackPilot reads)";
    } else {
        p.status = ProbeStatus::Ok;
        p.detail = paste.origin + ": " + join(r.tools, ", ");
    }
    return p;
}

// The tables' guesses keep their own names behind the import prefix.
void markTableSources(std::vector<GpuInfo>& gpus)
{
    for (auto& g : gpus)
        prefixSources(g.sources);
}

// A paste that cannot give right device numbers is refused rather than read in part: a
// vulkaninfo output cut off inside a device would shift every Vulkan index after it.
Expected<void> checkPaste(const PasteText& paste)
{
    for (std::string_view section : paste::splitSections(paste.text)) {
        const ParsedProbe p = parseVulkaninfo(section);
        if (const auto cut = p.probe.extra.find("cut_off"); cut != p.probe.extra.end())
            return Error::invalid(paste.origin + ": the vulkaninfo output is cut off in " +
                                  cut->get<std::string>() +
                                  " (no deviceName or vendorID follows it); paste the whole "
                                  "output of `vulkaninfo --summary`");
    }
    return {};
}

} // namespace

Expected<PasteText> readPaste(const std::string& path)
{
    auto text = readRegularFile(paths::fromUtf8(path), kMaxPasteBytes, "pasted tool output");
    if (!text)
        return text.error();
    return PasteText{path, std::move(*text)};
}

HardwareSnapshot importPastes(const std::vector<PasteText>& pastes, const ImportOptions& options)
{
    HardwareSnapshot snap;
    std::vector<std::vector<GpuInfo>> lists;
    std::string osHint;
    bool osConflict = false;
    nlohmann::json files = nlohmann::json::array();
    for (const PasteText& paste : pastes) {
        PasteResult r = readOnePaste(paste);
        for (auto& l : r.lists)
            lists.push_back(std::move(l));
        snap.runtimes.insert(snap.runtimes.end(), r.runtimes.begin(), r.runtimes.end());
        snap.probes.push_back(probeFor(paste, r));
        files.push_back(paste.origin);
        std::string os = paste::inferOsFamily(paste.text);
        if (const std::string byTool = osOfTools(r.tools); os.empty())
            os = byTool;
        else if (!byTool.empty() && byTool != os)
            os.clear(); // the text and the tools disagree: say nothing
        if (!os.empty() && !osHint.empty() && os != osHint)
            osConflict = true;
        if (!os.empty())
            osHint = os;
    }
    snap.gpus = mergeGpuLists(lists); // at most kMaxParsedGpus
    completeFromTable(snap.gpus, options.pciTable ? *options.pciTable : PciTable::shipped());
    completeNvidiaFromTable(snap.gpus,
                            options.ccTable ? *options.ccTable : NvidiaCcTable::shipped());
    markTableSources(snap.gpus);

    if (!options.osFamily.empty()) {
        snap.os.family = options.osFamily;
        snap.os.extra["source"] = "import:--os";
    } else if (!osConflict && !osHint.empty()) {
        snap.os.family = osHint;
        snap.os.extra["source"] = "import:inferred";
    }
    snap.extra["imported_from"] = files;
    return snap;
}

Expected<HardwareSnapshot> importSnapshotFiles(const std::vector<std::string>& paths,
                                               const ImportOptions& options)
{
    if (paths.empty())
        return Error::usage("no file to import");
    if (paths.size() > kMaxPasteFiles)
        return Error::usage(std::to_string(paths.size()) + " files is more than " +
                            std::to_string(kMaxPasteFiles) + " at once");
    std::vector<PasteText> pastes;
    for (const auto& path : paths) {
        auto p = readPaste(path);
        if (!p)
            return p.error();
        if (auto ok = checkPaste(*p); !ok)
            return ok.error();
        pastes.push_back(std::move(*p));
    }
    HardwareSnapshot snap = importPastes(pastes, options);
    if (auto ok = checkIndices(snap, "the pasted outputs"); !ok)
        return ok.error();
    return snap;
}

} // namespace sp
