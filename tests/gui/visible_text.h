#pragma once
// Every text a user can read in a window: labels, buttons, lists, menus (the menu bar's
// and any menu under the window, the tray's included), tooltips and the status bar, of
// visible widgets only (what is behind a closed disclosure is not read). The journeys
// check them for internal words; the zh_CN test for untranslated English.

#include "core/catalog/types.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QRegularExpression>
#include <QStatusBar>
#include <QStringList>
#include <QTextDocument>
#include <QTreeWidget>

namespace sp::test {

inline QString plainOf(const QString& text)
{
    if (!Qt::mightBeRichText(text))
        return text;
    QTextDocument doc;
    doc.setHtml(text);
    return doc.toPlainText();
}

inline void addMenuTexts(const QMenu* menu, QStringList& out)
{
    out << menu->title() << menu->toolTip();
    for (const QAction* a : menu->actions()) {
        out << a->text() << a->toolTip();
        if (a->menu())
            addMenuTexts(a->menu(), out);
    }
}

inline void addTreeItem(const QTreeWidgetItem* item, int columns, QStringList& out)
{
    for (int c = 0; c < columns; ++c)
        out << item->text(c) << item->toolTip(c);
    for (int i = 0; i < item->childCount(); ++i)
        addTreeItem(item->child(i), columns, out);
}

inline void addWidgetTexts(const QWidget* w, QStringList& out)
{
    out << w->toolTip() << w->windowTitle();
    if (auto* l = qobject_cast<const QLabel*>(w))
        out << plainOf(l->text());
    else if (auto* b = qobject_cast<const QAbstractButton*>(w))
        out << b->text();
    else if (auto* c = qobject_cast<const QComboBox*>(w))
        for (int i = 0; i < c->count(); ++i)
            out << c->itemText(i);
    else if (auto* list = qobject_cast<const QListWidget*>(w))
        for (int i = 0; i < list->count(); ++i)
            out << list->item(i)->text() << list->item(i)->toolTip();
    else if (auto* tree = qobject_cast<const QTreeWidget*>(w)) {
        out << tree->headerItem()->text(0) << tree->headerItem()->text(1);
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            addTreeItem(tree->topLevelItem(i), tree->columnCount(), out);
    } else if (auto* s = qobject_cast<const QStatusBar*>(w))
        out << s->currentMessage();
}

// The texts of `root` and its visible children, and of every menu it owns.
inline QStringList visibleTexts(const QWidget* root)
{
    QStringList out;
    if (root->isVisible())
        addWidgetTexts(root, out);
    for (const QWidget* w : root->findChildren<QWidget*>())
        if (w->isVisible() && !qobject_cast<const QMenu*>(w))
            addWidgetTexts(w, out);
    for (const QMenu* m : root->findChildren<QMenu*>())
        addMenuTexts(m, out);
    out.removeAll(QString());
    return out;
}

// The texts that show a maintainer's word: a profile, runtime or known-issue id, "seed",
// "preference" or an issue number. Empty when none does.
inline QStringList internalWords(const QStringList& texts, const Catalog& catalog)
{
    QStringList ids;
    for (const auto& p : catalog.profiles)
        ids << QString::fromStdString(p.id);
    for (const auto& r : catalog.runtimes)
        ids << QString::fromStdString(r.id);
    for (const auto& k : catalog.knownIssues)
        ids << QString::fromStdString(k.id);
    static const QRegularExpression words(
        QStringLiteral(R"(\bseeds?\b|\bpreference\b|#\d+|\bissues? \d+)"),
        QRegularExpression::CaseInsensitiveOption);
    QStringList found;
    for (const QString& t : texts) {
        if (t.contains(words))
            found << t;
        for (const QString& id : ids)
            if (t.contains(QRegularExpression(QStringLiteral("(^|[^\\w-])") +
                                              QRegularExpression::escape(id) +
                                              QStringLiteral("($|[^\\w-])"))))
                found << QStringLiteral("%1 [id %2]").arg(t, id);
    }
    return found;
}

} // namespace sp::test
