#include "app/gui/widgets/console_view.h"

#include "app/gui/controllers/app_controller.h"
#include "app/gui/models/console_model.h"
#include "app/gui/widgets/mnemonics.h"
#include "app/gui/widgets/style.h"

#include <QAbstractItemDelegate>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPainter>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QUrl>
#include <QVBoxLayout>

namespace sp::gui {

namespace {

// Paints one console line: a severity stripe, then the text run by run in its ANSI
// colours. One line per row (uniform heights keep a 20,000-row view fast).
class ConsoleDelegate : public QAbstractItemDelegate
{
public:
    using QAbstractItemDelegate::QAbstractItemDelegate;

    void paint(QPainter* p, const QStyleOptionViewItem& opt,
               const QModelIndex& index) const override
    {
        const auto* model = static_cast<const ConsoleModel*>(index.model());
        const ConsoleLine& l = model->lineAt(index.row());
        const QPalette& pal = opt.palette;
        if (opt.state & QStyle::State_Selected)
            p->fillRect(opt.rect, pal.color(QPalette::Highlight));
        else if (l.severity() == ConsoleLine::Issue)
            p->fillRect(opt.rect, style::tint(style::Tone::Caution, pal, 0.3));
        const bool note = l.severity() == ConsoleLine::Note; // StackPilot's own line
        if (l.severity() != ConsoleLine::Normal) {
            const auto tone = note                                   ? style::Tone::Info
                              : l.severity() == ConsoleLine::Warning ? style::Tone::Caution
                                                                     : style::Tone::Bad;
            p->fillRect(QRect(opt.rect.left(), opt.rect.top(), 3, opt.rect.height()),
                        style::toneColor(tone, pal));
        }
        p->setFont(opt.font);
        const QColor plain = (opt.state & QStyle::State_Selected)
                                 ? pal.color(QPalette::HighlightedText)
                             : note ? style::toneColor(style::Tone::Info, pal)
                                    : pal.color(QPalette::Text);
        const QFontMetrics fm(opt.font);
        int x = opt.rect.left() + 8;
        const int y = opt.rect.top() + fm.ascent() + 1;
        int at = 0;
        auto drawRun = [&](int start, int len, const QColor& c, bool bold) {
            if (len <= 0)
                return;
            QFont f = opt.font;
            f.setBold(bold);
            p->setFont(f);
            p->setPen(c);
            const QString run = l.text().mid(start, len);
            p->drawText(x, y, run);
            x += QFontMetrics(f).horizontalAdvance(run);
        };
        for (const AnsiSpan& s : l.ansi().spans) {
            drawRun(at, s.start - at, plain, false);
            QColor c = s.colour < 0    ? plain
                       : s.colour < 16 ? style::ansiColor(s.colour, pal)
                                       : style::readable(QColor::fromRgb(QRgb(s.colour & 0xffffff)),
                                                         {pal.color(QPalette::Base)});
            if (opt.state & QStyle::State_Selected)
                c = plain;
            drawRun(s.start, s.length, c, s.bold);
            at = s.start + s.length;
        }
        drawRun(at, int(l.text().size()) - at, plain, false);
    }

