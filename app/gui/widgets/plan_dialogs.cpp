#include "app/gui/widgets/plan_dialogs.h"

#include "app/gui/widgets/style.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>

namespace sp::gui {

DetailsDialog::DetailsDialog(const PlanView& v, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Why this stack?"));
    resize(760, 520);
    auto* layout = new QVBoxLayout(this);
    auto* title =
        new QLabel(v.profile.isEmpty() ? v.workloadName
                                       : QStringLiteral("%1 — %2").arg(v.workloadName, v.title),
                   this);
    title->setFont(style::titleFont(font(), 1.2));
    title->setWordWrap(true);
    layout->addWidget(title);
    auto* why = new QLabel(v.error.isEmpty() ? v.why : v.error, this);
    why->setWordWrap(true);
    layout->addWidget(why);
    auto* list = new QListWidget(this);
    list->setWordWrap(true);
    list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    list->addItems(v.details);
    layout->addWidget(list, 1);
    // The public reports behind the choice, as links a user can open.
    if (v.plan && !v.plan->references.empty()) {
        QStringList links;
        for (const auto& ref : v.plan->references)
            links << QStringLiteral("<a href=\"%1\">%1</a>")
                         .arg(QString::fromStdString(ref).toHtmlEscaped());
        auto* sources =
            new QLabel(tr("<b>Sources:</b><br>%1").arg(links.join(QStringLiteral("<br>"))), this);
        sources->setTextFormat(Qt::RichText);
        sources->setOpenExternalLinks(true);
        sources->setWordWrap(true);
        sources->setTextInteractionFlags(Qt::TextBrowserInteraction);
        layout->addWidget(sources);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
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
