#pragma once
// What a screen reader reads (issue 33, item 9): the window's tree of QAccessible
// interfaces, the same one Orca (through AT-SPI) and Narrator (through UI Automation)
// walk. A control a user can press, type into or choose from needs a name made of words,
// not a symbol ("▲"); an image needs a name too.

#include <QAccessible>
#include <QRegularExpression>
#include <QStringList>
#include <QWidget>

namespace sp::test {

inline bool interactiveRole(QAccessible::Role r)
{
    switch (r) {
    case QAccessible::Button:
    case QAccessible::CheckBox:
    case QAccessible::RadioButton:
    case QAccessible::ComboBox:
    case QAccessible::EditableText:
    case QAccessible::SpinBox:
    case QAccessible::Slider:
    case QAccessible::PageTab:
    case QAccessible::ButtonMenu:
    case QAccessible::ButtonDropDown:
    case QAccessible::Link:
    case QAccessible::Graphic:
        return true;
    default:
        return false;
    }
}

inline bool hasWords(const QString& name)
{
    static const QRegularExpression letter(QStringLiteral("[\\p{L}\\p{N}]"));
    return letter.match(name).hasMatch();
}

// "PushButton 'class' at path": every visible interactive node without a worded name.
inline void collectUnnamed(QAccessibleInterface* node, const QString& path, int depth,
                           QStringList& out)
{
    if (!node || !node->isValid() || depth > 64)
        return;
    const QAccessible::State st = node->state();
    if (st.invisible || st.offscreen)
        return;
    const QString here = path + QLatin1Char('/') + QString::number(int(node->role()), 16);
    // A chooser or field named only by what it holds ("Stand-in UI") says what was
    // chosen, not what is chosen there. On Linux Qt names a combo box by its current
    // text by design and gives its label as a relation (AT-SPI's labelled-by); on
    // Windows UI Automation reads the accessible name. Either must be there.
    const QString name = node->text(QAccessible::Name);
    const bool holds = node->role() == QAccessible::ComboBox ||
                       node->role() == QAccessible::EditableText ||
                       node->role() == QAccessible::SpinBox;
    auto* widget = qobject_cast<QWidget*>(node->object());
    const bool labelled = !node->relations(QAccessible::Label).isEmpty() ||
                          (widget && !widget->accessibleName().isEmpty());
    const bool onlyItsValue = holds && name == node->text(QAccessible::Value) && !labelled;
    if (interactiveRole(node->role()) && (!hasWords(name) || onlyItsValue)) {
        QObject* o = node->object();
        out << QStringLiteral("role 0x%1, %2 '%3' named '%4', value '%5' at %6")
                   .arg(QString::number(int(node->role()), 16),
                        o ? QString::fromLatin1(o->metaObject()->className()) : QString(),
                        o ? o->objectName() : QString(), name, node->text(QAccessible::Value),
                        here);
    }
    for (int i = 0; i < node->childCount(); ++i)
        collectUnnamed(node->child(i), here, depth + 1, out);
}

// "Name (role 0x2b)" of every visible interactive node.
inline void collectNamed(QAccessibleInterface* node, int depth, QStringList& out)
{
    if (!node || !node->isValid() || depth > 64)
        return;
    if (node->state().invisible || node->state().offscreen)
        return;
    if (interactiveRole(node->role()))
        out << QStringLiteral("%1 (role 0x%2)")
                   .arg(node->text(QAccessible::Name), QString::number(int(node->role()), 16));
    for (int i = 0; i < node->childCount(); ++i)
        collectNamed(node->child(i), depth + 1, out);
}

inline QStringList namedControls(QWidget* root)
{
    QStringList out;
    collectNamed(QAccessible::queryAccessibleInterface(root), 0, out);
    return out;
}

inline QStringList unnamedControls(QWidget* root)
{
    QStringList out;
    collectUnnamed(QAccessible::queryAccessibleInterface(root), QString(), 0, out);
    return out;
}

} // namespace sp::test
