#include "app/gui/widgets/profile_card.h"

#include "app/gui/models/plain_words.h"
#include "app/gui/widgets/style.h"
#include "core/format.h"
#include "core/qt_text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace sp::gui {

namespace {

QString bytesText(quint64 n)
{
    return QString::fromStdString(format::bytes(n));
}

QLabel* wrappedLabel(QWidget* parent)
{
    auto* l = new QLabel(parent);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

} // namespace

ProfileCard::ProfileCard(QWidget* parent) : QFrame(parent)
{
    style::makeCard(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 10);
    layout->setSpacing(6);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidget(buildContent());
    m_scroll->viewport()->setAutoFillBackground(false);
    m_scroll->widget()->setAutoFillBackground(false);
    layout->addWidget(m_scroll, 1);
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(12, 0, 12, 0);
    m_details = new QPushButton(tr("Why this stac&k?"), this);
    m_env = new QPushButton(tr("E&nvironment…"), this);
    m_env->setToolTip(tr("The variables StackPilot sets for this stack, and why"));
    m_primary = new QPushButton(this);
    m_primary->setDefault(true);
    m_primary->setMinimumHeight(m_primary->sizeHint().height() * 3 / 2);
    m_primary->setMinimumWidth(160);
    QFont bold = m_primary->font();
    bold.setBold(true);
    m_primary->setFont(bold);
    // The main button first: the card's left edge stays put when the console unfolds
    // beside it and the card narrows, so the button never moves (issue 33, item 7).
    buttons->addWidget(m_primary);
    buttons->addSpacing(12);
    buttons->addWidget(m_details);
    buttons->addWidget(m_env);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(m_details, &QPushButton::clicked, this, &ProfileCard::detailsRequested);
    connect(m_env, &QPushButton::clicked, this, &ProfileCard::environmentRequested);
    setPlan(nullptr);
}

void ProfileCard::fitPrimaryTo(const QStringList& texts)
{
    const QFontMetrics fm(m_primary->font());
    int widest = 0;
    for (const QString& t : texts) // "(&W)": room for a Chinese text's Alt+letter
        widest = std::max(widest, fm.horizontalAdvance(t + QStringLiteral("(W)")));
    m_primary->setMinimumWidth(std::max(160, widest + fm.averageCharWidth() * 4));
}

QWidget* ProfileCard::buildContent()
{
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(12, 10, 12, 4);
    layout->setSpacing(8);
    m_caption = new QLabel(content);
    m_caption->setForegroundRole(QPalette::PlaceholderText);
    m_title = wrappedLabel(content);
    m_title->setFont(style::titleFont(font(), 1.3));
    m_verdict = wrappedLabel(content);
    m_about = wrappedLabel(content);
    m_about->setForegroundRole(QPalette::PlaceholderText);
    m_why = wrappedLabel(content);
    m_evidence = wrappedLabel(content);
    m_others = wrappedLabel(content);
    m_others->setForegroundRole(QPalette::PlaceholderText);
    m_warning = wrappedLabel(content);
    m_warning->setTextFormat(Qt::RichText);
    m_expander = new QToolButton(content);
    m_expander->setCheckable(true);
    m_expander->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_expander->setArrowType(Qt::RightArrow);
    m_expander->setAutoRaise(true);
    m_expander->setText(tr("What gets installed"));
    m_stack = wrappedLabel(content);
    m_stack->setTextFormat(Qt::RichText);
    m_stack->hide();
    m_install = wrappedLabel(content);
    m_install->setTextFormat(Qt::RichText);
    connect(m_install, &QLabel::linkActivated, this, [this] { emit settingsRequested(); });
    for (QWidget* w : std::initializer_list<QWidget*>{
             m_caption, m_title, buildGpuRow(content), buildModelRow(content), m_verdict, m_about,
             m_why, m_evidence, m_others, m_warning, m_expander, m_stack, m_install})
        layout->addWidget(w);
    layout->addStretch(1);
    connect(m_expander, &QToolButton::toggled, this, &ProfileCard::setDetailsShown);
    return content;
}

// A label and a chooser on one line: the GPU (issue 31) and the model (issue 30).
QWidget* ProfileCard::choiceRow(QWidget* parent, const QString& label, const QString& accessible,
                                QComboBox*& combo)
{
    auto* rowWidget = new QWidget(parent);
    auto* row = new QHBoxLayout(rowWidget);
    row->setContentsMargins(0, 0, 0, 0);
    auto* text = new QLabel(label, rowWidget);
    combo = new QComboBox(rowWidget);
    combo->setAccessibleName(accessible);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    text->setBuddy(combo);
    row->addWidget(text);
    row->addWidget(combo);
    row->addStretch(1);
    rowWidget->hide();
    return rowWidget;
}

// The GPU chooser: shown only where there is more than one GPU to choose.
QWidget* ProfileCard::buildGpuRow(QWidget* parent)
{
    m_gpuRow =
        choiceRow(parent, tr("Run on:"), tr("Graphics card for this workload"), m_gpuChooser);
    connect(m_gpuChooser, &QComboBox::activated, this,
            [this](int at) { emit gpuChosen(m_gpuChooser->itemData(at).toInt()); });
    return m_gpuRow;
}

// The model chooser: shown for a workload that runs a model.
QWidget* ProfileCard::buildModelRow(QWidget* parent)
{
    m_modelRow = choiceRow(parent, tr("Model:"), tr("Model this workload runs"), m_modelChooser);
    connect(m_modelChooser, &QComboBox::activated, this,
            [this](int at) { emit modelChosen(m_modelChooser->itemData(at).toString()); });
    return m_modelRow;
}

void ProfileCard::setModels(const QStringList& labels, const QStringList& ids,
                            const QString& chosen)
{
    m_modelRow->setVisible(!ids.isEmpty());
    const QSignalBlocker quiet(m_modelChooser);
    m_modelChooser->clear();
    for (int i = 0; i < ids.size(); ++i)
        m_modelChooser->addItem(labels.value(i), ids[i]);
    m_modelChooser->setCurrentIndex(std::max(0, m_modelChooser->findData(chosen)));
}

void ProfileCard::setGpus(const QStringList& names, int chosen, const QString& automatic)
{
    m_gpuRow->setVisible(names.size() > 1);
    const QSignalBlocker quiet(m_gpuChooser);
    m_gpuChooser->clear();
    m_gpuChooser->addItem(automatic, -1);
    for (int i = 0; i < names.size(); ++i)
        m_gpuChooser->addItem(names[i], i);
    m_gpuChooser->setCurrentIndex(std::max(0, m_gpuChooser->findData(chosen)));
}

QList<QWidget*> ProfileCard::focusChain() const
{
    return {m_gpuChooser, m_modelChooser, m_primary, m_details, m_env, m_expander};
}

void ProfileCard::setChoicesEnabled(bool on)
{
    m_gpuChooser->setEnabled(on);
    m_modelChooser->setEnabled(on);
}

void ProfileCard::setDetailsShown(bool shown)
{
    m_expander->setChecked(shown);
    m_expander->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
    m_stack->setVisible(shown && !m_stack->text().isEmpty());
}

QString ProfileCard::captionText() const
{
    return m_caption->text();
}

QString ProfileCard::titleText() const
{
    return m_title->text();
}

QString ProfileCard::badgeText() const
{
    return m_verdict->isVisible() ? m_verdict->text() : QString();
}

QString ProfileCard::installText() const
{
    return m_install->text();
}

QString ProfileCard::detailsText() const
{
    return m_stack->text();
}

void ProfileCard::updateCaption(const PlanView* v)
{
    QString text = v && v->onCpu ? tr("Recommended for this PC's processor: slower than a "
                                      "graphics card")
                                 : tr("Recommended for your PC");
    if (v && v->failedHere)
        text = tr("Failed its check on this PC");
    else if (v && v->choice == PlanChoice::User)
        text = tr("Your choice");
    else if (v && v->choice == PlanChoice::Remedy)
        text = tr("Switched after a known problem");
    m_caption->setText(text);
}

void ProfileCard::setPlan(const PlanView* v)
{
    const bool usable = v && !v->profile.isEmpty();
    m_details->setEnabled(v != nullptr);
    m_env->setEnabled(usable);
    for (QWidget* w : std::initializer_list<QWidget*>{m_verdict, m_about, m_evidence, m_others,
                                                      m_warning, m_expander, m_stack, m_install})
        w->setVisible(false);
    updateCaption(usable ? v : nullptr);
    if (!v) {
        m_title->setText(tr("Choosing a stack…"));
        m_why->setText(tr("StackPilot picks the stack known to work on exactly this GPU."));
        return;
    }
    m_about->setText(v->about);
    m_about->setVisible(!v->about.isEmpty());
    if (!usable) {
        m_title->setText(v->error.isEmpty() ? tr("No stack fits this PC yet")
                                            : tr("The chosen stack cannot be used here"));
        m_why->setText(v->error.isEmpty() ? v->why
                                          : tr("Choose “Recommended” in the Stacks menu to "
                                               "go back to the stack StackPilot picks."));
        return;
    }
    m_title->setText(v->headline);
    m_verdict->setText(v->verdictLine);
    m_verdict->setToolTip(statusExplanation(v->status));
    style::setTextTone(m_verdict, style::toneOfStatus(v->status));
    m_verdict->setVisible(true);
    m_why->setText(v->summary);
    m_evidence->setText(v->evidence);
    style::setTextTone(m_evidence, v->failedHere ? style::Tone::Bad : style::Tone::Good);
    m_evidence->setVisible(!v->evidence.isEmpty());
    m_others->setText(v->othersEvidence);
    m_others->setVisible(!v->othersEvidence.isEmpty());
    showWarnings(*v);
    showRuntimes(*v);
}

void ProfileCard::showWarnings(const PlanView& v)
{
    if (v.warnings.isEmpty())
        return;
    QStringList items;
    for (const QString& w : v.warnings)
        items << QStringLiteral("<li>%1</li>").arg(w.toHtmlEscaped());
    m_warning->setText(QStringLiteral("<b>%1</b><ul style='margin-left:-20px'>%2</ul>")
                           .arg(tr("Good to know:"), items.join(QString())));
    style::setTextTone(m_warning, style::Tone::Caution);
    m_warning->setVisible(true);
}

void ProfileCard::showRuntimes(const PlanView& v)
{
    QStringList rows;
    for (const RuntimeRow& r : v.runtimes) {
        const QString state = r.installed   ? tr("installed")
                              : r.system    ? tr("its own installer")
                              : r.sizeKnown ? tr("about %1").arg(bytesText(r.bytes))
                                            : tr("size not known before the download");
        rows << QStringLiteral("<tr><td>%1&nbsp;&nbsp;</td><td style='color:{muted}'>%2</td></tr>")
                    .arg(r.label.toHtmlEscaped(), state);
    }
    style::setRichText(m_stack, QStringLiteral("<p>%1</p><table>%2</table>")
                                    .arg(v.title.toHtmlEscaped(), rows.join(QString())));
    m_expander->setVisible(true);
    setDetailsShown(m_expander->isChecked());
    // The total the catalog's sizes give, and by name what has none (plan_view.h).
    m_install->setText(downloadSentence(v, DownloadWording::Card).toHtmlEscaped());
    m_install->setVisible(true);
    // An archive is downloaded, then unpacked beside it: about twice its size at once
    // (the session's checklist counts the same way).
    m_diskNeeded = v.toInstall.isEmpty() ? 0 : v.downloadBytes * 2;
    m_diskPartial = !v.unsizedParts.isEmpty();
    updateDisk();
}

void ProfileCard::setDisk(const QString& folder, std::optional<quint64> free)
{
    m_diskFolder = folder;
    m_diskFree = free;
    updateDisk();
}

// "Disk: about 1.2 GiB in C:\Users\u\AppData\Local\StackPilot (Change…), 80 GiB free."
void ProfileCard::updateDisk()
{
    m_install->setText(m_install->text().section(QStringLiteral("<br>"), 0, 0));
    if (m_diskNeeded == 0 || m_install->isHidden())
        return;
    const QString need = qs(format::bytes(m_diskNeeded));
    QString line = m_diskPartial ? tr("Disk: about %1 for the parts whose size is known").arg(need)
                                 : tr("Disk: about %1").arg(need);
    if (!m_diskFolder.isEmpty())
        line += tr(" in %1 (<a href=\"settings\">Change…</a>)").arg(m_diskFolder.toHtmlEscaped());
    if (m_diskFree)
        line += tr(", %1 free").arg(qs(format::bytes(*m_diskFree)));
    line += QLatin1Char('.');
    if (m_diskFree && *m_diskFree < m_diskNeeded)
        line +=
            QLatin1Char(' ') + tr("Not enough free space: free some, or choose another folder.");
    m_install->setText(m_install->text() + QStringLiteral("<br>") + line);
}

} // namespace sp::gui
