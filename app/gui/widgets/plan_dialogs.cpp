#include "app/gui/widgets/plan_dialogs.h"

#include "app/gui/models/plan_explain.h"
#include "app/gui/widgets/style.h"
#include "core/qt_text.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

namespace sp::gui {

namespace {

QString section(const QString& heading, const QStringList& items)
{
    if (items.isEmpty())
        return {};
    QString html = QStringLiteral("<h3>%1</h3><ul>").arg(heading.toHtmlEscaped());
    for (const QString& item : items)
        html += QStringLiteral("<li>%1</li>").arg(item.toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}

QString sourcesHtml(const PlanView& v)
{
    if (!v.plan || v.plan->references.empty())
        return {};
    QStringList links;
    for (const auto& ref : v.plan->references)
        links << QStringLiteral("<a href=\"%1\">%1</a>").arg(qs(ref).toHtmlEscaped());
    return QStringLiteral("<h3>%1</h3><p>%2</p>")
        .arg(DetailsDialog::tr("The public reports behind it"), links.join(QStringLiteral("<br>")));
}

} // namespace

DetailsDialog::DetailsDialog(const PlanView& v, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Why this stack?"));
    resize(780, 600);
    auto* layout = new QVBoxLayout(this);
    auto* title =
        new QLabel(v.profile.isEmpty() ? v.workloadName
                                       : QStringLiteral("%1 — %2").arg(v.workloadName, v.title),
                   this);
    title->setFont(style::titleFont(font(), 1.2));
    title->setWordWrap(true);
    layout->addWidget(title);
    const PlanExplanation e = explainPlan(v);
    m_text = new QTextBrowser(this);
    m_text->setOpenExternalLinks(true);
    m_text->setAccessibleName(tr("Why this stack"));
    m_text->setHtml(section(tr("What it is"), e.what) +
                    section(tr("Why it comes before the other stacks"), e.above) +
                    section(tr("What it changes on this PC"), e.changes) +
                    section(tr("What cannot be checked before it runs"), e.unverifiable) +
                    sourcesHtml(v));
    layout->addWidget(m_text, 3);
    // Ids, variables and commands: folded, for whoever helps the user or files a report.
    m_expertToggle = new QToolButton(this);
    m_expertToggle->setText(tr("Details for experts"));
    m_expertToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_expertToggle->setArrowType(Qt::RightArrow);
    m_expertToggle->setCheckable(true);
    m_expertToggle->setAccessibleDescription(
        tr("The stack's ids, the variables it sets and the command it runs"));
    m_expertToggle->setVisible(!e.expert.isEmpty());
    layout->addWidget(m_expertToggle);
    m_expert = new QPlainTextEdit(e.expert, this);
    m_expert->setReadOnly(true);
    m_expert->setFont(style::monoFont());
    m_expert->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_expert->setAccessibleName(tr("Details for experts"));
    m_expert->hide();
    layout->addWidget(m_expert, 2);
    connect(m_expertToggle, &QToolButton::toggled, this, [this](bool on) {
        m_expertToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        m_expert->setVisible(on);
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

QString DetailsDialog::text() const
{
    return m_text->toPlainText();
}

QString DetailsDialog::expert() const
{
    return m_expert->toPlainText();
}

EnvironmentDialog::EnvironmentDialog(const ComposedLaunch& launch, const QString& profile,
                                     QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Environment of %1").arg(profile));
    resize(980, 560);
    m_model.setLaunch(launch);
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("What the workload sees: %n variable(s) differ from your "
                                "system's environment, each with the reason.",
                                nullptr, m_model.changedCount()),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_table = new QTableView(this);
    m_table->setModel(&m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setColumnWidth(EnvironmentModel::Name, 220);
    m_table->setColumnWidth(EnvironmentModel::Value, 360);
    m_table->setColumnWidth(EnvironmentModel::Change, 90);
    layout->addWidget(m_table, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    auto* copyAll = buttons->addButton(tr("Copy all"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this, &EnvironmentDialog::copySelected);
    connect(copyAll, &QPushButton::clicked, this, [this] {
        m_table->selectAll();
        copySelected();
    });
    connect(new QShortcut(QKeySequence::Copy, m_table), &QShortcut::activated, this,
            &EnvironmentDialog::copySelected);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

void EnvironmentDialog::copySelected()
{
    QApplication::clipboard()->setText(
        m_model.copyText(m_table->selectionModel()->selectedIndexes()));
}

} // namespace sp::gui
