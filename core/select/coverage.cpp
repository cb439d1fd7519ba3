#include "core/select/coverage.h"

#include "core/paths.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace sp {

namespace {

constexpr std::uintmax_t kMaxListBytes = 1 << 20;

HardwareSnapshot machineWith(const GpuInfo& gpu, const std::string& os)
{
    HardwareSnapshot s;
    s.os.family = os;
    s.home.path = os == "windows" ? "C:\\Users\\user" : "/home/user";
    s.home.filesystem = os == "windows" ? "ntfs" : "ext4";
    s.gpus.push_back(gpu);
    return s;
}

// Whether a rejection only says the profile was made for another machine: another OS,
// vendor, or a gfx list that does not name this card.
bool madeForAnotherMachine(const std::string& reason)
{
    return reason.rfind("needs OS", 0) == 0 || reason.rfind("needs a ", 0) == 0 ||
           reason.rfind("needs gfx ", 0) == 0 || reason.find(" is only for ") != std::string::npos;
}

// Why no GPU profile was chosen: a rejected profile made for this OS, vendor and card says
// it best (a known issue, an unsupported gfx or compute capability, too little VRAM). The
// catalog lists newer stacks after older ones, so the last such rejection names the newest
// stack that still cannot serve the card.
std::string fallbackReason(const Plan& plan)
{
    for (auto a = plan.alternatives.rbegin(); a != plan.alternatives.rend(); ++a) {
        if (a->verdict != "rejected" || a->reasons.empty() ||
            madeForAnotherMachine(a->reasons.front().text))
            continue;
        return a->profile + ": " + a->reasons.front().text;
    }
    return "no GPU profile for this card on this OS";
}

CoverageCell cellFor(const Catalog& cat, const GpuInfo& gpu, const std::string& workload,
                     const std::string& os, const SelectSettings& settings)
{
    CoverageCell cell;
    auto plan = makePlan(machineWith(gpu, os), cat, workload, settings);
    if (!plan) {
        cell.note = plan.error().message;
        return cell;
    }
    cell.profile = plan->profile;
    const Profile* p = cat.profile(plan->profile);
    cell.gpu = p && !p->fallback;
    cell.status = p ? toString(p->status) : std::string();
    cell.calledUnsupported = planCallsUnsupported(*plan);
    if (!cell.gpu)
        cell.note = fallbackReason(*plan);
    return cell;
}

std::vector<std::string> stringList(const nlohmann::json& doc, const char* key)
{
    std::vector<std::string> out;
    if (doc.contains(key))
        for (const auto& v : doc.at(key))
            out.push_back(v.get<std::string>());
    return out;
}

} // namespace

bool planCallsUnsupported(const Plan& plan)
{
    return std::any_of(plan.warnings.begin(), plan.warnings.end(), [](const std::string& w) {
        return w.find("unsupported") != std::string::npos ||
               w.find("not supported") != std::string::npos;
    });
}

Expected<CoverageList> loadCoverageList(const std::filesystem::path& file)
{
    const std::string name = paths::toUtf8(file);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec) ||
        std::filesystem::file_size(file, ec) > kMaxListBytes)
        return Error::invalid(name + ": not a regular file of at most 1 MiB");
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    CoverageList out;
    try {
        const auto doc = nlohmann::json::parse(text.str());
        out.workloads = stringList(doc, "workloads");
        for (const auto& g : doc.at("gpus")) {
            GpuInfo gpu;
            gpu.name = g.at("name").get<std::string>();
            gpu.vendor = vendorFromString(g.at("vendor").get<std::string>());
            if (g.contains("gfx"))
                gpu.gfx = g["gfx"].get<std::string>();
            if (g.contains("compute_capability"))
                gpu.computeCapability = g["compute_capability"].get<std::string>();
            gpu.vramMb = g.at("vram_mb").get<std::int64_t>();
            gpu.integrated = g.value("integrated", false);
            out.gpus.push_back(std::move(gpu));
        }
    } catch (const nlohmann::json::exception& e) {
        return Error::invalid(name + ":1:1: " + e.what());
    }
    return out;
}

CoverageTable coverage(const Catalog& cat, const std::vector<GpuInfo>& gpus,
                       const std::vector<std::string>& oses, const SelectSettings& settings,
                       const std::vector<std::string>& workloads)
{
    CoverageTable t;
    std::vector<std::string> ids = workloads;
    if (ids.empty())
        for (const auto& w : cat.workloads)
            ids.push_back(w.id);
    for (const auto& id : ids)
        for (const auto& os : oses)
            t.columns.emplace_back(id, os);
    for (const auto& gpu : gpus) {
        CoverageRow row{gpu, {}};
        for (const auto& [workload, os] : t.columns)
            row.cells.push_back(cellFor(cat, gpu, workload, os, settings));
        t.rows.push_back(std::move(row));
    }
    return t;
}

} // namespace sp
