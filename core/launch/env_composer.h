#pragma once
// The environment composer: the user's environment in, the exact environment one
// profile needs out, with every change explained. Pure: no process is started and no
// file is read, so the launcher, `launch --dry-run` and the diagnostics bundle all get
// the same answer for the same inputs.
//
// Most field failures are environment failures, so the composer owns every GPU
// variable, for every profile (CPU ones included): what the plan does not set goes.
//  - HSA_OVERRIDE_GFX_VERSION, HIP_/ROCR_/CUDA_VISIBLE_DEVICES, GPU_DEVICE_ORDINAL
//    left in the caller's environment (a global override defeats the catalog's bans);
//  - HIP_PATH / HIP_PATH_xx that do not name the profile's HIP SDK (a stale HIP_PATH
//    from another SDK makes ZLUDA load the wrong rocBLAS);
//  - ROCM_PATH, ROCM_HOME, CUDA_PATH / CUDA_PATH_Vxx_y, CUDA_HOME that name no
//    runtime of the plan;
//  - PATH and LD_LIBRARY_PATH entries of ROCm or CUDA installs that are not the
//    plan's (two ROCm versions' libraries mixed in one process);
//  - PYTHONPATH, PYTHONHOME, VIRTUAL_ENV, CONDA_PREFIX, with PYTHONNOUSERSITE=1;
// then adds what the plan says: runtime folders first on PATH (and LD_LIBRARY_PATH on
// Linux), the profile's variables, GPU pinning, the HSA override, relocated caches, and
// the user's own choices (settings.json, this workload's `env`), which keep any of the
// variables above. Each removal is in `changes` with its reason.
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

// Whether `name` is one of the GPU variables the composed environment owns
// (HSA_OVERRIDE_GFX_VERSION, the device filters, ROCM_PATH, HIP_PATH*, CUDA_PATH*, ...);
// on Windows names compare without case.
bool isGpuVariable(const std::string& name, bool windows);

// What kind of install a PATH entry belongs to: "rocm", "cuda" or "" (neither).
std::string stackOfPathEntry(const std::string& entry);

} // namespace sp
