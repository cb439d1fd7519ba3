#pragma once
// The environment composer: the user's environment in, the exact environment one
// profile needs out, with every change explained. Pure: no process is started and no
// file is read, so the launcher, `launch --dry-run` and the diagnostics bundle all get
// the same answer for the same inputs.
//
// Most field failures are environment failures, so the composer first removes what
// belongs to other stacks:
//  - HIP_PATH / HIP_PATH_xx that do not name the profile's HIP SDK (a stale HIP_PATH
//    from another SDK makes ZLUDA load the wrong rocBLAS);
//  - CUDA_PATH / CUDA_PATH_Vxx_y / CUDA_HOME that point at another CUDA toolkit, or
//    any of them for an AMD stack;
//  - PATH and LD_LIBRARY_PATH entries of other ROCm or CUDA installs (two ROCm
//    versions' libraries mixed in one process);
//  - PYTHONPATH, PYTHONHOME, VIRTUAL_ENV, CONDA_PREFIX, with PYTHONNOUSERSITE=1;
// then adds what the plan says: runtime folders first on PATH (and LD_LIBRARY_PATH on
// Linux), the profile's variables, GPU pinning, the HSA override, relocated caches.
// docs/LAUNCH.md describes the rules.

#include "core/select/plan.h"

#include <map>
#include <string>
#include <vector>

namespace sp {

using EnvMap = std::map<std::string, std::string>;

struct EnvChange
{
    enum Kind
    {
        Added,
        Changed,
        Removed
    } kind = Added;
    std::string name;
    std::string before; // empty for Added
    std::string after;  // empty for Removed
    std::string reason;
};
const char* toString(EnvChange::Kind k); // "added" | "changed" | "removed"

struct ComposedLaunch
{
    EnvMap env;                    // the final environment, names as the user had them
    std::vector<std::string> argv; // command + args + extra args
    std::string cwd;
    std::vector<EnvChange> changes; // ordered by variable name
};

// `os` is "windows" or "linux" (the plan's target); on Windows variable names compare
// without case and path entries without case and slash direction.
ComposedLaunch composeLaunch(const Plan& plan, const EnvMap& user, const std::string& os,
                             const std::vector<std::string>& extraArgs = {});

// What kind of install a PATH entry belongs to: "rocm", "cuda" or "" (neither).
std::string stackOfPathEntry(const std::string& entry);

} // namespace sp