    QSize sizeHint(const QStyleOptionViewItem& opt, const QModelIndex&) const override
    {
        return {400, QFontMetrics(opt.font).height() + 2};
    }
};

} // namespace

IssueBanner::IssueBanner(QWidget* parent) : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    // Text on top at the banner's full width, the buttons under it: a long button ("Switch
    // to … and relaunch") would otherwise squeeze the text into a narrow column.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 8, 12, 8);
    m_title = new QLabel(this);
    m_title->setFont(style::titleFont(font(), 1.05));
    m_title->setWordWrap(true);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    layout->addWidget(m_title);
    layout->addWidget(m_text);
    m_action = new QPushButton(this);
    m_dismiss = new QPushButton(tr("Dismiss"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_action);
    buttons->addWidget(m_dismiss);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(m_action, &QPushButton::clicked, this, [this] { emit remedyRequested(m_id); });
    connect(m_dismiss, &QPushButton::clicked, this, &QWidget::hide);
    connect(m_text, &QLabel::linkActivated, this, [this] { emit whyRequested(); });
    hide();
}

QString IssueBanner::titleText() const
{
    return m_title->text();
}

void IssueBanner::showNotice(const KnownIssueNotice& n)
{
    m_id = n.id;
    style::setTint(this, style::Tone::Caution, 0.2);
    // A failed smoke test is this PC's own finding, not a known problem from reports.
    m_title->setText(n.switchTo.isEmpty() ? tr("Known problem: %1").arg(n.title) : n.title);
    m_text->setText(
        QStringLiteral("%1 <a href=\"why\">%2</a>").arg(n.remedy.toHtmlEscaped(), tr("Why?")));
    QSet<QChar> keys = usedMnemonics(window(), m_action);
    m_action->setText(n.buttonText);
    giveMnemonic(m_action, keys);
    m_action->setVisible(!n.buttonText.isEmpty());
    show();
}

// The bar over the output: find (Ctrl+F, Enter, the arrows), copy, follow, and "Open in
// browser" while the workload serves its page.
QHBoxLayout* ConsoleView::buildBar()
{
    auto* bar = new QHBoxLayout;
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search the console"));
    m_search->setClearButtonEnabled(true);
    m_search->setToolTip(tr("Find in the output (Ctrl+F); Enter finds the next match"));
    m_search->setMinimumWidth(
        m_search->fontMetrics().horizontalAdvance(m_search->placeholderText()) + 40);
    // Arrows keep the bar narrow enough for the search text on a small screen.
    auto* prev = new QPushButton(QStringLiteral("▲"), this);
    auto* next = new QPushButton(QStringLiteral("▼"), this);
    prev->setToolTip(tr("Previous"));
    next->setToolTip(tr("Next"));
    // A screen reader says the arrows' names, not "black up-pointing triangle".
    prev->setAccessibleName(tr("Previous match"));
    next->setAccessibleName(tr("Next match"));
    m_search->setAccessibleName(tr("Search the console"));
    for (QPushButton* b : {prev, next})
        b->setMaximumWidth(b->fontMetrics().horizontalAdvance(QStringLiteral("▼")) * 4);
    auto* copy = new QPushButton(tr("Copy"), this);
    m_follow = new QCheckBox(tr("Follow"), this);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest line in view"));
    m_openUrl = new QPushButton(tr("Open in browser"), this);
    m_openUrl->hide();
    bar->addWidget(m_search, 1);
    bar->addWidget(prev);
    bar->addWidget(next);
    bar->addWidget(copy);
    bar->addWidget(m_follow);
    bar->addWidget(m_openUrl);
    connect(next, &QPushButton::clicked, this, [this] { findNext(false); });
    connect(prev, &QPushButton::clicked, this, [this] { findNext(true); });
    connect(m_search, &QLineEdit::returnPressed, this, [this] { findNext(false); });
    connect(copy, &QPushButton::clicked, this, &ConsoleView::copySelection);
    auto* findKey = new QShortcut(QKeySequence::Find, this);
    findKey->setContext(Qt::WindowShortcut);
    connect(findKey, &QShortcut::activated, this, [this] {
        m_search->setFocus(Qt::ShortcutFocusReason);
        m_search->selectAll();
    });
    return bar;
}

ConsoleView::ConsoleView(ConsoleModel* model, QWidget* parent) : QWidget(parent), m_model(model)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_banner = new IssueBanner(this);
    layout->addWidget(m_banner);
    layout->addLayout(buildBar());
    m_view = new QListView(this);
    m_view->setModel(m_model);
    m_view->setItemDelegate(new ConsoleDelegate(m_view));
    m_view->setUniformItemSizes(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setFont(style::monoFont());
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    layout->addWidget(m_view, 1);
    m_empty = new QLabel(tr("The workload's output appears here once it runs.\nThe whole log is "
                            "also kept on disk."),
                         m_view->viewport());
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setWordWrap(true);
    // The viewport's font is monospace; the hint is prose. Setting the family marks it
    // as the label's own, so it is not inherited from the viewport.
    QFont prose = QApplication::font();
    prose.setFamily(prose.family());
    m_empty->setFont(prose);
    (new QVBoxLayout(m_view->viewport()))->addWidget(m_empty);
    auto* foot = new QHBoxLayout;
    m_count = new QLabel(this);
    m_count->setForegroundRole(QPalette::PlaceholderText);
    m_log = new QLabel(this);
    m_log->setTextFormat(Qt::RichText);
    m_log->setOpenExternalLinks(true);
    foot->addWidget(m_count, 1);
    foot->addWidget(m_log);
    layout->addLayout(foot);

    auto* copyKey = new QShortcut(QKeySequence::Copy, m_view);
    connect(copyKey, &QShortcut::activated, this, &ConsoleView::copySelection);
    connect(m_openUrl, &QPushButton::clicked, this, [this] { emit openUrlRequested(m_url); });
    connect(m_banner, &IssueBanner::remedyRequested, this, &ConsoleView::remedyRequested);
    connect(m_banner, &IssueBanner::whyRequested, this, &ConsoleView::whyRequested);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] {
        updateCount();
        if (followTail())
            m_view->scrollToBottom();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &ConsoleView::updateCount);
    // Scrolling up to read stops following; scrolling back to the end resumes it.
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int v) {
        auto* sb = m_view->verticalScrollBar();
        if (sb->isSliderDown())
            m_follow->setChecked(v >= sb->maximum());
    });
    updateCount();
}

