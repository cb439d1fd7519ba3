#include "app/gui/main_window.h"

#include "core/snapshot.h"

#include <QCoreApplication>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QProcess>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sp::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("StackPilot"));
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    auto* title = new QLabel(tr("<h2>StackPilot</h2>"), central);
    m_status = new QLabel(tr("Detecting GPUs…"), central);
    m_gpus = new QTreeWidget(central);
    m_gpus->setHeaderLabels(
        {tr("GPU"), tr("Target"), tr("VRAM"), tr("Integrated"), tr("Driver"), tr("Sources")});
    m_gpus->setRootIsDecorated(false);
    m_gpus->header()->setStretchLastSection(true);
    layout->addWidget(title);
    layout->addWidget(m_status);
    layout->addWidget(m_gpus, 1);
    setCentralWidget(central);
    m_detectProgram =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("stackpilot-cli"));
    m_detectArgs = {QStringLiteral("detect"), QStringLiteral("--json")};
}

void MainWindow::setDetectCommand(const QString& program, const QStringList& args)
{
    m_detectProgram = program;
    m_detectArgs = args;
}

int MainWindow::gpuRowCount() const
{
    return m_gpus->topLevelItemCount();
}

QStringList MainWindow::gpuRow(int row) const
{
    QStringList cells;
    if (const QTreeWidgetItem* item = m_gpus->topLevelItem(row)) {
        for (int c = 0; c < item->columnCount(); ++c)
            cells << item->text(c);
    }
    return cells;
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::startDetection()
{
    // Detection runs in the CLI as a child process: the GUI thread never waits on
    // sysfs, probes or drivers, and a driver crash cannot take the window down.
    auto* proc = new QProcess(this);
    connect(proc, &QProcess::finished, this, [this, proc](int code, QProcess::ExitStatus status) {
        proc->deleteLater();
        if (status != QProcess::NormalExit || code != 0) {
            m_status->setText(tr("Detection failed: %1")
                                  .arg(QString::fromUtf8(proc->readAllStandardError()).trimmed()));
        } else {
            showSnapshot(QString::fromUtf8(proc->readAllStandardOutput()));
        }
        emit detectionFinished();
    });
    connect(proc, &QProcess::errorOccurred, this, [this, proc](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            m_status->setText(tr("Could not start stackpilot-cli: %1").arg(proc->errorString()));
            proc->deleteLater();
            emit detectionFinished();
        }
    });
    proc->start(m_detectProgram, m_detectArgs);
}

void MainWindow::showSnapshot(const QString& json)
{
    auto snap = parseSnapshot(json.toStdString(), "stackpilot-cli detect");
    if (!snap) {
        m_status->setText(QString::fromStdString(snap.error().message));
        return;
    }
    m_gpus->clear();
    for (const auto& g : snap->gpus) {
        const QString target =
            g.gfx ? QString::fromStdString(*g.gfx)
            : g.computeCapability
                ? QStringLiteral("sm ") + QString::fromStdString(*g.computeCapability)
                : QStringLiteral("—");
        const QString vram = g.vramMb ? tr("%1 GiB").arg(double(*g.vramMb) / 1024.0, 0, 'f', 1)
                                      : QStringLiteral("—");
        const QString integrated = !g.integrated   ? QStringLiteral("?")
                                   : *g.integrated ? tr("yes")
                                                   : tr("no");
        QStringList sources;
        for (const auto& s : g.sources)
            sources << QString::fromStdString(s);
        new QTreeWidgetItem(m_gpus, {QString::fromStdString(g.name), target, vram, integrated,
                                     QString::fromStdString(g.driverVersion.value_or("—")),
                                     sources.join(QStringLiteral(", "))});
    }
    m_status->setText(snap->gpus.empty() ? tr("No GPU found. CPU-only stacks are still available.")
                                         : tr("%n GPU(s) found.", nullptr, int(snap->gpus.size())));
    for (int c = 0; c < m_gpus->columnCount(); ++c)
        m_gpus->resizeColumnToContents(c);
}

} // namespace sp::gui
