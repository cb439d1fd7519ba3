#include "app/gui/widgets/profile_card.h"

#include "app/gui/widgets/style.h"
#include "core/format.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace sp::gui {

namespace {

QString statusWord(const QString& status)
{
    if (status == QLatin1String("tested"))
        return ProfileCard::tr("tested");
    if (status == QLatin1String("community"))
        return ProfileCard::tr("community");
    if (status == QLatin1String("experimental"))
        return ProfileCard::tr("experimental");
    return status;
}

QString bytesText(quint64 n)
{
    return QString::fromStdString(format::bytes(n));
}

} // namespace

ProfileCard::ProfileCard(QWidget* parent) : QFrame(parent)
{
    style::makeCard(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 14, 16, 14);
    layout->setSpacing(10);
    m_caption = new QLabel(tr("Recommended stack"), this);
    m_caption->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_caption);
    auto* top = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setFont(style::titleFont(font(), 1.3));
    m_title->setWordWrap(true);
    m_badge = new QLabel(this);
    top->addWidget(m_title, 1);
    top->addWidget(m_badge, 0, Qt::AlignTop);
    layout->addLayout(top);
    m_why = new QLabel(this);
    m_why->setWordWrap(true);
    m_why->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_why);
    m_warning = new QLabel(this);
    m_warning->setWordWrap(true);
    m_warning->hide();
    layout->addWidget(m_warning);
    m_install = new QLabel(this);
    m_install->setWordWrap(true);
    m_install->setTextFormat(Qt::RichText);
    layout->addWidget(m_install);
    auto* buttons = new QHBoxLayout;
    m_details = new QPushButton(tr("Why this stack?"), this);
    m_env = new QPushButton(tr("Environment…"), this);
    m_primary = new QPushButton(this);
    m_primary->setDefault(true);
    m_primary->setMinimumHeight(m_primary->sizeHint().height() * 3 / 2);
    m_primary->setMinimumWidth(180);
    QFont bold = m_primary->font();
    bold.setBold(true);
    m_primary->setFont(bold);
    buttons->addWidget(m_details);
    buttons->addWidget(m_env);
    buttons->addStretch(1);
    buttons->addWidget(m_primary);
    layout->addLayout(buttons);
    connect(m_details, &QPushButton::clicked, this, &ProfileCard::detailsRequested);
    connect(m_env, &QPushButton::clicked, this, &ProfileCard::environmentRequested);
    setPlan(nullptr);
}

QString ProfileCard::titleText() const
{
    return m_title->text();
}

QString ProfileCard::badgeText() const
{
    return m_badge->isVisible() ? m_badge->text() : QString();
}

QString ProfileCard::installText() const
{
    return m_install->text();
}

void ProfileCard::setChosenByUser(bool chosen)
{
    m_caption->setText(chosen ? tr("Your choice") : tr("Recommended stack"));
}

void ProfileCard::setPlan(const PlanView* v)
{
    const bool usable = v && !v->profile.isEmpty();
    m_details->setEnabled(v != nullptr);
    m_env->setEnabled(usable);
    m_badge->setVisible(usable);
    m_warning->setVisible(false);
    if (!v) {
        m_title->setText(tr("Choosing a stack…"));
        m_why->setText(tr("StackPilot picks the stack known to work on exactly this GPU."));
        m_install->clear();
        return;
    }
    if (!usable) {
        m_title->setText(v->error.isEmpty() ? tr("No stack fits this machine")
                                            : tr("This profile cannot be used here"));
        m_why->setText(v->error.isEmpty() ? v->why : v->error);
        m_install->clear();
        return;
    }
    m_title->setText(v->title);
    style::makeBadge(m_badge, statusWord(v->status), style::toneOfStatus(v->status));
    m_why->setText(v->why);
    if (v->plan && !v->plan->warnings.empty()) {
        m_warning->setText(
            QStringLiteral("<b>%1</b> %2")
                .arg(tr("Note:"),
                     QString::fromStdString(v->plan->warnings.front()).toHtmlEscaped()));
        style::setTextTone(m_warning, style::Tone::Caution);
        m_warning->setVisible(true);
    }
    QStringList rows;
    for (const RuntimeRow& r : v->runtimes) {
        const QString state = r.installed   ? tr("installed")
                              : r.sizeKnown ? bytesText(r.bytes)
                                            : tr("size unknown");
        rows << QStringLiteral("<tr><td>%1&nbsp;&nbsp;</td><td style='color:{muted}'>%2</td></tr>")
                    .arg(r.label.toHtmlEscaped(), state);
    }
    bool unknownSize = false;
    for (const RuntimeRow& r : v->runtimes)
        unknownSize = unknownSize || (!r.installed && !r.sizeKnown);
    const int n = int(v->toInstall.size());
    QString summary = tr("Everything is installed.");
    if (n > 0 && unknownSize)
        summary =
            tr("To install: %n runtime(s), at least %1 (some sizes are not published).", nullptr, n)
                .arg(bytesText(v->downloadBytes));
    else if (n > 0)
        summary = tr("To install: %n runtime(s), %1.", nullptr, n).arg(bytesText(v->downloadBytes));
    style::setRichText(m_install, QStringLiteral("<table>%1</table><p>%2</p>")
                                      .arg(rows.join(QString()), summary.toHtmlEscaped()));
}

} // namespace sp::gui
