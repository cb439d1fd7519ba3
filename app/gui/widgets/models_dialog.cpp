#include "app/gui/widgets/models_dialog.h"

#include "app/gui/controllers/app_controller.h"
#include "app/gui/widgets/mnemonics.h"
#include "core/format.h"
#include "core/qt_text.h"

#include <QDesktopServices>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace sp::gui {

namespace {

QString sizeText(quint64 n)
{
    return qs(format::bytes(n));
}

int percent(quint64 part, quint64 whole)
{
    return whole ? int(part * 100 / whole) : 0;
}

} // namespace

ModelsDialog::ModelsDialog(AppController* app, QWidget* parent) : QDialog(parent), m_app(app)
{
    setWindowTitle(tr("Models"));
    resize(820, 420);
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_table = new QTableWidget(0, 5, this);
    m_table->setHorizontalHeaderLabels(
        {tr("Model"), tr("Size"), tr("Used by"), tr("Your GPU"), tr("State")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->setAccessibleName(tr("Models"));
    auto* buttons = new QHBoxLayout;
    m_download = new QPushButton(tr("Download"), this);
    m_pause = new QPushButton(tr("Pause"), this);
    m_remove = new QPushButton(tr("Remove"), this);
    auto* open = new QPushButton(tr("Open folder"), this);
    auto* close = new QPushButton(tr("Close"), this);
    for (QPushButton* b : {m_download, m_pause, m_remove, open})
        buttons->addWidget(b);
    buttons->addStretch(1);
    buttons->addWidget(close);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
    connect(open, &QPushButton::clicked, this, [this] {
        QDir().mkpath(m_app->modelsFolder());
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_app->modelsFolder()));
    });
    connect(m_download, &QPushButton::clicked, this, [this] {
        if (const ModelRow* r = selected())
            m_app->pullModel(r->id);
    });
    connect(m_pause, &QPushButton::clicked, m_app, &AppController::pausePull);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (const ModelRow* r = selected())
            m_app->removeModel(r->id);
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &ModelsDialog::updateButtons);
    connect(m_app, &AppController::modelsChanged, this, &ModelsDialog::refresh);
    refresh();
    m_app->refreshModels();
}

QString ModelsDialog::stateText(const ModelRow& r) const
{
    if (r.pulling)
        return tr("Downloading… %1 %").arg(percent(r.received, r.bytes));
    if (r.inVault)
        return r.owned ? tr("Downloaded") : tr("Your file, used in place");
    if (r.received > 0)
        return tr("Paused at %1 %").arg(percent(r.received, r.bytes));
    return tr("Not downloaded");
}

void ModelsDialog::refresh()
{
    const QVector<ModelRow>& rows = m_app->models();
    const int keep = m_table->currentRow();
    m_table->setRowCount(int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        const ModelRow& r = rows[i];
        const QString fits = !r.fits   ? QStringLiteral("—")
                             : *r.fits ? tr("Fits")
                                       : tr("Too large for this card");
        const QStringList cells{r.name, sizeText(r.bytes), r.usedBy.join(QStringLiteral(", ")),
                                fits, stateText(r)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setData(Qt::UserRole, r.id);
            m_table->setItem(i, c, item);
        }
    }
    if (keep >= 0 && keep < m_table->rowCount())
        m_table->selectRow(keep);
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    int kept = 0;
    for (const ModelRow& r : rows)
        kept += r.inVault ? 1 : 0;
    const auto free = m_app->vaultFree();
    m_summary->setText(
        free ? tr("%n model(s) in the vault; StackPilot's downloads take %1 (%2 free on that "
                  "disk). Imported files stay where they are and take no space here.",
                  nullptr, kept)
                   .arg(sizeText(m_app->vaultBytes()), sizeText(*free))
             : tr("%n model(s) in the vault; StackPilot's downloads take %1.", nullptr, kept)
                   .arg(sizeText(m_app->vaultBytes())));
    updateButtons();
}

const ModelRow* ModelsDialog::selected() const
{
    const int row = m_table->currentRow();
    const QVector<ModelRow>& rows = m_app->models();
    return row >= 0 && row < rows.size() ? &rows[row] : nullptr;
}

void ModelsDialog::updateButtons()
{
    const ModelRow* r = selected();
    const bool recorded = m_app->recordedMachine();
    m_download->setEnabled(!recorded && r && !r->id.isEmpty() && !r->inVault &&
                           m_app->pulling().isEmpty());
    QSet<QChar> keys = usedMnemonics(this, m_download);
    m_download->setText(r && r->received > 0 && !r->inVault && !r->pulling ? tr("Resume")
                                                                           : tr("Download"));
    giveMnemonic(m_download, keys);
    m_pause->setEnabled(r && r->pulling);
    // Only what StackPilot downloaded is removed; an imported file is the user's.
    m_remove->setEnabled(!recorded && r && r->inVault && r->owned && !r->pulling);
}

QString ModelsDialog::summaryText() const
{
    return m_summary->text();
}

int ModelsDialog::rowOf(const QString& id) const
{
    const QVector<ModelRow>& rows = m_app->models();
    for (int i = 0; i < rows.size(); ++i)
        if (rows[i].id == id)
            return i;
    return -1;
}

} // namespace sp::gui
