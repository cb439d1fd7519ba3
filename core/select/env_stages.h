#pragma once
// The environment stages of a plan, each a small function over the plan so that it
// can be tested alone: the runtimes' and profile's own variables, pinning the chosen
// GPU, the HSA override, and moving caches off a network home.

#include "core/catalog/types.h"
#include "core/select/expand.h"
#include "core/select/gpu_support.h"
#include "core/select/plan.h"
#include "core/snapshot.h"

namespace sp {

struct SelectSettings;

void setPlanEnv(Plan& plan, const std::string& name, const std::string& value,
                const std::string& why);

// Runtime, workload and profile variables, in that order (a later one wins).
void applyCatalogEnv(Plan& plan, const Catalog& cat, const Workload& workload,
                     const Profile& profile, const PlanExpander& expander);
// The folders that go first on PATH: every runtime's `path_dirs`, library packs (runtimes
// that `require` another) before the rest, so a pack's DLL shadows the SDK's.
void collectPath(Plan& plan, const Catalog& cat, const Profile& profile,
                 const PlanExpander& expander);
// Sets HSA_OVERRIDE_GFX_VERSION when the profile runs the GPU through an override.
void applyGfxOverride(Plan& plan, const ProfileGpuSupport& support, const std::string& gfx);
// The folder relocated caches go to, or empty when none is known for the OS.
std::string cacheRelocationBase(const HardwareSnapshot& snap, const Catalog& cat,
                                const SelectSettings& settings);
// Moves the catalog's cache variables to a local disk when the home is on a network;
// on a local home, only those marked `always` are set, to StackPilot's cache folder.
void relocateCaches(Plan& plan, const HardwareSnapshot& snap, const Catalog& cat,
                    const SelectSettings& settings);

} // namespace sp
