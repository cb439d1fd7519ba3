#pragma once
// Colours and fonts the widgets share. Nothing is hard-coded for a light theme: every
// colour is derived from the palette, or picked in a lighter or darker variant to suit
// whether the palette's base is dark.

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>

class QLabel;
class QWidget;

namespace sp::gui::style {

enum class Tone
{
    Good,    // tested, ok, installed
    Info,    // community
    Caution, // experimental, warnings
    Bad,     // rejected, errors
    Neutral
};

bool isDark(const QPalette& p);
QColor toneColor(Tone t, const QPalette& p);
// A background tint of the tone: `amount` of it over the palette's base.
QColor tint(Tone t, const QPalette& p, double amount = 0.22);
// The 16 ANSI colours, readable on the palette's base.
QColor ansiColor(int index, const QPalette& p);
Tone toneOfStatus(const QString& status); // tested | community | experimental | rejected

// A small rounded label ("community", "rejected") in the tone's colour.
void makeBadge(QLabel* label, const QString& text, Tone tone);
QFont titleFont(const QFont& base, double scale = 1.35);
QFont monoFont();
// A card: a framed panel with the palette's base colour and some padding.
void makeCard(QWidget* w);

} // namespace sp::gui::style
