#pragma once
// Colours, fonts and themes the widgets share. No widget names a colour: every one comes
// from here, derived from the palette it is drawn with, and made readable against the
// backgrounds it is drawn on (WCAG AA, 4.5:1), darkened on a light palette and lightened
// on a dark one. Colours that a theme change would leave stale are set through the
// functions under "Live colours", which recompute them when the palette changes.

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>
#include <initializer_list>

class QLabel;
class QListWidget;
class QListWidgetItem;
class QTreeWidget;
class QTreeWidgetItem;
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

// WCAG 2 relative luminance (0 black .. 1 white) and contrast ratio (1:1 .. 21:1); a
// translucent foreground is first laid over the background.
double relativeLuminance(const QColor& c);
double contrastRatio(const QColor& fg, const QColor& bg);
constexpr double kMinContrast = 4.5; // WCAG AA for text
// `fg` itself when its contrast against every one of `backgrounds` reaches `minimum`;
// otherwise `fg` mixed towards black (light backgrounds) or white (dark ones) in steps of
// 2 %, the first step that reaches it.
QColor readable(const QColor& fg, std::initializer_list<QColor> backgrounds,
                double minimum = kMinContrast);

// The text colours of one palette, each readable on its Base and Window.
struct Colors
{
    QColor link;
    QColor linkVisited;
    QColor muted;   // secondary text (captions, sizes, probe states)
    QColor ok;      // tested, available, a probe that answered
    QColor info;    // community, the recorded-machine note
    QColor warning; // experimental, notes, path warnings
    QColor error;   // rejected, failed
};
Colors colors(const QPalette& p);

bool isDark(const QPalette& p);
QColor toneColor(Tone t, const QPalette& p); // readable on Base and Window
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

// ---- Themes (style_theme.cpp)
// Fusion with a light or dark palette; both have readable link and placeholder colours.
QPalette lightPalette();
QPalette darkPalette();
// `p` with Link, LinkVisited and PlaceholderText made readable on its Base and Window.
QPalette withReadableRoles(QPalette p);
// Applies the "theme" setting to the application at once: "light", "dark", or "" for
// the system's (on Windows the dark palette when "apps use the dark theme"; elsewhere
// the platform's palette as it is). An override (--theme) wins over the setting.
void applyTheme(const QString& setting);
void setThemeOverride(const QString& theme); // "" = none, "light", "dark", "system"
QString appliedTheme();                      // "light" or "dark": what applyTheme chose

// ---- Live colours: kept right when the palette changes (a theme switch)
// The label's text in the tone's colour.
void setTextTone(QLabel* label, Tone tone);
// Rich text whose colours are the tokens {ok} {info} {warning} {error} {muted} {link}
// ("<span style='color:{muted}'>"), filled in from the label's palette.
void setRichText(QLabel* label, const QString& html);
QString fillColours(const QString& html, const QPalette& p);
// The widget's background a tint of the tone, with its text and links readable on it.
void setTint(QWidget* w, Tone tone, double amount);
// A tree item's text in the tone's colour; followItemTones() keeps the tree's right.
void setItemTone(QTreeWidgetItem* item, int column, Tone tone);
void followItemTones(QTreeWidget* tree);
void setItemTone(QListWidgetItem* item, Tone tone);
void followItemTones(QListWidget* list);

} // namespace sp::gui::style
