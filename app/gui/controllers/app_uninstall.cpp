// AppController's Stacks ▸ Uninstall: what removing the current stack frees, measured off
// the GUI thread, then the removal itself (installers/uninstall.h), then a new plan, so
// the card offers to install it again.

#include "app/gui/controllers/app_controller.h"
#include "app/gui/controllers/background.h"
#include "core/paths.h"
#include "core/qt_text.h"

namespace sp::gui {

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
    runInBackground(
        this,
        [catalog = m_catalog, profile = toStd(plan(workload)->profile)] {
            const PrefixStore store(paths::dataDir() / "runtimes");
            return planStackRemoval(catalog->catalog, store, paths::dataDir(), profile);
        },
        std::move(then));
}

void AppController::uninstallStack(const QString& workload,
                                   std::function<void(const QString& error, quint64 freed)> done)
{
    if (!canUninstall(workload))
        return;
    runInBackground(
        this,
        [catalog = m_catalog, profile = toStd(plan(workload)->profile)] {
            const PrefixStore store(paths::dataDir() / "runtimes");
            return removeStack(catalog->catalog, store, paths::dataDir(), profile);
        },
        [this, done = std::move(done)](const Expected<StackRemoval>& removed) {
            replan(); // what is installed changed: the card says so
            done(removed ? QString() : qs(removed.error().message), removed ? removed->bytes : 0);
        },
        orderedPool());
}

} // namespace sp::gui
