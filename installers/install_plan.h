#pragma once
// What the install, repair and uninstall verbs (and the window's install job) share
// above the Installer: which runtimes an id means, whether a runtime needs a repair,
// and the result of an install as JSON.

#include "core/catalog/types.h"
#include "core/expected.h"
#include "installers/installer.h"
#include "installers/prefix_store.h"
#include "installers/receipt.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sp {

// A profile id gives its runtimes, in order; a runtime id gives itself.
Expected<std::vector<const Runtime*>> runtimesFor(const Catalog& catalog, const std::string& id);

// Repair is verify, then re-install through staging when anything is wrong.
struct RepairCheck
{
    bool installed = false;
    std::vector<VerifyProblem> problems;
    bool needed() const { return !installed || !problems.empty(); }
};
// Refuses a system runtime (repaired only by its own installer) and a folder that is not
// StackPilot's.
Expected<RepairCheck> checkForRepair(const PrefixStore& store, const Runtime& runtime);

nlohmann::json toJson(const InstallResult& result);

} // namespace sp
