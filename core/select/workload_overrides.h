#pragma once
// The one place settings.json's per-workload overrides (written by remedies) become
// selection settings, so the CLI and the window plan the same way.

#include "core/select/select.h"
#include "core/settings.h"

#include <string>

namespace sp {

// `base` with the overrides of `workload` from the settings: env, args,
// relocate_caches and repair are added; the settings' profile is used only when
// `base` forces none (a profile chosen on the command line wins).
SelectSettings selectSettingsFor(const Settings& settings, const std::string& workload,
                                 SelectSettings base);

} // namespace sp
