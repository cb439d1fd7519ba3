#pragma once
// The machine a verb plans for, the same way for every verb that plans: --hardware FILE
// (a snapshot from detect --json) or this machine, detected (--no-probes,
// --sysfs-root DIR); and the folders a plan for that snapshot uses.

#include "app/cli/command.h"
#include "core/select/select.h"
#include "core/snapshot.h"

#include <optional>
#include <string>

namespace sp::cli {

// From the options of Option::Machine. On failure prints the reason (naming the file), sets
// *exitCode and returns nullopt.
std::optional<HardwareSnapshot> machineForCli(const QCommandLineParser& p, Io& io, int* exitCode);

} // namespace sp::cli
