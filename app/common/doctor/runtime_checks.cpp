// Checks on what the plan will run: installed runtimes that fail verification (g)
// and a port that is already taken (h).

#include "app/common/doctor/doctor.h"
#include "installers/prefix_store.h"

namespace sp::doctor {

std::vector<Finding> checkRuntimesVerify(const DoctorInput& in)
{
    if (!in.thisMachine || !in.plan)
        return {};
    PrefixStore store(in.runtimesDir);
    std::vector<Finding> out;
    for (const auto& r : in.plan->runtimes) {
        // A system runtime is verified by its own installer; one not installed yet is
        // what `install` is for, not damage.
        if (r.system || !store.isInstalled(r.id))
            continue;
        const std::string fix = "stackpilot-cli repair " + r.id;
        auto receipt = store.receipt(r.id);
        if (!receipt) {
            out.push_back(
                {"verify:" + r.id, "error",
                 "runtime " + r.id + " has an unreadable receipt: " + receipt.error().message,
                 fix});
            continue;
        }
        const auto problems = verifyTree(store.runtimeDir(r.id), *receipt);
        if (problems.empty())
            continue;
        std::string first = problems.front().issue + ": " + problems.front().path;
        out.push_back({"verify:" + r.id, "error",
                       "runtime " + r.id + " has " + std::to_string(problems.size()) +
                           " missing or modified file(s) (" + first + ")",
                       fix});
    }
    return out;
}

std::vector<Finding> checkPortFree(const DoctorInput& in)
{
    if (!in.thisMachine || !in.plan || !in.portCheck || in.plan->profile.empty())
        return {};
    std::vector<std::string> argv = in.plan->command;
    argv.insert(argv.end(), in.plan->args.begin(), in.plan->args.end());
    // The profile's args win over the workload's catalog default (`default_port`).
    const Workload* workload = in.catalog ? in.catalog->workload(in.plan->workload) : nullptr;
    const auto port = portFromArgs(argv, workload ? workload->defaultPort : std::nullopt);
    if (!port)
        return {};
    const PortStatus status = in.portCheck(*port);
    if (!status.inUse)
        return {};
    std::string fix = "Stop the program holding the port";
    if (status.holder)
        fix += " (kill " + std::to_string(status.holder->pid) + ")";
    fix += ", often an earlier instance of the workload, or choose another port in the "
           "profile's --port argument.";
    return {{"port-in-use", "warning", status.describe(), fix}};
}

} // namespace sp::doctor
