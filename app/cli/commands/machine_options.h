#pragma once
// The machine a verb plans for, the same way for every verb that plans: --hardware FILE
// (a snapshot from detect --json) or this machine, detected (--no-probes,
// --sysfs-root DIR); with the catalog, what such a verb starts from.

#include "app/cli/command.h"
#include "app/cli/commands/catalog_common.h"
#include "core/select/select.h"
#include "core/snapshot.h"

#include <optional>
#include <string>

namespace sp::cli {

// From the options of Option::Machine. On failure prints the reason (naming the file), sets
// *exitCode and returns nullopt.
std::optional<HardwareSnapshot> machineForCli(const QCommandLineParser& p, Io& io, int* exitCode);

// What a verb that plans starts from: the catalog and the machine.
struct Planning
{
    LoadedCatalog loaded;
    HardwareSnapshot machine;
    std::string gpuSpec; // --gpu as typed, checked against the machine; "" when not given
};

// Loads the catalog, then the machine. A `workload`, when given, must be one of the
// catalog's ("stackpilot-cli VERB: unknown workload W", exit 2); it is checked first, so
// that nothing is detected for a typo. On failure prints the reason, sets *exitCode and
// returns nullopt.
std::optional<Planning> planningForCli(const QCommandLineParser& p, Io& io, const std::string& verb,
                                       int* exitCode, const std::string* workload = nullptr);

// A verb on one PROFILE or WORKLOAD for the machine it plans for (verify-stack, rollback,
// bench): its argument is checked ("expected one PROFILE", exit 2) and its Planning
// loaded before runOn does the verb's work.
class OnMachineCommand : public Command
{
public:
    enum class Argument
    {
        Profile,
        Workload,
    };
    explicit OnMachineCommand(Argument argument) : m_argument(argument) {}
    int run(const QCommandLineParser& p, Io& io) final;

protected:
    virtual int runOn(const std::string& id, Planning& in, const QCommandLineParser& p, Io& io) = 0;

private:
    void addOptions(QCommandLineParser& p) final;
    Argument m_argument;
};

} // namespace sp::cli
