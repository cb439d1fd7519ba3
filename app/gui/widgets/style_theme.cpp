// Themes (a Fusion light or dark palette, or the system's) and the colours that follow a
// palette change: see style.h.

#include "app/gui/widgets/lazy_icon_style.h"
#include "app/gui/widgets/style.h"
#include "app/gui/widgets/system_theme.h"

#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QListWidget>
#include <QPointer>
#include <QStyle>
#include <QTimer>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QWidget>
#include <functional>
#include <utility>

namespace sp::gui::style {

namespace {

void setBoth(QPalette& p, QPalette::ColorRole role, const QColor& c)
{
    p.setColor(QPalette::Active, role, c);
    p.setColor(QPalette::Inactive, role, c);
}

// The disabled group: the same surfaces, text greyed towards the window.
void setDisabled(QPalette& p, const QColor& text, const QColor& button)
{
    for (auto role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::PlaceholderText})
        p.setColor(QPalette::Disabled, role, text);
    p.setColor(QPalette::Disabled, QPalette::Button, button);
    p.setColor(QPalette::Disabled, QPalette::Highlight, button);
    p.setColor(QPalette::Disabled, QPalette::HighlightedText, text);
}

// Highlight darkened (or lightened) until its selected text is readable on it.
void readableSelection(QPalette& p)
{
    const QColor text = p.color(QPalette::HighlightedText);
    setBoth(p, QPalette::Highlight, readable(p.color(QPalette::Highlight), {text}));
}

struct ThemeState
{
    bool captured = false;
    QString originalStyle;
    QString styleName; // the style set here (a proxy's name() is empty)
    QPalette original;
    bool applied = false;
    QString theme; // as applied: "", "light" or "dark"
    QString override;
    QString chosen = QStringLiteral("light");
};

ThemeState& themeState()
{
    static ThemeState s;
    return s;
}

// Runs a function after each palette change of the widget it watches or of its parent
// (once per burst of events: the palette of every child settles first). Found again by its object
// name, so setting a colour twice replaces the function instead of adding one.
class PaletteHook : public QObject
{
public:
    PaletteHook(QWidget* w, const QString& name)
        : QObject(w), m_widget(w), m_surface(w->parentWidget())
    {
        setObjectName(name);
        w->installEventFilter(this);
        if (m_surface) // what the colours are drawn on; its palette may settle later
            m_surface->installEventFilter(this);
    }
    std::function<void()> refresh;

    static PaletteHook* of(QWidget* w, const char* name)
    {
        const QString n = QString::fromLatin1(name);
        if (auto* h = w->findChild<PaletteHook*>(n, Qt::FindDirectChildrenOnly))
            return h;
        return new PaletteHook(w, n);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* e) override
    {
        const auto t = e->type();
        if ((watched == m_widget || (m_surface && watched == m_surface)) &&
            (t == QEvent::PaletteChange || t == QEvent::ApplicationPaletteChange) && !m_pending) {
            m_pending = true;
            QTimer::singleShot(0, this, [this] {
                m_pending = false;
                if (refresh && m_widget)
                    refresh();
            });
        }
        return false;
    }

private:
    QPointer<QWidget> m_widget;
    QPointer<QWidget> m_surface;
    bool m_pending = false;
};

// The palette of what `w` is drawn on. A widget with a style sheet keeps the palette
// the sheet gave it, Base and Window included, when the application's palette changes;
// its parent's follows.
QPalette surfaceOf(const QWidget* w)
{
    return w->parentWidget() ? w->parentWidget()->palette() : QApplication::palette();
}

void setSheet(QWidget* w, const QString& sheet)
{
    if (w->styleSheet() != sheet)
        w->setStyleSheet(sheet);
}

} // namespace

