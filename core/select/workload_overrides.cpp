#include "core/select/workload_overrides.h"

namespace sp {

SelectSettings selectSettingsFor(const Settings& settings, const std::string& workload,
                                 SelectSettings base)
{
    base.allowedProfiles = settings.allowedProfiles;
    const auto it = settings.workloads.find(workload);
    if (it == settings.workloads.end())
        return base;
    const WorkloadOverrides& w = it->second;
    if (base.profile.empty())
        base.profile = w.profile;
    // The user's confirmation holds for the profile they confirmed, also when a launch
    // names it.
    if (!w.profile.empty() && base.profile == w.profile)
        base.acceptRejected = base.acceptRejected || w.acceptRejected;
    for (const auto& [name, value] : w.env)
        base.env[name] = value;
    base.args.insert(base.args.end(), w.args.begin(), w.args.end());
    base.relocateCaches = base.relocateCaches || w.relocateCaches;
    base.repair.insert(base.repair.end(), w.repair.begin(), w.repair.end());
    if (!base.gpuChoice)
        base.gpuChoice = w.gpu; // a --gpu on the command line (gpuSpec) still wins
    return base;
}

} // namespace sp
