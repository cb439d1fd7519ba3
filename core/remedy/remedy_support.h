#pragma once
// Internals shared by core/remedy/*.cpp.

#include "core/settings.h"

#include <string>

namespace sp::remedy_support {

// The record of issue `issue` applied to `workload`, or null.
const AppliedRemedy* findApplied(const Settings& s, const std::string& workload,
                                 const std::string& issue);

} // namespace sp::remedy_support
