// Checks that read the catalog: drivers known to break a stack (d) and the disk space
// the chosen profile needs (e).

#include "app/common/doctor/doctor.h"
#include "core/paths.h"
#include "core/select/conditions.h"
#include "core/select/select.h"
#include "installers/prefix_store.h"

namespace sp::doctor {

namespace {

const GpuInfo* chosenGpu(const DoctorInput& in)
{
    std::optional<int> index = in.plan ? in.plan->gpu : chooseGpu(*in.snapshot);
    if (!index || *index < 0 || *index >= static_cast<int>(in.snapshot->gpus.size()))
        return nullptr;
    return &in.snapshot->gpus[static_cast<std::size_t>(*index)];
}

std::string gigabytes(std::uint64_t bytes)
{
    const std::uint64_t tenths = (bytes + 50'000'000) / 100'000'000;
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " GB";
}

} // namespace

// Only known issues with a `driver_version` condition: the rules are catalog data, so
// a new bad driver needs a JSON entry, not a release.
std::vector<Finding> checkDriverKnownIssues(const DoctorInput& in)
{
    if (!in.snapshot || !in.catalog)
        return {};
    const GpuInfo* gpu = chosenGpu(in);
    if (!gpu || !gpu->driverVersion)
        return {};
    const Profile* profile =
        in.plan && !in.plan->profile.empty() ? in.catalog->profile(in.plan->profile) : nullptr;
    const MatchContext ctx{*in.snapshot, gpu, *in.catalog, profile};
    std::vector<Finding> out;
    for (const auto& issue : in.catalog->knownIssues) {
        if (!issue.applies.driverVersion || !unmetConditions(issue.applies, ctx).empty())
            continue;
        out.push_back({"driver:" + issue.id, "error",
                       issue.title + " (" + gpu->name + ", driver " + *gpu->driverVersion + ")",
                       issue.remedy.text});
    }
    return out;
}

// Downloads and their extracted files are both on the data disk during an install,
// so twice the download size is needed.
std::vector<Finding> checkFreeDisk(const DoctorInput& in)
{
    if (!in.thisMachine || !in.plan || !in.catalog || !in.freeSpace)
        return {};
    PrefixStore store(in.runtimesDir);
    std::uint64_t download = 0;
    for (const auto& planned : in.plan->runtimes) {
        const Runtime* r = in.catalog->runtime(planned.id);
        if (!r || r->system || store.isInstalled(r->id))
            continue;
        for (const auto& a : r->artifacts)
            download += a.size.value_or(0);
    }
    if (download == 0)
        return {};
    const auto free = in.freeSpace(in.dataDir);
    if (!free || *free >= download * 2)
        return {};
    return {{"disk-space", "error",
             "the profile " + in.plan->profile + " needs about " + gigabytes(download * 2) +
                 " free in " + paths::toUtf8(in.dataDir) + " (downloads and extracted files); " +
                 gigabytes(*free) + " are free",
             "Free at least " + gigabytes(download * 2 - *free) +
                 " on that disk, or move StackPilot's data to a larger disk by setting "
                 "STACKPILOT_HOME."}};
}

} // namespace sp::doctor
