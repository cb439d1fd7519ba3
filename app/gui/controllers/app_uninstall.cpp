// AppController's Stacks ▸ Uninstall: what removing the current stack frees, measured off
// the GUI thread, then the removal itself (installers/uninstall.h), then a new plan, so
// the card offers to install it again.

#include "app/gui/controllers/app_controller.h"
#include "app/gui/controllers/background.h"
#include "core/paths.h"
#include "core/qt_text.h"

namespace sp::gui {

namespace {

// One step of the removal (planStackRemoval, removeStack) as work for a worker thread:
// the profile's runtimes under <data>/runtimes and its own state under <data>.
template <class Step>
auto stackStep(std::shared_ptr<const LoadedCatalog> catalog, std::string profile, Step step)
{
    return [catalog = std::move(catalog), profile = std::move(profile), step] {
        const PrefixStore store(paths::dataDir() / "runtimes");
        return step(catalog->catalog, store, paths::dataDir(), profile);
    };
}

} // namespace

bool AppController::canUninstall(const QString& workload) const
{
    const PlanView* v = plan(workload);
    return m_catalog && v && !v->profile.isEmpty() && !recordedMachine() && !busy() &&
           !isRunning(workload);
}

void AppController::previewUninstall(const QString& workload,
                                     std::function<void(const StackRemoval&)> then)
{
    if (!canUninstall(workload))
        return;
    runInBackground(this, stackStep(m_catalog, toStd(plan(workload)->profile), planStackRemoval),
                    std::move(then));
}

void AppController::uninstallStack(const QString& workload,
                                   std::function<void(const QString& error, quint64 freed)> done)
{
    if (!canUninstall(workload))
        return;
    runInBackground(
        this, stackStep(m_catalog, toStd(plan(workload)->profile), removeStack),
        [this, done = std::move(done)](const Expected<StackRemoval>& removed) {
            replan(); // what is installed changed: the card says so
            done(removed ? QString() : qs(removed.error().message), removed ? removed->bytes : 0);
        },
        orderedPool());
}

} // namespace sp::gui
