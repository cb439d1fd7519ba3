#pragma once
// The Profiles menu, built from the controller's plans: per workload, the recommended
// profile, the others that could run and those rejected (marked, with a confirmation
// that shows why), plus launch/stop. The menu bar and the tray show the same menu
// (rebuilt whenever plans or the running workload change; an open one once it
// closes), so both stay in step. It is a plain QMenu: tests trigger its actions
// without a system tray.

#include <QMenu>
#include <functional>

namespace sp::gui {

class AppController;

class ProfilesMenu : public QMenu
{
    Q_OBJECT
public:
    // Asked before a rejected profile is used: true to use it anyway.
    using Confirm = std::function<bool(const QString& title, const QString& text)>;

    ProfilesMenu(AppController* app, Confirm confirm, QWidget* parent = nullptr);
    void rebuild();
    // The action that selects `profile` of `workload` (for tests), or null.
    QAction* profileAction(const QString& workload, const QString& profile) const;
    QAction* launchAction(const QString& workload) const;
    // Makes `profile` the workload's choice ("" = the recommended one); a rejected one
    // only after the confirmation says why it was rejected.
    void choose(const QString& workload, const QString& profile);
    // Actions kept at the menu's end, below a separator, across rebuilds (the tray's
    // Show and Quit); their owner is the caller.
    void setFooter(const QList<QAction*>& actions);

private:
    void addWorkload(const QString& workload);
    void addFooter();

    AppController* m_app;
    Confirm m_confirm;
    QList<QAction*> m_footer;
    bool m_stale = false; // plans changed while the menu was open
};

} // namespace sp::gui
