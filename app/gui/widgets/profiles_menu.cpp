#include "app/gui/widgets/profiles_menu.h"

#include "app/gui/controllers/app_controller.h"
#include "app/gui/models/plan_view.h"
#include "core/qt_text.h"

#include <QActionGroup>

namespace sp::gui {

ProfilesMenu::ProfilesMenu(AppController* app, Confirm confirm, QWidget* parent)
    : QMenu(tr("&Stacks"), parent), m_app(app), m_confirm(std::move(confirm))
{
    connect(m_app, &AppController::plansChanged, this, &ProfilesMenu::rebuild);
    connect(m_app, &AppController::phaseChanged, this, &ProfilesMenu::rebuild);
    connect(m_app, &AppController::runsChanged, this, &ProfilesMenu::rebuild);
    connect(this, &QMenu::aboutToHide, this, [this] {
        if (m_stale) // after the chosen action has run
            QMetaObject::invokeMethod(this, &ProfilesMenu::rebuild, Qt::QueuedConnection);
    });
    rebuild();
}

void ProfilesMenu::rebuild()
{
    // An open menu keeps its actions until it closes: one rebuilt under the pointer
    // would lose the submenu the user is in, and the action about to be clicked.
    m_stale = isVisible();
    if (m_stale)
        return;
    clear();
    // Submenus are children, not actions: clear() leaves them. They go later, since
    // a rebuild can start from one of their own actions.
    for (QMenu* old : findChildren<QMenu*>(QString(), Qt::FindDirectChildrenOnly)) {
        old->setObjectName(QString());
        old->deleteLater();
    }
    if (m_app->workloads().isEmpty()) {
        addAction(tr("Detecting…"))->setEnabled(false);
        addFooter();
        return;
    }
    // Each running workload with the card it runs on, and its own Stop.
    for (const QString& w : m_app->runningWorkloads()) {
        const QString gpu = m_app->runningGpu(w);
        addAction(gpu.isEmpty() ? tr("Running: %1").arg(m_app->workloadName(w))
                                : tr("Running: %1 on %2").arg(m_app->workloadName(w), gpu))
            ->setEnabled(false);
        QAction* stop = addAction(tr("Stop %1").arg(m_app->workloadName(w)));
        stop->setObjectName(QStringLiteral("stop:") + w);
        connect(stop, &QAction::triggered, this, [this, w] { m_app->stopWorkload(w); });
    }
    if (!m_app->runningWorkloads().isEmpty())
        addSeparator();
    for (const QString& w : m_app->workloads())
        addWorkload(w);
    addFooter();
}

void ProfilesMenu::setFooter(const QList<QAction*>& actions)
{
    m_footer = actions;
    rebuild();
}

void ProfilesMenu::addFooter()
{
    if (m_footer.isEmpty())
        return;
    addSeparator();
    addActions(m_footer); // not owned by the menu, so clear() leaves them alive
}

void ProfilesMenu::addWorkload(const QString& workload)
{
    const PlanView* v = m_app->plan(workload);
    QMenu* sub = addMenu(m_app->workloadName(workload));
    sub->setObjectName(QStringLiteral("workload:") + workload);
    if (!v) {
        sub->addAction(tr("Planning…"))->setEnabled(false);
        return;
    }
    auto* group = new QActionGroup(sub);
    const bool forced = m_app->profileForced(workload);
    QAction* automatic = sub->addAction(tr("Recommended automatically"));
    automatic->setCheckable(true);
    automatic->setChecked(!forced);
    automatic->setObjectName(QStringLiteral("profile:"));
    group->addAction(automatic);
    connect(automatic, &QAction::triggered, this, [this, workload] { choose(workload, {}); });
    sub->addSeparator();
    auto add = [&](const QString& id, const QString& title, bool rejected, const QString& why) {
        QAction* a = sub->addAction(rejected ? tr("%1 — not for this PC").arg(title) : title);
        a->setObjectName(QStringLiteral("profile:") + id);
        a->setCheckable(true);
        a->setChecked(forced && id == v->profile);
        a->setToolTip(why);
        if (rejected)
            a->setIcon(QIcon::fromTheme(QStringLiteral("dialog-warning")));
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, workload, id] { choose(workload, id); });
    };
    // The recommended stack is marked (when the user chose another, the automatic entry
    // above is it); a stack on the processor says it is slower.
    const auto onCpu = [this](const QString& id) {
        const Profile* p = m_app->catalog() ? m_app->catalog()->profile(toStd(id)) : nullptr;
        return (p && p->fallback) || m_app->snapshot().gpus.empty();
    };
    const auto label = [&](const QString& id, const QString& title) {
        return onCpu(id) ? tr("%1 (on the processor, slower)").arg(title) : title;
    };
    if (!v->profile.isEmpty())
        add(v->profile,
            forced ? label(v->profile, v->title)
                   : tr("%1 — recommended").arg(label(v->profile, v->title)),
            false, {});
    for (const AlternativeRow& a : v->alternatives)
        add(a.profile, label(a.profile, a.title), a.rejected, a.plainReason);
    sub->addSeparator();
    // docs/VERIFY.md: the last stack whose smoke test passed on this PC.
    QAction* back = sub->addAction(tr("Back to the last stack that worked here"));
    back->setObjectName(QStringLiteral("rollback"));
    back->setEnabled(!m_app->recordedMachine());
    connect(back, &QAction::triggered, this, [this, workload] {
        m_app->setWorkload(workload);
        m_app->rollbackStack();
    });
    // Another workload may start beside running ones (each on the GPU chosen for it).
    const bool running = m_app->isRunning(workload);
    const auto phase = m_app->phase();
    QAction* go = sub->addAction(running ? tr("Stop %1").arg(m_app->workloadName(workload))
                                         : tr("Launch %1").arg(m_app->workloadName(workload)));
    go->setObjectName(QStringLiteral("launch"));
    go->setEnabled(running || ((phase == AppController::Phase::Ready ||
                                phase == AppController::Phase::Running) &&
                               !m_app->recordedMachine() && !v->profile.isEmpty()));
    connect(go, &QAction::triggered, this, [this, workload, running] {
        if (running) {
            m_app->stopWorkload(workload);
            return;
        }
        m_app->setWorkload(workload);
        m_app->launch();
    });
}

void ProfilesMenu::choose(const QString& workload, const QString& profile)
{
    const PlanView* v = m_app->plan(workload);
    const AlternativeRow* row = nullptr;
    if (v)
        for (const AlternativeRow& a : v->alternatives)
            if (a.profile == profile)
                row = &a;
    if (row && row->rejected &&
        !m_confirm(tr("Use a stack StackPilot advises against?"),
                   tr("%1 is not advised on this PC:\n\n%2\n\nUse it anyway?")
                       .arg(row->title, row->plainReason))) {
        rebuild(); // put the check marks back
        return;
    }
    m_app->chooseProfile(workload, profile, row && row->rejected);
}

QAction* ProfilesMenu::profileAction(const QString& workload, const QString& profile) const
{
    auto* sub = findChild<QMenu*>(QStringLiteral("workload:") + workload);
    return sub ? sub->findChild<QAction*>(QStringLiteral("profile:") + profile) : nullptr;
}

QAction* ProfilesMenu::launchAction(const QString& workload) const
{
    auto* sub = findChild<QMenu*>(QStringLiteral("workload:") + workload);
    return sub ? sub->findChild<QAction*>(QStringLiteral("launch")) : nullptr;
}

} // namespace sp::gui
