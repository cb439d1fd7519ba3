#pragma once
// The plan: what StackPilot will install, set and run for one workload on one
// machine, with the reasons. It is a pure function of (snapshot, catalog, workload,
// settings), so a snapshot from a user's bundle plans the same on any host.

#include "core/catalog/types.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sp {

struct PlanReason
{
    std::string text;
    std::string knownIssue; // empty when the reason is not a known issue
    // Why an available profile ranks below the chosen one, for words a front end picks
    // itself: "chosen" (it ranks higher, but the user chose another by name),
    // "failed-here", "fallback", "evidence", "status", "preference",
    // "unverified-url", "support", "specificity", "older", "same"; empty for a rejection.
    std::string rank = {};
};

struct PlanAlternative
{
    std::string profile;
    std::string verdict; // "rejected" | "available"
    std::vector<PlanReason> reasons;
    bool failedHere = false; // its smoke test failed on this machine (docs/VERIFY.md)
};

struct PlanRuntime
{
    std::string id;
    std::string kind;
    std::string version;
    std::string dir; // where it is (or will be) installed
    bool system = false;
    bool unpinned = false;
    bool urlUnverified = false; // an artifact's URL is seen at no public source
    // Per artifact, where its digest comes from: "catalog", "here" (first seen on this
    // machine) or "new" (pinned when first downloaded). Empty for a system runtime.
    std::vector<std::string> pins;
};

// The GPU a plan is made for, named so a front end can say which card it is.
struct PlanGpu
{
    std::string name, pciBus, pciId;
    std::string target;                   // its gfx target or compute capability; empty: not known
    std::optional<std::int64_t> memoryMb; // VRAM, or shared memory for an iGPU chosen on purpose
    bool integrated = false;
    std::string chosenBy; // "default" | "--gpu" | "settings"
};

// Arguments that a workload's `args_when` added for this card, and why.
struct PlanArgsNote
{
    std::vector<std::string> args;
    UserText why;
};

struct Plan
{
    std::string workload;
    std::string profile; // empty when no profile fits this machine
    ProfileStatus status = ProfileStatus::Experimental;
    std::optional<int> gpu;      // index into the snapshot's gpus
    std::optional<PlanGpu> card; // the GPU the plan is for, as the card shows it
    std::vector<PlanRuntime> runtimes;
    std::map<std::string, std::string> env;
    std::map<std::string, std::string> envWhy; // one explanation per variable in env
    std::vector<std::string> envUnset;
    // Folders to put first on PATH (and LD_LIBRARY_PATH on Linux), in order: the
    // runtimes' `path_dirs`, library packs before the runtimes they extend.
    std::vector<std::string> path;
    std::vector<std::string> command; // the workload's argv, args not included
    std::string cwd;
    std::vector<std::string> args;
    std::vector<PlanArgsNote> argsNotes; // the card-dependent ones among args
    std::vector<std::vector<std::string>> steps;
    // The smoke test's argv (the profile's, else the workload's), expanded; empty: none.
    std::vector<std::string> verify;
    // What this machine's own records say about the profile ("passed on this machine on
    // 2026-11-20", "unverified here: ...", "failed on this machine ..."); empty: nothing.
    std::string localEvidence;
    // What PCs of users said about the chosen profile (its catalog proof), in words:
    // "passed on 20 PCs, 0 failed (last: 2026-11-20)"; "" when the catalog has none.
    std::string sharedEvidence;
    // The profile's own virtual environment (<data>/venvs/<profile>), empty when it
    // has none. StackPilot creates and marks it before the first step, so repair and
    // uninstall may remove it.
    std::string venv;
    std::vector<std::string> warnings;
    std::vector<PlanAlternative> alternatives;
    std::vector<std::string> references;
    // Runtime ids a remedy asked to reinstall before the launch (settings.json).
    std::vector<std::string> repair;
};

nlohmann::json toJson(const Plan& plan);

// The alternatives as a person reads them: those that could run or that a known issue
// rules out get their reasons; those merely made for another GPU, OS or vendor are
// only named (the CLI's and the window's plan views both use this).
struct AlternativeGroups
{
    std::vector<const PlanAlternative*> explained;
    std::vector<std::string> otherMachine; // profile ids
};
AlternativeGroups groupAlternatives(const Plan& plan);

} // namespace sp
