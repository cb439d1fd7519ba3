#include "app/gui/widgets/failure_card.h"

#include "app/gui/widgets/style.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace sp::gui {

FailureCard::FailureCard(QWidget* parent) : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    // As tall as its text: in the card's place (detection) it does not fill the column.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    style::setTint(this, style::Tone::Bad, 0.12);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(6);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_title->setFont(style::titleFont(font(), 1.1));
    m_cause = new QLabel(this);
    m_cause->setWordWrap(true);
    m_cause->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_links = new QLabel(this);
    m_links->setWordWrap(true);
    m_links->setTextFormat(Qt::RichText);
    m_links->setOpenExternalLinks(true);
    m_disclose = new QToolButton(this);
    m_disclose->setCheckable(true);
    m_disclose->setAutoRaise(true);
    m_disclose->setArrowType(Qt::RightArrow);
    m_disclose->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_disclose->setText(tr("Details"));
    m_detail = new QLabel(this);
    m_detail->setWordWrap(true);
    m_detail->setFont(style::monoFont());
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->hide();
    // The ways forward (Retry, another stack, the CPU stacks) on one row, the help
    // (proxy, diagnostics, the log) on the next: a narrow window keeps every button.
    m_buttons = new QWidget(this);
    auto* rows = new QVBoxLayout(m_buttons);
    rows->setContentsMargins(0, 0, 0, 0);
    for (QHBoxLayout*& row : m_rows) {
        row = new QHBoxLayout;
        row->addStretch(1);
        rows->addLayout(row);
    }
    for (QWidget* w : std::initializer_list<QWidget*>{m_title, m_cause, m_links, m_disclose,
                                                      m_detail, m_buttons})
        layout->addWidget(w);
    connect(m_disclose, &QToolButton::toggled, this, [this](bool open) {
        m_disclose->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_detail->setVisible(open);
    });
    hide();
}

QPushButton* FailureCard::addButton(FailureNotice::Action action, const QString& text)
{
    auto* b = new QPushButton(text, m_buttons);
    const bool help = action == FailureNotice::Action::ProxySettings ||
                      action == FailureNotice::Action::ExportDiagnostics ||
                      action == FailureNotice::Action::OpenLog ||
                      action == FailureNotice::Action::CopySearchText ||
                      action == FailureNotice::Action::ReportFailure;
    QHBoxLayout* row = m_rows[help ? 1 : 0];
    row->insertWidget(row->count() - 1, b);
    connect(b, &QPushButton::clicked, this, [this, action] { emit actionRequested(action); });
    m_actions[action] = b;
    return b;
}

QString FailureCard::linksText() const
{
    return m_links->text();
}

void FailureCard::showFailure(const FailureNotice& f)
{
    for (auto& [action, b] : m_actions)
        delete b;
    m_actions.clear();
    m_title->setText(f.title);
    m_cause->setText(f.cause);
    m_links->setText(f.links);
    m_links->setVisible(!f.links.isEmpty());
    m_detail->setText(f.detail);
    m_disclose->setVisible(!f.detail.isEmpty());
    m_disclose->setChecked(false);
    using A = FailureNotice::Action;
    for (A a : f.actions) {
        switch (a) {
        case A::Retry:
            addButton(a, tr("Retry"))->setDefault(true);
            break;
        case A::Discard:
            addButton(a, tr("Discard"))
                ->setToolTip(tr("Remove what this install downloaded so far."));
            break;
        case A::ProxySettings:
            addButton(a, tr("Proxy settings…"));
            break;
        case A::SwitchStack:
            addButton(a, f.switchLabel);
            break;
        case A::ExportDiagnostics:
            addButton(a, tr("Export diagnostics…"))
                ->setToolTip(tr("Saves a report without personal data, to attach to a bug "
                                "report"));
            break;
        case A::OpenLog:
            addButton(a, tr("Open log"));
            break;
        case A::CopySearchText:
            addButton(a, tr("Copy search text"))
                ->setToolTip(tr("Copies the failing line, without your folders, to search the "
                                "web or the program's issues for it"));
            break;
        case A::ReportFailure:
            addButton(a, tr("Report this failure"))
                ->setToolTip(tr("Copies a report with the failing lines, without personal data, "
                                "to paste into a new issue"));
            break;
        case A::ContinueWithCpu:
            addButton(a, tr("Continue with CPU stacks"))
                ->setToolTip(tr("Stacks that run on the processor: slower, but they need no "
                                "graphics driver"));
            break;
        }
    }
    show();
}

QString FailureCard::titleText() const
{
    return m_title->text();
}

QString FailureCard::causeText() const
{
    return m_cause->text();
}

QPushButton* FailureCard::button(FailureNotice::Action action) const
{
    const auto it = m_actions.find(action);
    return it == m_actions.end() ? nullptr : it->second;
}

} // namespace sp::gui
