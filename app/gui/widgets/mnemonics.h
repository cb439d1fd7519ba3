#pragma once
// Alt+letter for every button a window shows, as KDE's accelerator manager gives them:
// the texts a translator wrote with "&" keep theirs; every other button gets the first
// free letter of its words (then of any word), so no two controls of one window share a
// key. A text without a Latin letter (Chinese) gets "(&X)" after it, as Chinese Windows
// programs write it. Texts that change (the main button) are given one again each time.

#include <QSet>

class QAbstractButton;
class QWidget;

namespace sp::gui {

// The letters `window` and its menu bar already use (upper case), leaving out `except`.
QSet<QChar> usedMnemonics(const QWidget* window, const QAbstractButton* except = nullptr);
// Gives `button` a free letter of `used` (and adds it there); no-op when its text already
// has one or has no letter at all (▲, ✕).
void giveMnemonic(QAbstractButton* button, QSet<QChar>& used);
// Gives every button under `window` that has none a letter of its own.
void giveMnemonics(QWidget* window);
// From now on, a window (a dialog, a message box) gets its letters as it is shown, and a
// button as it appears; a button whose text changes while shown is given one by its
// owner (giveMnemonic). Installs once; later calls do nothing.
void keepMnemonics();
// The text as a person reads it: "&Launch" and "启动(&L)" are "Launch" and "启动".
QString withoutMnemonic(QString text);

} // namespace sp::gui
