#pragma once
// The main window: the GPU panel, the workload chooser, the recommended profile's card
// with the one primary button, the other profiles, install progress and the console.
// It only shows the AppController's state and forwards clicks to it; the profiles
// menu is shared by the menu bar and the tray.

#include "app/gui/controllers/app_controller.h"

#include <QMainWindow>
#include <functional>

class QComboBox;
class QLabel;
class QSystemTrayIcon;
class QVBoxLayout;

namespace sp::gui {

class AlternativesView;
class AppController;
class ConsoleView;
class FailureCard;
class GpuPanel;
class InstallPanel;
class ModelsDialog;
class ProfileCard;
class ProfilesMenu;
struct KnownIssueNotice;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(AppController* app, QWidget* parent = nullptr);

    // Asked before a rejected profile is used (tests answer it themselves).
    void setConfirm(std::function<bool(const QString&, const QString&)> confirm);
    // How "share this result?" is asked (tests answer it): question, the record's text.
    using ShareAsk = std::function<ShareAnswer(const QString&, const QString&)>;
    void setShareAsk(ShareAsk ask) { m_shareAsk = std::move(ask); }
    // How a question with several answers is asked (tests answer it): the index chosen.
    using Chooser = std::function<int(const QString&, const QString&, const QStringList&)>;
    void setChoose(Chooser choose) { m_choose = std::move(choose); }

    AppController* app() const { return m_app; }
    GpuPanel* gpuPanel() const { return m_gpu; }
    ProfileCard* card()
    {
        ensureBuilt();
        return m_card;
    }
    // Built after the first paint; these build them now if that has not happened yet.
    InstallPanel* installPanel()
    {
        ensureBuilt();
        return m_install;
    }
    FailureCard* failureCard()
    {
        ensureBuilt();
        return m_failure;
    }
    FailureCard* detectionFailureCard()
    {
        ensureBuilt();
        return m_leftFailure;
    }
    ConsoleView* console()
    {
        ensureBuilt();
        return m_console;
    }
    ProfilesMenu* profilesMenu()
    {
        ensureBuilt();
        return m_profiles;
    }
    ProfilesMenu* trayMenu()
    {
        ensureBuilt();
        return m_trayProfiles;
    }
    void ensureBuilt();
    QComboBox* workloadChooser()
    {
        ensureBuilt();
        return m_workloads;
    }
    QAction* diagnosticsAction() const { return m_diagAction; }
    QAction* detectAgainAction() const { return m_detectAgain; }
    QAction* consoleAction() const { return m_consoleAction; }
    void openSettings();
    void openEnvironment();
    // View > Models: the vault and the catalog's models (ModelsDialog).
    ModelsDialog* openModels();
    // Quit from the menu or the tray: asks first while a workload runs or installs.
    void requestQuit();

signals:
    void firstPainted();

protected:
    void closeEvent(QCloseEvent* e) override;
    void changeEvent(QEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void buildFrame();
    void rebuildInLanguage();
    void buildMenus();
    void connectDeferred();
    void buildBody();
    void buildTray();
    void setFocusOrder();
    void updateConsoleShown();
    void askCancelInstall();
    void onDetected();
    void onPlansChanged();
    void onPhaseChanged();
    void markWorkload(int index);
    void buildUninstall();
    void askUninstall();
    void updateWorkloadHelp();
    void connectSharing();
    void showChoices();
    QString modelChoiceText(const QString& id) const;
    QString runningNames() const;
    void onKnownIssue(const KnownIssueNotice& n);
    void onPrimary();
    void onConfirmInstall(const QString& title, const QString& headline,
                          const QStringList& checklist);
    void onFailure(const FailureNotice& f);
    void onFailureAction(FailureNotice::Action action);
    void copyForUser(const QString& text, const QString& done); // clipboard, and says so
    void showWhy();
    bool confirm(const QString& title, const QString& text);

    AppController* m_app;
    GpuPanel* m_gpu = nullptr;
    QComboBox* m_workloads = nullptr;
    ProfileCard* m_card = nullptr;
    AlternativesView* m_alternatives = nullptr;
    InstallPanel* m_install = nullptr;
    FailureCard* m_failure = nullptr;     // right: an install, or the workload's end
    FailureCard* m_leftFailure = nullptr; // left, in the card's place: detection
    ConsoleView* m_console = nullptr;
    QLabel* m_resume = nullptr;
    QVBoxLayout* m_body = nullptr; // the central layout; the body joins it after first paint
    QVBoxLayout* m_rightLayout = nullptr;
    QWidget* m_right = nullptr;
    QMenu* m_viewMenu = nullptr;
    ProfilesMenu* m_profiles = nullptr;
    ProfilesMenu* m_trayProfiles = nullptr;
    QSystemTrayIcon* m_tray = nullptr;
    QAction* m_diagAction = nullptr;
    QAction* m_detectAgain = nullptr;
    QAction* m_uninstall = nullptr;    // Stacks ▸ Uninstall this stack…
    QAction* m_workloadHelp = nullptr; // Help ▸ <workload>'s own site
    ShareAsk m_shareAsk;
    QAction* m_consoleAction = nullptr;
    QAction* m_trayOpen =
        nullptr; // the tray's "Open in browser" // View ▸ Console: shown even while nothing runs
    std::function<bool(const QString&, const QString&)> m_confirm;
    Chooser m_choose;
    bool m_quitting = false; // Quit asked already: closing the window asks no more
    int choose(const QString& title, const QString& text, const QStringList& options);

    QString m_whyText;
    KnownIssueNotice m_lastNotice; // what the banner's button acts on
    bool m_painted = false;
    bool m_relabelQueued = false;
    bool m_stepsRunning = false;
};

} // namespace sp::gui
