#include "app/gui/widgets/mnemonics.h"

#include <QAbstractButton>
#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QRegularExpression>
#include <algorithm>

namespace sp::gui {

namespace {

// The letter after a single "&" ("&&" is a literal ampersand), upper case; null if none.
QChar mnemonicOf(const QString& text)
{
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (text[i + 1] == QLatin1Char('&')) {
            ++i;
            continue;
        }
        return text[i + 1].toUpper();
    }
    return {};
}

bool latinLetter(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
           (c >= QLatin1Char('A') && c <= QLatin1Char('Z'));
}

// Where the mnemonic goes in `text`: word starts first, then any letter; -1 if none.
qsizetype freeLetter(const QString& text, const QSet<QChar>& used)
{
    for (int pass = 0; pass < 2; ++pass)
        for (qsizetype i = 0; i < text.size(); ++i) {
            const bool wordStart = i == 0 || !text[i - 1].isLetterOrNumber();
            if (latinLetter(text[i]) && (pass == 1 || wordStart) &&
                !used.contains(text[i].toUpper()))
                return i;
        }
    return -1;
}

} // namespace

namespace {

// The letters of the menu bar and of the labelled fields (&Workload:) on screen.
QSet<QChar> frameMnemonics(const QWidget* window)
{
    QSet<QChar> used;
    auto add = [&used](const QString& text) {
        if (const QChar c = mnemonicOf(text); !c.isNull())
            used.insert(c);
    };
    if (auto* main = qobject_cast<const QMainWindow*>(window); main && main->menuBar())
        for (const QAction* a : main->menuBar()->actions())
            add(a->text());
    // A dialog is a child of the window too, with keys of its own.
    for (const QLabel* l : window->findChildren<QLabel*>())
        if (l->buddy() && l->window() == window && l->isVisible())
            add(l->text());
    return used;
}

// The buttons of `window` on screen (a hidden failure card's eight buttons would use up
// the alphabet; a button that appears gets a free letter then, from Keeper).
QList<QAbstractButton*> shownButtons(const QWidget* window)
{
    QList<QAbstractButton*> out;
    for (QAbstractButton* b : window->findChildren<QAbstractButton*>())
        if (b->window() == window && b->isVisible())
            out << b;
    return out;
}

} // namespace

QSet<QChar> usedMnemonics(const QWidget* window, const QAbstractButton* except)
{
    QSet<QChar> used = frameMnemonics(window);
    for (const QAbstractButton* b : shownButtons(window))
        if (const QChar c = mnemonicOf(b->text()); b != except && !c.isNull())
            used.insert(c);
    return used;
}

void giveMnemonic(QAbstractButton* button, QSet<QChar>& used)
{
    QString text = button->text();
    if (const QChar mine = mnemonicOf(text); !mine.isNull()) {
        if (!used.contains(mine)) {
            used.insert(mine);
            return;
        }
        text = withoutMnemonic(text); // taken by a control shown since: another letter
    }
    if (!std::any_of(text.begin(), text.end(), [](QChar c) { return c.isLetter(); }))
        return;
    const qsizetype at = freeLetter(text, used);
    if (at >= 0) {
        used.insert(text[at].toUpper());
        button->setText(text.left(at) + QLatin1Char('&') + text.mid(at));
        return;
    }
    if (std::any_of(text.begin(), text.end(), latinLetter)) {
        button->setText(text); // every letter of it is taken: no key rather than a clash
        return;
    }
    for (char c = 'A'; c <= 'Z'; ++c)
        if (!used.contains(QLatin1Char(c))) {
            used.insert(QLatin1Char(c));
            button->setText(text + QStringLiteral("(&%1)").arg(QLatin1Char(c)));
            return;
        }
}

void giveMnemonics(QWidget* window)
{
    QSet<QChar> used = frameMnemonics(window);
    for (QAbstractButton* b : shownButtons(window))
        giveMnemonic(b, used);
}

namespace {

class Keeper : public QObject
{
public:
    using QObject::QObject;
    bool eventFilter(QObject* o, QEvent* e) override
    {
        if (e->type() != QEvent::Show || !o->isWidgetType())
            return false;
        auto* w = static_cast<QWidget*>(o);
        if (w->isWindow()) {
            giveMnemonics(w);
        } else if (auto* b = qobject_cast<QAbstractButton*>(w)) {
            QSet<QChar> used = usedMnemonics(b->window(), b);
            giveMnemonic(b, used);
        }
        return false;
    }
};

} // namespace

void keepMnemonics()
{
    static Keeper* keeper = nullptr;
    if (keeper || !qApp)
        return;
    keeper = new Keeper(qApp);
    qApp->installEventFilter(keeper);
}

QString withoutMnemonic(QString text)
{
    static const QRegularExpression cjk(QStringLiteral("\\(&[A-Za-z]\\)"));
    text.remove(cjk);
    text.replace(QStringLiteral("&&"), QStringLiteral("\u0001"));
    text.remove(QLatin1Char('&'));
    return text.replace(QChar(1), QLatin1Char('&'));
}

} // namespace sp::gui
