#pragma once
// Whether a profile's runtimes together support the GPU: an AMD GPU's gfx target on an
// OS, or an NVIDIA GPU's compute capability (profileCcSupport, below).
// For AMD
// (docs/CATALOG.md, "Selection rules"). A runtime that lists `supported_gfx`
// supports the gfx in one of three ways, best first:
//   native       - it lists the gfx itself;
//   library pack - another runtime of the profile that `requires` it lists the gfx
//                  (a community rocBLAS for gfx1031 on the HIP SDK);
//   override     - a `gfx_overrides` convention for this OS maps the gfx to a target of
//                  the same major family that the runtime lists (HSA_OVERRIDE_GFX_VERSION).
// A profile whose runtimes list no gfx at all is not constrained by this rule.

#include "core/catalog/types.h"

#include <optional>
#include <string>
#include <vector>

namespace sp {

enum class GpuSupport
{
    Native = 0,
    Unconstrained = 0, // no runtime of the profile lists gfx targets
    LibraryPack = 1,
    Override = 2,
    Unsupported = 3,
};

struct ProfileGpuSupport
{
    GpuSupport level = GpuSupport::Unconstrained;
    const GfxOverride* override = nullptr; // set when level == Override
    std::string unsupportedText;           // why, when level == Unsupported
    std::string explanation;               // how it is supported, for the plan's reasons
};

// "10.3.0" -> "gfx1030", "9.0.10" -> "gfx90a"; nullopt for a malformed version.
std::optional<std::string> gfxForOverride(const std::string& hsaOverride);
// "gfx1031" -> "10", "gfx90c" -> "9"; empty for a malformed target.
std::string gfxMajor(const std::string& gfx);

// The ban (policy `gfx_override_bans`) that refuses running `gfx` as `hsaOverride` on
// `os` in profile `p` (its `when_runtime`, if any, is met by one of p's runtimes), or null.
const GfxOverrideBan* overrideBan(const Catalog& cat, const std::string& gfx,
                                  const std::string& hsaOverride, const std::string& os,
                                  const Profile& p);

ProfileGpuSupport profileGfxSupport(const Profile& profile, const Catalog& catalog,
                                    const std::string& gfx, const std::string& os);

// The same for an NVIDIA card: every runtime that lists `supported_cc` must ship
// kernels for the card's major version at the same or a lower minor (CUDA binaries
// run on later minors of their major), or PTX for its architecture or an earlier one
// ("8.0+PTX": the driver compiles it for newer cards). Native or Unsupported.
bool ccRunsBuild(const std::string& cardCc, const std::string& buildCc);
ProfileGpuSupport profileCcSupport(const Profile& profile, const Catalog& catalog,
                                   const std::string& cc);

} // namespace sp