void ConsoleView::updateCount()
{
    m_empty->setVisible(m_model->rowCount() == 0);
    const qint64 total = m_model->totalLines();
    const qint64 dropped = m_model->droppedLines();
    m_count->setText(dropped > 0
                         ? tr("%1 lines; showing the last %2").arg(total).arg(m_model->rowCount())
                         : tr("%n line(s)", nullptr, int(total)));
}

void ConsoleView::setLogPath(const QString& path)
{
    m_log->setText(path.isEmpty() ? QString()
                                  : QStringLiteral("<a href=\"%1\">%2</a>")
                                        .arg(QUrl::fromLocalFile(path).toString(), tr("Full log")));
    m_log->setToolTip(tr("The whole output of this run, kept on disk"));
}

void ConsoleView::setUrl(const QString& url)
{
    m_url = url;
    m_openUrl->setVisible(!url.isEmpty());
    m_openUrl->setToolTip(url);
}

void ConsoleView::showIssue(const KnownIssueNotice& n)
{
    m_banner->showNotice(n);
}

void ConsoleView::clearIssue()
{
    m_banner->hide();
}

bool ConsoleView::followTail() const
{
    return m_follow->isChecked();
}

void ConsoleView::setFollowTail(bool on)
{
    m_follow->setChecked(on);
    if (on)
        m_view->scrollToBottom();
}

bool ConsoleView::findNext(bool backwards)
{
    const QModelIndex cur = m_view->currentIndex();
    const int from = cur.isValid() ? cur.row() : (backwards ? 0 : -1);
    const int row = m_model->find(m_search->text(), from, backwards);
    if (row < 0)
        return false;
    setFollowTail(false);
    const QModelIndex idx = m_model->index(row);
    m_view->setCurrentIndex(idx);
    m_view->scrollTo(idx, QAbstractItemView::PositionAtCenter);
    return true;
}

void ConsoleView::copySelection()
{
    QList<int> rows;
    for (const QModelIndex& i : m_view->selectionModel()->selectedRows())
        rows << i.row();
    std::sort(rows.begin(), rows.end());
    QApplication::clipboard()->setText(m_model->text(rows));
}

} // namespace sp::gui
