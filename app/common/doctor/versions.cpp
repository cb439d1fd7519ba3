// Several ROCm / HIP SDK / CUDA versions on one machine (c): a library loaded from one
// and a kernel from another is the classic "works in one terminal, crashes in the
// other" failure.

#include "app/common/doctor/doctor.h"
#include "core/launch/env_composer.h"
#include "core/paths.h"
#include "core/strings.h"

#include <filesystem>
#include <regex>
#include <set>

namespace sp::doctor {

namespace {

std::vector<std::string> rocmInOpt(const DoctorInput& in)
{
    static const std::regex name(R"(rocm-\d+\.\d+(\.\d+)?)");
    std::set<std::string> found;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(hostPath(in, "/opt"), ec)) {
        const std::string n = paths::toUtf8(e.path().filename());
        if (std::regex_match(n, name) && e.is_directory(ec))
            found.insert("/opt/" + n);
    }
    return {found.begin(), found.end()};
}

std::vector<std::string> hipPathVariables(const DoctorInput& in)
{
    static const std::regex name(R"(HIP_PATH_\d+)");
    std::vector<std::string> found;
    for (const auto& [key, value] : in.env)
        if (std::regex_match(key, name))
            found.push_back(key + "=" + value);
    return found;
}

// Versions of one stack named by the entries of a PATH-like list.
std::set<std::string> versionsIn(const std::vector<std::string>& entries, const std::regex& re)
{
    std::set<std::string> versions;
    for (const auto& e : entries) {
        std::smatch m;
        if (std::regex_search(e, m, re))
            versions.insert(m[1].str());
    }
    return versions;
}

void checkMixedList(const DoctorInput& in, const std::string& variable, std::vector<Finding>& out)
{
    auto it = in.env.find(variable);
    if (it == in.env.end())
        return;
    const auto entries = splitList(it->second, pathListSeparator(in));
    // /opt/rocm-6.1.2/bin, C:\Program Files\AMD\ROCm\5.7\bin; /usr/local/cuda-12.1/bin,
    // C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.1\bin.
    static const std::regex rocm(R"((?:rocm-|ROCm[\\/])(\d+\.\d+))", std::regex::icase);
    static const std::regex cuda(R"((?:cuda-|CUDA[\\/]v)(\d+\.\d+))", std::regex::icase);
    for (const auto& [stack, re] :
         {std::pair{std::string("ROCm"), &rocm}, std::pair{std::string("CUDA"), &cuda}}) {
        const auto versions = versionsIn(entries, *re);
        if (versions.size() < 2)
            continue;
        out.push_back({"mixed-" + lower(stack) + "-" + lower(variable), "warning",
                       variable + " mixes " + stack + " versions " +
                           join({versions.begin(), versions.end()}, ", "),
                       "Remove all but one " + stack + " version from " + variable +
                           " (in your shell profile or the system environment); StackPilot "
                           "puts the chosen runtime first on its own."});
    }
}

} // namespace

std::vector<Finding> checkStackVersions(const DoctorInput& in)
{
    if (!in.thisMachine)
        return {};
    std::vector<Finding> out;
    if (isLinux(in)) {
        const auto dirs = rocmInOpt(in);
        if (dirs.size() > 1)
            out.push_back({"several-rocm", "warning",
                           "several ROCm versions are installed: " + join(dirs, ", "),
                           "Keep one ROCm under /opt (remove the others with your package "
                           "manager) or make sure /opt/rocm points at the one you use."});
    }
    if (isWindows(in)) {
        const auto vars = hipPathVariables(in);
        if (vars.size() > 1)
            out.push_back({"several-hip-sdk", "warning",
                           "several HIP SDK versions are installed: " + join(vars, ", "),
                           "Uninstall the HIP SDK versions you do not use (Settings > Apps), "
                           "and check that HIP_PATH points at the one the profile needs."});
    }
    checkMixedList(in, "PATH", out);
    if (!isWindows(in))
        checkMixedList(in, "LD_LIBRARY_PATH", out);
    return out;
}

// A GPU variable set globally (old guides say so) that the composed environment
// removes for the planned profile: the launch is safe, but every other program of the
// user's still gets it, and the user should know where it comes from.
std::vector<Finding> checkStaleGpuVariables(const DoctorInput& in)
{
    if (!in.thisMachine || !in.plan || !in.snapshot)
        return {};
    const bool windows = isWindows(in);
    const ComposedLaunch composed = composeLaunch(*in.plan, in.env, in.snapshot->os.family);
    std::vector<Finding> out;
    for (const EnvChange& c : composed.changes) {
        if (c.kind != EnvChange::Removed || !isGpuVariable(c.name, windows))
            continue;
        const std::string fix =
            windows ? "Remove " + c.name +
                          " in Settings > System > About > Advanced system settings > "
                          "Environment Variables (or run: reg delete HKCU\\Environment /v " +
                          c.name + " /f), then sign out and in."
                    : "Remove the line that sets " + c.name +
                          " from your shell profile (~/.bashrc, ~/.profile, ~/.zshrc or "
                          "/etc/environment) and open a new terminal.";
        out.push_back({"stale-gpu-variable:" + c.name, "warning",
                       c.name + "=" + c.before + " is set in your environment; StackPilot " +
                           "removes it for " + in.plan->profile + " (" + c.reason + ")",
                       fix + " To keep it for this workload only, set it in the workload's " +
                           "env in settings.json."});
    }
    return out;
}

} // namespace sp::doctor
