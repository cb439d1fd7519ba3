#include "app/gui/widgets/gpu_panel.h"

#include "app/gui/models/gpu_table_model.h"
#include "app/gui/widgets/style.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace sp::gui {

namespace {

QString statusWords(const QString& status)
{
    if (status == QLatin1String("ok"))
        return GpuPanel::tr("ok");
    if (status == QLatin1String("missing"))
        return GpuPanel::tr("not found");
    if (status == QLatin1String("failed"))
        return GpuPanel::tr("failed");
    if (status == QLatin1String("timeout"))
        return GpuPanel::tr("timed out");
    if (status == QLatin1String("crashed"))
        return GpuPanel::tr("crashed");
    return status;
}

// What a check's state means for the user; the tool's own words are in the diagnostics.
QString statusMeaning(const QString& status, bool anyGpu)
{
    if (status == QLatin1String("ok"))
        return GpuPanel::tr("This vendor library answered and reported your card.");
    if (status == QLatin1String("missing"))
        return GpuPanel::tr("Not installed on this PC. That is fine unless a stack needs it.");
    if (!anyGpu)
        return GpuPanel::tr("It found no card to talk to, as expected on a PC without one.");
    return GpuPanel::tr("It did not answer as it should. The diagnostics export has its "
                        "message.");
}

} // namespace

GpuPanel::GpuPanel(GpuTableModel* model, QWidget* parent) : QFrame(parent), m_model(model)
{
    style::makeCard(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    auto* top = new QHBoxLayout;
    m_title = new QLabel(this);
    m_kind = new QLabel(this);
    m_kind->hide();
    top->addWidget(m_title);
    top->addWidget(m_kind);
    top->addStretch(1);
    layout->addLayout(top);
    m_facts = new QLabel(this);
    layout->addWidget(m_facts);
    m_layout = layout; // the table of GPUs joins it when there is more than one
    m_recorded = new QLabel(this);
    m_recorded->setWordWrap(true);
    m_recorded->hide();
    layout->addWidget(m_recorded);
    m_chips = new QHBoxLayout;
    m_chips->setSpacing(12);
    layout->addLayout(m_chips);
    showDetecting();
}

void GpuPanel::createTable()
{
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setShowGrid(false);
    m_table->setFrameShape(QFrame::NoFrame);
    // Below the facts, above the probe chips.
    m_layout->insertWidget(m_layout->indexOf(m_recorded), m_table);
}

void GpuPanel::showDetecting()
{
    m_title->setText(tr("Detecting your GPU…"));
    m_facts->setText(tr("Reading the PCI devices, the driver and the vendor libraries. "
                        "This takes a few seconds."));
}

// What a result needs and "Detecting…" does not, kept out of the first frame
// (docs/ARCHITECTURE.md, "Start-up"): the title's bold font (a second font file to
// load) and selectable text (a selectable label is a small text editor).
void GpuPanel::showResult()
{
    m_title->setFont(style::titleFont(font(), 1.25));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

void GpuPanel::showError(const QString& error)
{
    showResult();
    m_title->setText(tr("Detection failed"));
    m_facts->setText(error);
}

void GpuPanel::setRecorded(const QString& file)
{
    m_recorded->setText(
        tr("A recorded PC: this is the plan its user sees. Nothing is installed or launched "
           "here."));
    style::setTextTone(m_recorded, style::Tone::Info);
    m_recorded->setVisible(!file.isEmpty());
}

QString GpuPanel::headline() const
{
    return m_title->text();
}

QString GpuPanel::facts() const
{
    return m_facts->text();
}

void GpuPanel::refresh()
{
    showResult();
    const auto chosen = m_model->chosenRow();
    if (!chosen) {
        m_title->setText(tr("No GPU found"));
        m_facts->setText(tr("CPU-only stacks are still available."));
        m_kind->hide();
    } else {
        auto cell = [&](int col) { return m_model->index(*chosen, col).data().toString(); };
        m_title->setText(cell(GpuTableModel::Name));
        const QString driver = cell(GpuTableModel::Driver);
        const auto& g = m_model->snapshot().gpus[std::size_t(*chosen)];
        // An iGPU's figure is what the firmware sets aside; it borrows more from the
        // system's memory as it needs.
        const QString vram = g.integrated.value_or(false)
                                 ? tr("%1 VRAM, shared with the system's memory")
                                 : tr("%1 VRAM");
        m_facts->setText(tr("%1  ·  %2  ·  %3")
                             .arg(cell(GpuTableModel::Target), vram.arg(cell(GpuTableModel::Vram)),
                                  driver == QLatin1String("-") ? tr("driver unknown")
                                                               : tr("driver %1").arg(driver)));
        m_kind->setVisible(g.integrated.has_value());
        if (g.integrated)
            style::makeBadge(m_kind, *g.integrated ? tr("integrated") : tr("discrete"),
                             *g.integrated ? style::Tone::Caution : style::Tone::Neutral);
    }
    if (m_model->rowCount() > 1 && !m_table)
        createTable();
    if (m_table) {
        m_table->setVisible(m_model->rowCount() > 1);
        m_table->resizeColumnsToContents();
        m_table->setMaximumHeight(m_table->verticalHeader()->length() +
                                  m_table->horizontalHeader()->height() + 4);
    }
    while (QLayoutItem* item = m_chips->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    auto* label = new QLabel(tr("Checked with:"), this);
    m_chips->addWidget(label);
    // Without a card, a library that finds none did what it should: not an error.
    const bool anyGpu = m_model->rowCount() > 0;
    for (const auto& p : m_model->probes()) {
        auto* chip = new QLabel(this);
        const bool bad = p.status != QLatin1String("ok") && p.status != QLatin1String("missing");
        const QString dot = p.status == QLatin1String("ok") ? QStringLiteral("{ok}")
                            : bad && anyGpu                 ? QStringLiteral("{error}")
                                                            : QStringLiteral("{muted}");
        style::setRichText(chip, QStringLiteral("<span style='color:%1'>●</span> %2 <span "
                                                "style='color:{muted}'>%3</span>")
                                     .arg(dot, p.name.toHtmlEscaped(),
                                          bad && !anyGpu ? tr("no card") : statusWords(p.status)));
        chip->setToolTip(statusMeaning(p.status, anyGpu));
        m_chips->addWidget(chip);
    }
    m_chips->addStretch(1);
}

} // namespace sp::gui
