#include "app/gui/widgets/diagnostics_dialog.h"

#include "app/gui/controllers/app_controller.h"
#include "app/gui/controllers/background.h"
#include "core/format.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace sp::gui {

DiagnosticsDialog::DiagnosticsDialog(AppController* app, QWidget* parent)
    : QDialog(parent), m_app(app)
{
    setWindowTitle(tr("Export diagnostics"));
    resize(820, 560);
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("One zip file with what someone helping you will ask for: your "
                                "graphics cards and what StackPilot checked on them, the chosen "
                                "stack and why, the installed parts checked again, recent "
                                "launches and their logs, the environment, and StackPilot's "
                                "health check of this PC. Tokens, passwords, keys and your user "
                                "name are replaced before anything is written; review the list "
                                "below."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_status = new QLabel(tr("Collecting…"), this);
    layout->addWidget(m_status);
    m_list = new QTreeWidget(this);
    m_list->setHeaderLabels({tr("Entry"), tr("Size"), tr("Redacted")});
    m_list->setRootIsDecorated(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    layout->addWidget(m_list, 1);
    m_totals = new QLabel(this);
    m_totals->setWordWrap(true);
    layout->addWidget(m_totals);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_save = buttons->addButton(tr("Save…"), QDialogButtonBox::AcceptRole);
    m_save->setEnabled(false);
    connect(m_save, &QPushButton::clicked, this, &DiagnosticsDialog::save);
    m_showFile = buttons->addButton(tr("Show in folder"), QDialogButtonBox::ActionRole);
    m_showFile->hide(); // once saved
    connect(m_showFile, &QPushButton::clicked, this, [this] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(m_savedFile).absolutePath()));
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    m_saveAs = [this](const QString& suggested) {
        return QFileDialog::getSaveFileName(this, tr("Save diagnostics"), suggested,
                                            tr("Zip files (*.zip)"));
    };
    collect();
}

DiagnosticsDialog::~DiagnosticsDialog()
{
    m_cancel.cancel();
}

void DiagnosticsDialog::setSaveAs(std::function<QString(const QString&)> ask)
{
    m_saveAs = std::move(ask);
}

QString DiagnosticsDialog::status() const
{
    return m_status->text();
}

// A machine the window was given (--hardware FILE) is bundled as it is, as `diag export
// --hardware FILE` does. Otherwise collect() detects on its worker thread, as the CLI
// does: the bundle then has the raw probe outputs, and says "detected", even when the
// window's own detection is still running or failed (when a bundle is wanted most).
void DiagnosticsDialog::collect()
{
    diag::CollectOptions o;
    if (!m_app->detectsThisMachine()) {
        o.snapshot = m_app->snapshot();
        o.snapshotOrigin = paths::toUtf8(m_app->recordedFile());
    }
    o.detect = m_app->detectOptions();
    o.catalogDirs = m_app->catalogDirs();
    o.workload = m_app->workload().toStdString();
    o.cancel = m_cancel;
    QPointer<DiagnosticsDialog> self(this);
    o.progress = [self](const diag::Progress& p) {
        const QString step = qs(p.step);
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, step] {
            if (self)
                self->m_status->setText(tr("Collecting: %1…").arg(step));
        });
    };
    runInBackground(
        this, [o] { return diag::collect(o); },
        [this](Expected<diag::Bundle> b) {
            if (!b) {
                m_status->setText(tr("Could not collect: %1").arg(qs(b.error().message)));
                return;
            }
            show(std::make_shared<const diag::Bundle>(std::move(*b)));
        });
}

void DiagnosticsDialog::show(std::shared_ptr<const diag::Bundle> bundle)
{
    m_bundle = std::move(bundle);
    std::uint64_t total = 0;
    for (const auto& item : diag::list(*m_bundle)) {
        auto* row = new QTreeWidgetItem(m_list);
        row->setText(0, qs(item.name));
        row->setText(1, qs(format::bytes(item.bytes)));
        row->setData(1, Qt::UserRole, QVariant::fromValue<qulonglong>(item.bytes));
        row->setText(2, item.redactions.total() ? qs(item.redactions.summary()) : QString());
        row->setToolTip(0, qs(item.note));
        total += item.bytes;
    }
    m_status->setText(
        tr("%n entries, %1 before compression.", nullptr, int(m_bundle->entries.size()))
            .arg(qs(format::bytes(total))));
    m_totals->setText(tr("Redacted in all, by kind (values are never recorded): %1")
                          .arg(qs(m_bundle->redactions.summary())));
    m_save->setEnabled(true);
    emit ready();
}

void DiagnosticsDialog::save()
{
    if (!m_bundle)
        return;
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString file = m_saveAs(QDir(dir.isEmpty() ? QDir::homePath() : dir)
                                      .filePath(qs(diag::defaultFileName(Clock::system()))));
    if (file.isEmpty())
        return;
    m_save->setEnabled(false);
    m_status->setText(tr("Saving…"));
    // The file dialog asked before replacing a file, so an existing one may go.
    auto bundle = m_bundle;
    const auto path = toPath(file);
    runInBackground(
        this, [bundle, path] { return diag::write(*bundle, path, diag::Overwrite::Allow); },
        [this, file](Expected<void> written) {
            m_save->setEnabled(true);
            if (!written) {
                m_status->setText(tr("Could not save: %1").arg(qs(written.error().message)));
                return;
            }
            m_status->setText(tr("Saved to %1. Attach it where you ask for help: the issue "
                                 "or forum post about the problem, for the people of the "
                                 "program that failed or of StackPilot.")
                                  .arg(file));
            m_savedFile = file;
            m_showFile->show();
            emit saved(file);
        },
        orderedPool());
}

} // namespace sp::gui
