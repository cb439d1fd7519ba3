#include "app/gui/widgets/main_window.h"

#include "app/gui/controllers/app_controller.h"
#include "app/gui/i18n.h"
#include "app/gui/widgets/alternatives_view.h"
#include "app/gui/widgets/console_view.h"
#include "app/gui/widgets/diagnostics_dialog.h"
#include "app/gui/widgets/failure_card.h"
#include "app/gui/widgets/gpu_panel.h"
#include "app/gui/widgets/install_panel.h"
#include "app/gui/widgets/mnemonics.h"
#include "app/gui/widgets/plan_dialogs.h"
#include "app/gui/widgets/profile_card.h"
#include "app/gui/widgets/profiles_menu.h"
#include "app/gui/widgets/settings_dialog.h"
#include "app/gui/widgets/style.h"
#include "core/qt_text.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDesktopServices>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QUrl>
#include <QVBoxLayout>

namespace sp::gui {

// What the first frame shows is built here: the GPU panel saying it is detecting, the
// menus and the status bar. The workload chooser, the card with its button, the lists,
// the console, the install panel, the profiles menus and the tray are built right after
// that frame is painted (ensureBuilt), so the window appears at once; every accessor
// builds them on demand too.
MainWindow::MainWindow(AppController* app, QWidget* parent) : QMainWindow(parent), m_app(app)
{
    setWindowTitle(QStringLiteral("StackPilot"));
    buildFrame();
}

void MainWindow::buildFrame()
{
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(16, 12, 16, 8);
    layout->setSpacing(12);
    m_gpu = new GpuPanel(&m_app->gpus(), central);
    layout->addWidget(m_gpu);

    m_body = layout;
    layout->addStretch(1); // where the body goes once it is built
    setCentralWidget(central);
    central->installEventFilter(this);

    buildMenus();
    statusBar()->showMessage(tr("Detecting GPUs…"));

    connect(m_app, &AppController::detected, this, &MainWindow::onDetected);
    connect(m_app, &AppController::plansChanged, this, &MainWindow::onPlansChanged);
    connect(m_app, &AppController::phaseChanged, this, &MainWindow::onPhaseChanged);
    connect(m_app, &AppController::notice, this,
            [this](const QString& text, bool) { statusBar()->showMessage(text); });
    // A theme or language chosen in Settings (or in the file) applies at once.
    connect(m_app, &AppController::settingsChanged, this, [this] {
        style::applyTheme(qs(m_app->settings().theme));
        if (m_app->settings().language != currentLanguage())
            setLanguage(m_app->settings().language);
    });
}

void MainWindow::buildBody()
{
    QWidget* central = centralWidget();
    delete m_body->takeAt(m_body->count() - 1); // the stretch that held the body's place
    auto* split = new QSplitter(Qt::Horizontal, central);
    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(10);
    auto* chooserRow = new QHBoxLayout;
    auto* chooserLabel = new QLabel(tr("&Workload:"), left);
    m_workloads = new QComboBox(left);
    m_workloads->setMinimumWidth(220);
    // A combo box is read by what it holds unless it has a name of its own.
    m_workloads->setAccessibleName(tr("Workload"));
    m_workloads->setAccessibleDescription(tr("The program StackPilot installs and starts"));
    chooserLabel->setBuddy(m_workloads);
    chooserRow->addWidget(chooserLabel);
    chooserRow->addWidget(m_workloads);
    chooserRow->addStretch(1);
    leftLayout->addLayout(chooserRow);
    m_resume = new QLabel(left);
    m_resume->setWordWrap(true);
    m_resume->setTextFormat(Qt::RichText);
    connect(m_resume, &QLabel::linkActivated, this,
            [this](const QString&) { m_app->discardPendingInstall(); });
    m_resume->hide();
    leftLayout->addWidget(m_resume);
    m_leftFailure = new FailureCard(left); // detection
    leftLayout->addWidget(m_leftFailure);
    m_card = new ProfileCard(left);
    m_card->fitPrimaryTo(AppController::primaryTexts());
    leftLayout->addWidget(m_card, 3); // the card first: on a small screen it gets 3/4
    m_alternatives = new AlternativesView(left);
    leftLayout->addWidget(m_alternatives, 1);
    m_alternatives->setMinimumHeight(fontMetrics().height() * 4);
    m_right = new QWidget(split);
    m_rightLayout = new QVBoxLayout(m_right);
    m_rightLayout->setContentsMargins(0, 0, 0, 0);
    split->addWidget(left);
    split->addWidget(m_right);
    split->setStretchFactor(0, 5);
    split->setStretchFactor(1, 4);
    m_body->addWidget(split, 1);
    connect(m_card->primaryButton(), &QPushButton::clicked, this, &MainWindow::onPrimary);
    connect(m_card, &ProfileCard::detailsRequested, this, [this] {
        if (const PlanView* v = m_app->currentPlan())
            (new DetailsDialog(*v, this))->open();
    });
    connect(m_card, &ProfileCard::environmentRequested, this, &MainWindow::openEnvironment);
    connect(m_card, &ProfileCard::settingsRequested, this, &MainWindow::openSettings);
    connect(m_card, &ProfileCard::gpuChosen, this,
            [this](int gpu) { m_app->setGpuFor(m_app->workload(), gpu); });
    connect(m_card, &ProfileCard::modelChosen, this,
            [this](const QString& model) { m_app->setModelFor(m_app->workload(), model); });
    connect(m_app, &AppController::modelsChanged, this, &MainWindow::showChoices);
    connect(m_alternatives, &AlternativesView::chooseRequested, this,
            [this](const QString& profile) { profilesMenu()->choose(m_app->workload(), profile); });
    connect(m_workloads, &QComboBox::activated, this,
            [this](int i) { m_app->setWorkload(m_workloads->itemData(i).toString()); });
}

void MainWindow::ensureBuilt()
{
    if (m_console)
        return;
    // Reading the icon's PNGs is not worth delaying the first frame for.
    QIcon icon;
    for (const char* size : {"32", "64", "256"})
        icon.addFile(QStringLiteral(":/icons/stackpilot-%1.png").arg(QLatin1String(size)));
    setWindowIcon(icon);
    keepMnemonics(); // after the first frame: the frame alone has no button
    buildBody();
    m_failure = new FailureCard(m_right); // an install, or the workload's end
    m_rightLayout->addWidget(m_failure);
    m_install = new InstallPanel(&m_app->installProgress(), m_right);
    m_install->setRuntimeNames([this](const QString& id) {
        return m_app->catalog() ? runtimeLabel(*m_app->catalog(), toStd(id)) : QString();
    });
    m_install->hide();
    m_rightLayout->addWidget(m_install);
    m_console = new ConsoleView(&m_app->console(), m_right);
    connect(&m_app->console(), &QAbstractItemModel::rowsInserted, this,
            &MainWindow::updateConsoleShown);
    m_rightLayout->addWidget(m_console, 1);
    m_profiles = new ProfilesMenu(
        m_app, [this](const QString& t, const QString& x) { return confirm(t, x); }, this);
    menuBar()->insertMenu(m_viewMenu->menuAction(), m_profiles);
    buildUninstall();
    connectSharing();
    buildTray();
    setFocusOrder();
    connectDeferred();
    onPlansChanged();
    // Built again in another language: the GPU panel and the status bar say again what
    // detection found (a PC with no GPU included), with no new detection.
    if (!m_app->detectionError().isEmpty() || m_app->detectionDone())
        onDetected();
    giveMnemonics(this);
}

void MainWindow::connectDeferred()
{
    connect(m_app, &AppController::knownIssue, this, &MainWindow::onKnownIssue);
    connect(m_app, &AppController::runsChanged, this, &MainWindow::onPhaseChanged);
    connect(m_app, &AppController::stepChanged, this, [this](const QString& text, bool running) {
        m_stepsRunning = running;
        m_install->setStep(text);
        statusBar()->showMessage(text);
        onPhaseChanged();
    });
    connect(m_app, &AppController::urlAnnounced, this, [this](const QString& url) {
        m_console->setUrl(url);
        m_trayOpen->setEnabled(true);
        statusBar()->showMessage(
            tr("%1 is ready at %2").arg(m_app->workloadName(m_app->runningWorkload()), url));
        if (m_app->settings().openBrowser)
            QDesktopServices::openUrl(QUrl(url));
    });
    connect(m_app, &AppController::launchStarted, m_console, &ConsoleView::setLogPath);
    connect(m_app, &AppController::confirmInstall, this, &MainWindow::onConfirmInstall);
    connect(m_console, &ConsoleView::openUrlRequested, this,
            [](const QString& url) { QDesktopServices::openUrl(QUrl(url)); });
    connect(m_console, &ConsoleView::remedyRequested, this, [this](const QString& id) {
        m_console->clearIssue();
        if (!m_lastNotice.switchTo.isEmpty())
            m_app->switchStack(m_lastNotice.switchTo);
        else
            m_app->applyRemedy(id);
    });
    connect(m_console, &ConsoleView::whyRequested, this, &MainWindow::showWhy);
    connect(m_install, &InstallPanel::cancelRequested, this, &MainWindow::askCancelInstall);
    connect(m_app, &AppController::failure, this, &MainWindow::onFailure);
    connect(m_app, &AppController::failureCleared, this, [this] {
        m_failure->hide();
        m_leftFailure->hide();
    });
    for (FailureCard* card : {m_failure, m_leftFailure})
        connect(card, &FailureCard::actionRequested, this, &MainWindow::onFailureAction);
    if (const auto& f = m_app->currentFailure())
        onFailure(*f);
}

void MainWindow::buildTray()
{
    m_trayProfiles = new ProfilesMenu(
        m_app, [this](const QString& t, const QString& x) { return confirm(t, x); }, this);
    auto* show = new QAction(tr("Show StackPilot"), this);
    connect(show, &QAction::triggered, this, [this] {
        showNormal();
        raise();
        activateWindow();
    });
    auto* quit = new QAction(tr("Quit StackPilot"), this);
    quit->setObjectName(QStringLiteral("quit"));
    connect(quit, &QAction::triggered, this, &MainWindow::requestQuit);
    // The workload's page, one click from the tray while it serves one.
    m_trayOpen = new QAction(tr("Open in browser"), this);
    m_trayOpen->setObjectName(QStringLiteral("open-browser"));
    m_trayOpen->setEnabled(false);
    connect(m_trayOpen, &QAction::triggered, this,
            [this] { QDesktopServices::openUrl(QUrl(m_app->url())); });
    m_trayProfiles->setFooter({m_trayOpen, show, quit});
    // On X11 the icon is made even when no tray host runs yet: Qt adds it once one
    // appears (a panel that starts after StackPilot). Elsewhere, no tray is no tray.
    if (!QSystemTrayIcon::isSystemTrayAvailable() &&
        QGuiApplication::platformName() != QLatin1String("xcb"))
        return; // the menu still exists (tests use it); there is nowhere to show it
    m_tray = new QSystemTrayIcon(windowIcon(), this);
    m_tray->setContextMenu(m_trayProfiles);
    m_tray->setToolTip(QStringLiteral("StackPilot"));
    connect(m_tray, &QSystemTrayIcon::activated, this,
            [this, show](QSystemTrayIcon::ActivationReason r) {
                if (r == QSystemTrayIcon::Trigger)
                    show->trigger();
            });
    m_tray->show();
}

void MainWindow::setConfirm(std::function<bool(const QString&, const QString&)> confirm)
{
    m_confirm = std::move(confirm);
}

bool MainWindow::confirm(const QString& title, const QString& text)
{
    if (m_confirm)
        return m_confirm(title, text);
    return QMessageBox::question(this, title, text, QMessageBox::Yes | QMessageBox::No,
                                 QMessageBox::No) == QMessageBox::Yes;
}

void MainWindow::onDetected()
{
    if (!m_app->detectionError().isEmpty()) {
        m_gpu->showError(tr("The graphics card could not be detected. The card below says "
                            "what you can do."));
        return;
    }
    m_gpu->refresh();
    if (m_app->recordedMachine())
        m_gpu->setRecorded(qpath(m_app->recordedFile().filename()));
    const int n = int(m_app->snapshot().gpus.size());
    statusBar()->showMessage(n == 0 ? tr("No GPU found. CPU-only stacks are still available.")
                                    : tr("%n GPU(s) found.", nullptr, n));
}

void MainWindow::onPlansChanged()
{
    if (!m_card)
        return; // ensureBuilt shows the plans once the body exists
    const QStringList ids = m_app->workloads();
    if (m_workloads->count() != ids.size()) {
        m_workloads->clear();
        for (const QString& id : ids)
            m_workloads->addItem(m_app->workloadName(id), id);
    }
    m_workloads->setCurrentIndex(std::max(0, m_workloads->findData(m_app->workload())));
    const PlanView* v = m_app->currentPlan();
    updateWorkloadHelp();
    m_card->setPlan(v);
    showChoices();
    if (m_alternatives)
        m_alternatives->setPlan(v);
    onPhaseChanged();
    // The first plans: the workload chooser is usable now, and where a keyboard starts.
    const QWidget* focus = focusWidget();
    if (!focus || (m_console && m_console->isAncestorOf(focus) && !focus->hasFocus()))
        m_workloads->setFocus(Qt::OtherFocusReason);
}

void MainWindow::onPhaseChanged()
{
    if (!m_card)
        return;
    using Phase = AppController::Phase;
    QPushButton* primary = m_card->primaryButton();
    QSet<QChar> keys = usedMnemonics(this, primary);
    primary->setText(m_app->primaryText());
    giveMnemonic(primary, keys); // its own letter for each text: &Launch, St&op
    primary->setEnabled(m_app->primaryEnabled());
    primary->setToolTip(m_app->primaryToolTip());
    m_detectAgain->setEnabled(!m_app->busy());
    m_uninstall->setEnabled(m_app->canUninstall(m_app->workload()));
    updateConsoleShown();
    const Phase p = m_app->phase();
    // The panel shows the install, then the setup steps while they run.
    const bool steps = p == Phase::Launching && m_stepsRunning;
    if (m_install) {
        m_install->setVisible(p == Phase::Installing || steps);
        if (p == Phase::Installing) {
            m_install->setStep({});
            m_install->refresh();
        } else if (steps) {
            m_install->showSteps(m_app->catalog()
                                     ? stackTitle(*m_app->catalog(), toStd(m_app->runningProfile()))
                                     : QString());
        }
    }
    // Another workload may be launched beside a running one (each on its own GPU); the
    // chooser marks the ones that run.
    m_workloads->setEnabled(p == Phase::Ready || p == Phase::Running);
    for (int i = 0; i < m_workloads->count(); ++i)
        markWorkload(i);
    m_card->setChoicesEnabled(!m_app->isRunning(m_app->workload()) &&
                              (p == Phase::Ready || p == Phase::Running));
    if (m_console && m_app->url().isEmpty())
        m_console->setUrl({}); // "Open in browser" only while the workload serves it
    if (m_trayOpen)
        m_trayOpen->setEnabled(!m_app->url().isEmpty());
    const auto pending = m_app->pendingInstall();
    m_resume->setVisible(pending.has_value() && p == Phase::Ready);
    if (pending) {
        const QString when = QLocale().toString(
            QDateTime::fromString(qs(pending->started), Qt::ISODate).toLocalTime(),
            QLocale::ShortFormat);
        const QString name = m_app->workloadName(qs(pending->workload));
        const QString stack =
            m_app->catalog() ? stackTitle(*m_app->catalog(), pending->profile) : QString();
        // A failed install is not an interrupted one: it is retried, not resumed; either
        // may be discarded (the link).
        const QString text =
            pending->failed.empty()
                ? tr("An install for %1 (%2) was interrupted %3. Press “Resume install” to "
                     "continue where it stopped.")
                      .arg(name, stack, when)
                : tr("An install for %1 (%2) failed %3. Press “Retry install” to try again.")
                      .arg(name, stack, when);
        m_resume->setText(QStringLiteral("%1 <a href=\"discard\">%2</a>")
                              .arg(text.toHtmlEscaped(), tr("Discard it")));
    }
    if (m_tray)
        m_tray->setToolTip(runningNames().isEmpty()
                               ? QStringLiteral("StackPilot")
                               : tr("StackPilot — running %1").arg(runningNames()));
}

void MainWindow::onKnownIssue(const KnownIssueNotice& n)
{
    m_lastNotice = n;
    m_whyText =
        n.excerpt.isEmpty()
            ? tr("<p><b>%1</b></p><p>%2</p>").arg(n.title.toHtmlEscaped(), n.remedy.toHtmlEscaped())
            : tr("<p><b>%1</b></p><p>Line %2 of the log:</p><pre>%3</pre><p>%4</p>")
                  .arg(n.title.toHtmlEscaped())
                  .arg(n.line)
                  .arg(n.excerpt.toHtmlEscaped(), n.remedy.toHtmlEscaped());
    if (!n.references.isEmpty()) {
        QStringList links;
        for (const QString& r : n.references)
            links << QStringLiteral("<a href=\"%1\">%1</a>").arg(r.toHtmlEscaped());
        m_whyText += tr("<p>Evidence:</p>") + links.join(QStringLiteral("<br>"));
    }
    m_console->showIssue(n);
}

void MainWindow::showWhy()
{
    auto* box = new QMessageBox(QMessageBox::Information, tr("Why StackPilot thinks so"), m_whyText,
                                QMessageBox::Close, this);
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::openSettings()
{
    auto* dlg = new SettingsDialog(m_app->settings(), this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QDialog::accepted, this, [this, dlg] {
        QString error;
        auto apply = dlg->changes(&error);
        if (!error.isEmpty()) {
            statusBar()->showMessage(error);
            return;
        }
        m_app->updateSettings(apply, [this](const QString& why) {
            statusBar()->showMessage(why.isEmpty() ? tr("Settings saved.") : why);
        });
    });
    dlg->open();
}

void MainWindow::openEnvironment()
{
    const auto composed = m_app->composedEnvironment();
    if (!composed) {
        statusBar()->showMessage(tr("No stack is chosen, so there is no environment to show."));
        return;
    }
    // The dialog names the stack as the card does (no profile id).
    auto* dlg = new EnvironmentDialog(*composed, m_app->currentPlan()->title, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->open();
}

// Closing the window never stops a workload or an install silently: it asks, as
// File > Quit does. Keeping it running needs a tray host to come back from.
void MainWindow::closeEvent(QCloseEvent* e)
{
    if (m_app->busy() && !m_quitting) {
        const bool tray = m_tray && QSystemTrayIcon::isSystemTrayAvailable();
        QStringList options{tr("Stop and quit")};
        if (tray)
            options << tr("Keep running in the tray");
        options << tr("Cancel");
        const QString running = runningNames();
        const QString text =
            running.isEmpty()
                ? tr("An install is in progress. If you quit now, you can resume it the next "
                     "time you start StackPilot.")
                : tr("%1 is running. Closing StackPilot stops it.").arg(running);
        const int chosen = choose(tr("Close StackPilot?"), text, options);
        if (chosen < 0 || chosen == options.size() - 1) {
            e->ignore();
            return;
        }
        if (tray && chosen == 1) {
            hide();
            e->ignore();
            return;
        }
    }
    // The session ends the workload's whole tree when the controller goes; stopping now
    // lets it go gracefully.
    m_app->stopAll();
    QMainWindow::closeEvent(e);
}

int MainWindow::choose(const QString& title, const QString& text, const QStringList& options)
{
    if (m_choose)
        return m_choose(title, text, options);
    QMessageBox box(QMessageBox::Question, title, text, QMessageBox::NoButton, this);
    QList<QAbstractButton*> buttons;
    for (const QString& o : options)
        buttons << box.addButton(o, o == options.back() ? QMessageBox::RejectRole
                                                        : QMessageBox::AcceptRole);
    box.setEscapeButton(buttons.back());
    box.exec();
    return int(buttons.indexOf(box.clickedButton()));
}

bool MainWindow::eventFilter(QObject* watched, QEvent* e)
{
    // The first paint of the window's content (what the start-up benchmark times);
    // the rest of the window is built right after it.
    if (e->type() == QEvent::Paint && !m_painted && watched == centralWidget()) {
        m_painted = true;
        QMetaObject::invokeMethod(this, &MainWindow::firstPainted, Qt::QueuedConnection);
        QMetaObject::invokeMethod(this, &MainWindow::ensureBuilt, Qt::QueuedConnection);
    }
    return QMainWindow::eventFilter(watched, e);
}

} // namespace sp::gui