QPalette lightPalette()
{
    QPalette p(QColor(0x1a, 0x1a, 0x1a), QColor(0xef, 0xef, 0xef), Qt::white,
               QColor(0x9f, 0x9f, 0x9f), QColor(0xb8, 0xb8, 0xb8), QColor(0x1a, 0x1a, 0x1a),
               Qt::white, Qt::white, QColor(0xef, 0xef, 0xef));
    setBoth(p, QPalette::AlternateBase, QColor(0xf5, 0xf5, 0xf5));
    setBoth(p, QPalette::ToolTipBase, QColor(0xff, 0xff, 0xdc));
    setBoth(p, QPalette::ToolTipText, QColor(0x1a, 0x1a, 0x1a));
    setBoth(p, QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
    setBoth(p, QPalette::HighlightedText, Qt::white);
    setBoth(p, QPalette::Link, QColor(0x00, 0x5a, 0xc0));
    setBoth(p, QPalette::LinkVisited, QColor(0x6a, 0x1b, 0x9a));
    setBoth(p, QPalette::PlaceholderText, QColor(0x5f, 0x5f, 0x5f));
    setDisabled(p, QColor(0x8c, 0x8c, 0x8c), QColor(0xe4, 0xe4, 0xe4));
    readableSelection(p);
    return withReadableRoles(p);
}

QPalette darkPalette()
{
    const QColor text(0xe6, 0xe6, 0xe6);
    QPalette p(text, QColor(0x3a, 0x3a, 0x3e), QColor(0x55, 0x55, 0x5a), QColor(0x16, 0x16, 0x16),
               QColor(0x30, 0x30, 0x34), text, Qt::white, QColor(0x1e, 0x1e, 0x1e),
               QColor(0x2d, 0x2d, 0x30));
    setBoth(p, QPalette::Midlight, QColor(0x44, 0x44, 0x48));
    setBoth(p, QPalette::Shadow, Qt::black);
    setBoth(p, QPalette::AlternateBase, QColor(0x28, 0x28, 0x2b));
    setBoth(p, QPalette::ToolTipBase, QColor(0x3c, 0x3c, 0x40));
    setBoth(p, QPalette::ToolTipText, text);
    setBoth(p, QPalette::Highlight, QColor(0x2f, 0x6f, 0xb0));
    setBoth(p, QPalette::HighlightedText, Qt::white);
    setBoth(p, QPalette::Link, QColor(0x6c, 0xb6, 0xff));
    setBoth(p, QPalette::LinkVisited, QColor(0xc4, 0x9c, 0xff));
    setBoth(p, QPalette::PlaceholderText, QColor(0xa0, 0xa0, 0xa0));
    setDisabled(p, QColor(0x80, 0x80, 0x80), QColor(0x33, 0x33, 0x36));
    readableSelection(p);
    return withReadableRoles(p);
}

QPalette withReadableRoles(QPalette p)
{
    for (auto group : {QPalette::Active, QPalette::Inactive}) {
        const QColor base = p.color(group, QPalette::Base);
        const QColor window = p.color(group, QPalette::Window);
        for (auto role : {QPalette::Link, QPalette::LinkVisited, QPalette::PlaceholderText}) {
            const QColor now = p.color(group, role);
            const QColor fixed = readable(now, {base, window});
            if (fixed != now)
                p.setColor(group, role, fixed);
        }
    }
    return p;
}

void setThemeOverride(const QString& theme)
{
    themeState().override = theme;
}

QString appliedTheme()
{
    return themeState().chosen;
}

void applyTheme(const QString& setting)
{
    ThemeState& st = themeState();
    QString theme = st.override.isEmpty() ? setting : st.override;
    if (theme != QLatin1String("light") && theme != QLatin1String("dark"))
        theme.clear(); // the system's
    if (st.applied && theme == st.theme)
        return;
    if (!st.captured) {
        st.captured = true;
        st.originalStyle = QApplication::style()->name();
        st.original = QApplication::palette();
    }
    st.applied = true;
    st.theme = theme;
    const bool dark = theme == QLatin1String("dark") ||
                      (theme.isEmpty() && systemPrefersDarkApps().value_or(false));
    // Fusion draws whatever palette it is given; native styles (Windows') do not.
    const bool own = dark || !theme.isEmpty();
    const QString styleName = own ? QStringLiteral("fusion") : st.originalStyle;
    if (st.styleName.compare(styleName, Qt::CaseInsensitive) != 0) {
        if (QStyle* s = createLazyIconStyle(styleName))
            QApplication::setStyle(s);
        st.styleName = styleName;
    }
    const QPalette pal =
        own ? (dark ? darkPalette() : lightPalette()) : withReadableRoles(st.original);
    if (!(pal == QApplication::palette()))
        QApplication::setPalette(pal);
    st.chosen = isDark(pal) ? QStringLiteral("dark") : QStringLiteral("light");
}

// ---- Live colours

void setTextTone(QLabel* label, Tone tone)
{
    auto apply = [label, tone] {
        setSheet(label, QStringLiteral("color: %1").arg(toneColor(tone, surfaceOf(label)).name()));
    };
    apply();
    PaletteHook::of(label, "spTextTone")->refresh = apply;
}

QString fillColours(const QString& html, const QPalette& p)
{
    const Colors c = colors(p);
    QString out = html;
    const std::pair<const char*, QColor> tokens[] = {{"{ok}", c.ok},           {"{info}", c.info},
                                                     {"{warning}", c.warning}, {"{error}", c.error},
                                                     {"{muted}", c.muted},     {"{link}", c.link}};
    for (const auto& [token, colour] : tokens)
        out.replace(QLatin1String(token), colour.name());
    return out;
}

void setRichText(QLabel* label, const QString& html)
{
    label->setText(fillColours(html, surfaceOf(label)));
    PaletteHook::of(label, "spRichText")->refresh = [label, html, shown = label->text()]() mutable {
        if (label->text() != shown) // set since by other code: not ours to redo
            return;
        label->setText(fillColours(html, surfaceOf(label)));
        shown = label->text();
    };
}

void setTint(QWidget* w, Tone tone, double amount)
{
    auto apply = [w, tone, amount] {
        const QPalette from =
            w->parentWidget() ? w->parentWidget()->palette() : QApplication::palette();
        const QColor bg = tint(tone, from, amount);
        QPalette pal = from;
        pal.setColor(QPalette::Window, bg);
        pal.setColor(QPalette::WindowText, readable(from.color(QPalette::WindowText), {bg}));
        pal.setColor(QPalette::Link, readable(from.color(QPalette::Link), {bg}));
        pal.setColor(QPalette::LinkVisited, readable(from.color(QPalette::LinkVisited), {bg}));
        if (!(pal == w->palette()))
            w->setPalette(pal);
    };
    apply();
    PaletteHook::of(w, "spTint")->refresh = apply;
}

namespace {
constexpr int kToneRole = Qt::UserRole + 0x5370; // the Tone a setItemTone() column shows
} // namespace

void setItemTone(QTreeWidgetItem* item, int column, Tone tone)
{
    item->setData(column, kToneRole, int(tone));
    if (const QTreeWidget* tree = item->treeWidget())
        item->setForeground(column, toneColor(tone, tree->palette()));
}

void followItemTones(QTreeWidget* tree)
{
    PaletteHook::of(tree, "spItemTones")->refresh = [tree] {
        for (QTreeWidgetItemIterator it(tree); *it; ++it)
            for (int c = 0; c < tree->columnCount(); ++c)
                if (const QVariant t = (*it)->data(c, kToneRole); t.isValid())
                    (*it)->setForeground(c, toneColor(Tone(t.toInt()), tree->palette()));
    };
}

void setItemTone(QListWidgetItem* item, Tone tone)
{
    item->setData(kToneRole, int(tone));
    if (const QListWidget* list = item->listWidget())
        item->setForeground(toneColor(tone, list->palette()));
}

void followItemTones(QListWidget* list)
{
    PaletteHook::of(list, "spItemTones")->refresh = [list] {
        for (int i = 0; i < list->count(); ++i)
            if (const QVariant t = list->item(i)->data(kToneRole); t.isValid())
                list->item(i)->setForeground(toneColor(Tone(t.toInt()), list->palette()));
    };
}

void makeBadge(QLabel* label, const QString& text, Tone tone)
{
    auto apply = [label, tone] {
        setSheet(label, QStringLiteral("QLabel { color: %1; border: 1px solid %1; "
                                       "border-radius: 8px; padding: 1px 8px; }")
                            .arg(toneColor(tone, surfaceOf(label)).name()));
    };
    label->setText(text);
    apply();
    label->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Maximum);
    PaletteHook::of(label, "spBadge")->refresh = apply;
}

} // namespace sp::gui::style
