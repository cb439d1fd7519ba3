// `repair`: the runtime's files checked, and a damaged one re-installed through staging;
// for a profile, under its launch lock, its venv and step receipt reset as well. Every
// check runs before anything is removed: a folder that is not StackPilot's stops the
// repair with nothing changed.

#include "app/common/session/session.h"
#include "core/launch/launch_lock.h"
#include "core/launch/profile_env.h"
#include "core/launch/step_receipt.h"
#include "core/paths.h"
#include "installers/install_plan.h"

namespace sp::session {

bool Session::startRepair(RepairWork work)
{
    return begin([this, work = std::move(work)] { runRepair(work); });
}

// The runtimes that need it (not installed, or files missing or changed); an error
// when one cannot be repaired here (a system runtime, a folder not StackPilot's).
Expected<std::vector<const Runtime*>>
Session::damaged(const RepairWork& work, const PrefixStore& store, RepairReport& report) const
{
    std::vector<const Runtime*> out;
    for (const Runtime& rt : work.runtimes) {
        if (rt.system && !work.profile.empty())
            continue; // a profile's system runtime is its installer's to repair
        auto check = checkForRepair(store, rt);
        if (!check)
            return check.error();
        report.problemsBefore += check->problems.size();
        if (check->needed())
            out.push_back(&rt);
    }
    return out;
}

void Session::runRepair(const RepairWork& work)
{
    const std::filesystem::path data = paths::dataDir();
    const PrefixStore store(work.options.prefixRoot.empty() ? PrefixStore::defaultRoot()
                                                            : work.options.prefixRoot);
    RepairReport report;
    report.profile = work.profile;
    // A profile's launch lock: not while it runs (its steps may be filling the venv this
    // removes), and no launch of it until the repair is done.
    std::unique_ptr<LaunchLock> held;
    if (!work.profile.empty()) {
        auto lock = LaunchLock::acquire(data, work.profile);
        if (!lock)
            return finish(fail(Stage::Repair, lock.error()));
        held = std::move(*lock);
    }
    auto todo = damaged(work, store, report);
    if (!todo)
        return finish(fail(Stage::Repair, todo.error()));
    if (!work.profile.empty()) {
        auto reset = resetProfileState(data, work.profile);
        if (!reset)
            return finish(fail(Stage::Repair, reset.error()));
        report.venvRemoved = reset->venvRemoved;
        report.stepsRerunFor = {work.profile};
    } else if (m_ctx.catalog) {
        // Whatever the files say, the setup steps built on this runtime run again.
        for (const Runtime& rt : work.runtimes)
            for (auto& p : clearStepReceiptsUsing(*m_ctx.catalog, rt.id, data))
                report.stepsRerunFor.push_back(std::move(p));
    }
    for (const Runtime* rt : *todo)
        report.damaged.push_back(rt->id);
    Outcome out;
    out.result = true;
    if (!todo->empty()) {
        InstallOptions options = work.options;
        options.force = true;
        auto installed = install(*todo, std::move(options), Stage::Repair);
        if (!installed)
            out.result = installed.error();
        else
            out.installed = std::move(*installed);
    }
    out.repair = std::move(report);
    finish(std::move(out));
}

} // namespace sp::session
