// MainWindow's answers to the user: the checklist before an install, the failure cards'
// actions, Quit, the rebuild in a new language, the menus, and the order Tab goes in.
#include "app/common/session/plans.h"
#include "app/gui/i18n.h"
#include "app/gui/models/plan_view.h"
#include "app/gui/widgets/alternatives_view.h"
#include "app/gui/widgets/console_view.h"
#include "app/gui/widgets/diagnostics_dialog.h"
#include "app/gui/widgets/failure_card.h"
#include "app/gui/widgets/install_panel.h"
#include "app/gui/widgets/main_window.h"
#include "app/gui/widgets/models_dialog.h"
#include "app/gui/widgets/profile_card.h"
#include "app/gui/widgets/profiles_menu.h"
#include "app/gui/widgets/share_dialog.h"
#include "core/format.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "core/select/select.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QUrl>
#include <algorithm>
#include <utility>

namespace sp::gui {

void MainWindow::changeEvent(QEvent* e)
{
    // Installing a translator sends one event per widget: the window is rebuilt once.
    if (e->type() == QEvent::LanguageChange && !std::exchange(m_relabelQueued, true))
        QMetaObject::invokeMethod(this, &MainWindow::rebuildInLanguage, Qt::QueuedConnection);
    QMainWindow::changeEvent(e);
}

// Every widget of the window is made again with the new language's strings; the
// controller keeps all state and plans again, since a plan's words are made with it.
void MainWindow::rebuildInLanguage()
{
    m_relabelQueued = false;
    const bool built = m_console != nullptr;
    m_app->disconnect(this);
    menuBar()->clear();
    qDeleteAll(menuBar()->findChildren<QMenu*>(QString(), Qt::FindDirectChildrenOnly));
    delete m_profiles;
    delete m_trayProfiles;
    delete m_tray;
    delete takeCentralWidget();
    m_gpu = nullptr;
    m_workloads = nullptr;
    m_card = nullptr;
    m_alternatives = nullptr;
    m_install = nullptr;
    m_failure = m_leftFailure = nullptr;
    m_console = nullptr;
    m_resume = nullptr;
    m_profiles = m_trayProfiles = nullptr;
    m_tray = nullptr;
    buildFrame();
    if (built)
        ensureBuilt();
    m_app->relabel();
}

// The primary button: the session's run asks before it installs (onConfirmInstall).
void MainWindow::onPrimary()
{
    if (m_app->phase() == AppController::Phase::Installing)
        return askCancelInstall();
    m_app->primary();
}

// The card's "Cancel install" and the install panel's Cancel ask the same question.
void MainWindow::askCancelInstall()
{
    if (confirm(tr("Cancel the install?"),
                tr("What was downloaded so far is discarded; nothing half-installed is kept.")))
        m_app->cancelInstall();
}

// An install starts only after the user has read what it means: the session's preview
// (download, disk, administrator rights, unchecked downloads, the stack's advice). Every
// entry point of a launch (the button, the Profiles menu, the tray) comes here.
void MainWindow::onConfirmInstall(const QString& title, const QString& headline,
                                  const QStringList& checklist)
{
    QStringList items;
    for (const QString& c : checklist)
        items << QStringLiteral("<li>%1</li>").arg(c.toHtmlEscaped());
    if (isHidden())
        showNormal(); // from the tray: the question needs the window
    m_app->answerInstall(
        confirm(title, tr("<p><b>%1</b></p><ul>%2</ul><p>Install and launch now?</p>")
                           .arg(headline.toHtmlEscaped(), items.join(QString()))));
}

void MainWindow::onFailure(const FailureNotice& f)
{
    const bool detection = f.kind == FailureNotice::Kind::Detection;
    (detection ? m_leftFailure : m_failure)->showFailure(f);
    (detection ? m_failure : m_leftFailure)->hide();
    updateConsoleShown();
    statusBar()->showMessage(f.title);
}

void MainWindow::onFailureAction(FailureNotice::Action action)
{
    const auto f = m_app->currentFailure();
    using A = FailureNotice::Action;
    switch (action) {
    case A::Retry:
        m_app->retry();
        break;
    case A::ProxySettings:
        openSettings();
        break;
    case A::SwitchStack:
        if (f) {
            m_app->clearFailure();
            m_app->switchStack(f->switchTo);
        }
        break;
    case A::ExportDiagnostics:
        m_diagAction->trigger();
        break;
    case A::OpenLog:
        if (f)
            QDesktopServices::openUrl(QUrl::fromLocalFile(f->logPath));
        break;
    case A::ContinueWithCpu:
        m_app->continueWithCpu();
        break;
    case A::Discard:
        m_app->discardPendingInstall();
        break;
    case A::CopySearchText:
        if (f)
            copyForUser(f->searchText, tr("The failing line is copied: paste it into a search."));
        break;
    case A::ReportFailure:
        if (f)
            copyForUser(f->report, tr("The report is copied: paste it into a new issue of the "
                                      "program, or of StackPilot."));
        break;
    }
}

void MainWindow::copyForUser(const QString& text, const QString& done)
{
    QGuiApplication::clipboard()->setText(text);
    statusBar()->showMessage(done, 10000);
}

void MainWindow::requestQuit()
{
    // Quitting stops the workload or interrupts an install: asked first, as a Stop is not.
    const QString running = runningNames();
    if (!running.isEmpty() &&
        !confirm(tr("Quit StackPilot?"),
                 tr("%1 is running. Quitting StackPilot stops it.").arg(running)))
        return;
    if (m_app->phase() == AppController::Phase::Installing &&
        !confirm(tr("Quit StackPilot?"), tr("An install is in progress. If you quit now, you can "
                                            "resume it the next time you start StackPilot.")))
        return;
    m_app->stopAll(); // also when the window is hidden and so gets no close event
    m_quitting = true;
    QApplication::quit();
}

// "ComfyUI and llama.cpp": every workload that runs, in the user's words.
QString MainWindow::runningNames() const
{
    QStringList names;
    for (const QString& w : m_app->runningWorkloads())
        names << m_app->workloadName(w);
    return QLocale().createSeparatedList(names);
}

// The card's choosers. GPU: every GPU by name (with its bus address where two share a
// name), the default rule first, naming the card it picks. Model: the workload's models,
// each with its size, whether it is downloaded and whether it fits the card.
void MainWindow::showChoices()
{
    if (!m_card)
        return;
    const auto& gpus = m_app->snapshot().gpus;
    QStringList names;
    for (const GpuInfo& g : gpus) {
        const bool twin = std::count_if(gpus.begin(), gpus.end(),
                                        [&](const GpuInfo& o) { return o.name == g.name; }) > 1;
        names << (twin && !g.pciBus.empty() ? tr("%1 at %2").arg(qs(g.name), qs(g.pciBus))
                                            : qs(g.name));
    }
    const auto best = chooseGpu(m_app->snapshot());
    const QString automatic = best ? tr("Automatic (%1)").arg(names.value(*best)) : tr("Automatic");
    const QString w = m_app->workload();
    m_card->setGpus(names, m_app->gpuChoiceOf(w), automatic);
    QStringList labels;
    const QStringList ids = m_app->modelsFor(w);
    for (const QString& id : ids)
        labels << modelChoiceText(id);
    m_card->setModels(labels, ids, m_app->modelFor(w));
    m_card->setDisk(m_app->recordedMachine() ? QString() : m_app->installFolder(),
                    m_app->installFree());
}

QString MainWindow::modelChoiceText(const QString& id) const
{
    if (id == QLatin1String(session::kNoModel))
        return tr("No download: only the models already in its folders");
    const ModelRow* row = nullptr;
    for (const ModelRow& r : m_app->models())
        if (r.id == id)
            row = &r;
    const Model* m = m_app->catalog() ? m_app->catalog()->model(toStd(id)) : nullptr;
    QStringList parts{m ? modelLabel(*m_app->catalog(), m->id) : id};
    if (m)
        parts << qs(format::bytes(m->bytes()));
    // Said before the click: a model not in the vault is downloaded after the checklist.
    parts << (row && row->inVault ? tr("downloaded") : tr("downloaded at launch"));
    if (const auto fits = m_app->modelFits(id, m_app->workload()); fits && !*fits)
        parts << tr("too large for this card");
    return parts.join(QStringLiteral(" · "));
}

ModelsDialog* MainWindow::openModels()
{
    auto* dlg = new ModelsDialog(m_app, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->open();
    return dlg;
}

// Tab goes the way the eye reads the window: the workload, the card and its main button,
// the other stacks, then the console. Focus starts on the workload.
void MainWindow::setFocusOrder()
{
    QList<QWidget*> chain{m_workloads};
    chain += m_card->focusChain();
    chain << m_alternatives;
    for (QWidget* w : m_right->findChildren<QWidget*>())
        if (w->focusPolicy() & Qt::TabFocus)
            chain << w;
    for (qsizetype i = 0; i + 1 < chain.size(); ++i)
        setTabOrder(chain[i], chain[i + 1]);
    m_workloads->setFocus(Qt::OtherFocusReason);
}

// The right side (the console, the install panel, an install's failure) takes half the
// window; while nothing has run it is empty, so the card gets the whole width instead.
void MainWindow::updateConsoleShown()
{
    if (!m_right)
        return;
    const bool needed = m_consoleAction->isChecked() || m_app->console().rowCount() > 0 ||
                        m_app->busy() || (m_failure && !m_failure->isHidden());
    m_right->setVisible(needed);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Settings…"), this, &MainWindow::openSettings);
    // Where StackPilot keeps things, for a user who wants to look (or back them up).
    QMenu* folders = file->addMenu(tr("&Open folder"));
    folders->setObjectName(QStringLiteral("folders"));
    const auto open = [](const std::filesystem::path& dir) {
        QDesktopServices::openUrl(QUrl::fromLocalFile(qpath(dir)));
    };
    folders->addAction(tr("&Installed stacks"), this, [open] { open(paths::dataDir()); });
    folders->addAction(tr("&Models"), this, [this] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_app->modelsFolder()));
    });
    folders->addAction(tr("&Logs"), this, [open] { open(paths::logDir()); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &MainWindow::requestQuit);
    m_viewMenu = menuBar()->addMenu(tr("&View")); // the Profiles menu goes before it
    m_viewMenu->addAction(tr("&Environment…"), this, &MainWindow::openEnvironment);
    m_viewMenu->addAction(tr("&Models…"), this, &MainWindow::openModels);
    m_consoleAction = m_viewMenu->addAction(tr("&Console"));
    m_consoleAction->setCheckable(true);
    m_consoleAction->setToolTip(tr("Show the console even before anything runs"));
    connect(m_consoleAction, &QAction::toggled, this, [this] { updateConsoleShown(); });
    m_viewMenu->addSeparator();
    m_detectAgain = m_viewMenu->addAction(tr("&Detect graphics cards again"), m_app,
                                          &AppController::detectAgain);
    m_detectAgain->setToolTip(tr("After installing a driver or plugging in a card"));
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    // The guide shipped beside the catalog (share/stackpilot/help), and the current
    // workload's own site (the first of its catalog references).
    help->addAction(tr("&User guide"), this, [] {
        QDesktopServices::openUrl(
            QUrl::fromLocalFile(qpath(paths::shippedDataDir() / "help" / "USER-GUIDE.md")));
    });
    m_workloadHelp = help->addAction(
        QString(), this, [this] { QDesktopServices::openUrl(m_workloadHelp->data().toUrl()); });
    m_workloadHelp->setObjectName(QStringLiteral("workload-help"));
    m_workloadHelp->setVisible(false);
    help->addSeparator();
    m_diagAction = help->addAction(tr("Export &diagnostics…"), this, [this] {
        auto* dialog = new DiagnosticsDialog(m_app, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    help->addAction(tr("&About StackPilot"), this, [this] {
        QMessageBox::about(this, tr("About StackPilot"),
                           tr("<b>StackPilot %1</b><p>Runs local AI workloads on the stack "
                              "known to work on your GPU.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

// A chooser entry: running, or installed (its stack is all there), with what the workload
// is for as its tooltip and description.
void MainWindow::markWorkload(int i)
{
    const QString id = m_workloads->itemData(i).toString();
    const QString name = m_app->workloadName(id);
    const PlanView* v = m_app->plan(id);
    m_workloads->setItemText(i, m_app->isRunning(id) ? tr("%1 (running)").arg(name)
                                : v && v->ready()    ? tr("%1 (installed)").arg(name)
                                                     : name);
    const QString about = v ? v->about : QString();
    m_workloads->setItemData(i, about, Qt::ToolTipRole);
    m_workloads->setItemData(i, about, Qt::AccessibleDescriptionRole);
}

// Stacks ▸ Uninstall this stack…, at the end of the menu bar's copy of the menu.
void MainWindow::buildUninstall()
{
    m_uninstall = new QAction(tr("&Uninstall this stack…"), this);
    m_uninstall->setObjectName(QStringLiteral("uninstall"));
    m_uninstall->setToolTip(tr("Removes what this stack installed and says how much space "
                               "that frees; what another installed stack uses stays"));
    m_profiles->setFooter({m_uninstall});
    connect(m_uninstall, &QAction::triggered, this, &MainWindow::askUninstall);
}

// What goes and what it frees, measured first; then the question; then the removal.
void MainWindow::askUninstall()
{
    const QString workload = m_app->workload();
    m_app->previewUninstall(workload, [this, workload](const StackRemoval& r) {
        const Catalog* catalog = m_app->catalog();
        QStringList parts, kept;
        for (const auto& id : r.runtimes)
            parts << runtimeLabel(*catalog, id);
        for (const auto& id : r.kept)
            kept << runtimeLabel(*catalog, id);
        if (r.venv)
            parts << tr("its own Python environment");
        if (parts.isEmpty()) {
            statusBar()->showMessage(tr("Nothing of this stack is installed."));
            return;
        }
        QString text = tr("Removes %1, which frees about %2.")
                           .arg(QLocale().createSeparatedList(parts), qs(format::bytes(r.bytes)));
        if (!kept.isEmpty())
            text += QLatin1Char(' ') + tr("%1 stay: another installed stack uses them.")
                                           .arg(QLocale().createSeparatedList(kept));
        if (!confirm(tr("Uninstall %1?").arg(stackTitle(*catalog, r.profile)), text))
            return;
        m_app->uninstallStack(workload, [this](const QString& error, quint64 freed) {
            statusBar()->showMessage(
                error.isEmpty() ? tr("Uninstalled: %1 freed.").arg(qs(format::bytes(freed)))
                                : tr("Could not uninstall: %1").arg(error));
        });
    });
}

void MainWindow::updateWorkloadHelp()
{
    const Workload* w =
        m_app->catalog() ? m_app->catalog()->workload(toStd(m_app->workload())) : nullptr;
    m_workloadHelp->setVisible(w && !w->references.empty());
    if (!w || w->references.empty())
        return;
    m_workloadHelp->setText(tr("%1's own site").arg(m_app->workloadName(m_app->workload())));
    m_workloadHelp->setData(QUrl(qs(w->references.front())));
}

// "Share this result?" after a smoke test or a launch: asked window-modal, never blocking
// the run; not asked while the window is hidden in the tray.
void MainWindow::connectSharing()
{
    connect(m_app, &AppController::shareOffered, this,
            [this](const QString& question, const QString& record, bool viaBrowser) {
                if (m_shareAsk) {
                    m_app->answerShare(m_shareAsk(question, record));
                    return;
                }
                // Stopped from the tray with the window hidden: no dialog out of nowhere.
                if (!isVisible() || isMinimized()) {
                    m_app->skipShareOffer();
                    return;
                }
                auto* dialog = new ShareDialog(question, record, viaBrowser, this);
                dialog->setAttribute(Qt::WA_DeleteOnClose);
                connect(dialog, &QDialog::finished, this,
                        [this, dialog] { m_app->answerShare(dialog->answer()); });
                dialog->open();
            });
}

} // namespace sp::gui
