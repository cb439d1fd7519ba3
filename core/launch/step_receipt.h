#pragma once
// Setup steps (venv creation, pip installs, source builds) run once: after they all
// succeed, a step receipt records the hash of the steps and of the runtimes they ran
// with. The next launch skips them while the hash is the same; a change of steps or
// runtimes, or a repair (which removes the receipt), runs them again. A failed step
// writes nothing, so it runs again next time.
//
// <data>/steps/<profile>.json: {"hash": "...", "completed": "ISO time", "steps": N}

#include "core/catalog/types.h"
#include "core/expected.h"
#include "core/select/plan.h"

#include <filesystem>
#include <string>

namespace sp {

// SHA-256 over the steps (argv after placeholders), the variables the profile sets
// and the plan's runtimes (id, kind, version, folder). Not the user's whole
// environment: a new terminal must not rerun a pip install.
std::string stepsHash(const Plan& plan);

std::filesystem::path stepReceiptFile(const std::filesystem::path& dataDir,
                                      const std::string& profile);
// True when the receipt exists and records this hash.
bool stepsAlreadyDone(const std::filesystem::path& receipt, const std::string& hash);
Expected<void> writeStepReceipt(const std::filesystem::path& receipt, const std::string& hash,
                                std::size_t steps, const std::string& completed);
// Removes the receipt (repair); true when there was one.
bool clearStepReceipt(const std::filesystem::path& receipt);
// `repair RUNTIME`: the steps of every profile that uses the runtime run again at
// their next launch. Returns the profiles whose receipt was removed.
std::vector<std::string> clearStepReceiptsUsing(const Catalog& catalog,
                                                const std::string& runtimeId,
                                                const std::filesystem::path& dataDir);

} // namespace sp
