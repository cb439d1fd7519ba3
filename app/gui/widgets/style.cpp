#include "app/gui/widgets/style.h"

#include <QFontDatabase>
#include <QFrame>
#include <QLabel>

namespace sp::gui::style {

bool isDark(const QPalette& p)
{
    return p.color(QPalette::Base).lightness() < 128;
}

QColor toneColor(Tone t, const QPalette& p)
{
    const bool dark = isDark(p);
    switch (t) {
    case Tone::Good:
        return dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x2e, 0x7d, 0x32);
    case Tone::Info:
        return dark ? QColor(0x64, 0xb5, 0xf6) : QColor(0x15, 0x65, 0xc0);
    case Tone::Caution:
        return dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb2, 0x6a, 0x00);
    case Tone::Bad:
        return dark ? QColor(0xef, 0x9a, 0x9a) : QColor(0xc6, 0x28, 0x28);
    case Tone::Neutral:
        break;
    }
    return p.color(QPalette::PlaceholderText);
}

QColor tint(Tone t, const QPalette& p, double amount)
{
    const QColor a = toneColor(t, p);
    const QColor b = p.color(QPalette::Base);
    auto mix = [amount](int x, int y) { return int(x * amount + y * (1 - amount)); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

QColor ansiColor(int index, const QPalette& p)
{
    // xterm's colours, with a brighter set for dark backgrounds.
    static const QColor light[16] = {
        {0x00, 0x00, 0x00}, {0xc5, 0x1e, 0x14}, {0x1d, 0x7a, 0x1d}, {0x9a, 0x6b, 0x00},
        {0x1e, 0x4f, 0xd8}, {0xa0, 0x28, 0xa0}, {0x00, 0x7f, 0x86}, {0x60, 0x60, 0x60},
        {0x55, 0x55, 0x55}, {0xe0, 0x2e, 0x22}, {0x2b, 0x9e, 0x2b}, {0xb5, 0x89, 0x00},
        {0x33, 0x66, 0xff}, {0xc0, 0x3c, 0xc0}, {0x00, 0x9e, 0xa6}, {0x20, 0x20, 0x20}};
    static const QColor dark[16] = {
        {0x9a, 0x9a, 0x9a}, {0xff, 0x6e, 0x67}, {0x5f, 0xf9, 0x67}, {0xfe, 0xfb, 0x67},
        {0x6a, 0x9f, 0xff}, {0xff, 0x77, 0xff}, {0x5f, 0xfd, 0xff}, {0xd0, 0xd0, 0xd0},
        {0xb0, 0xb0, 0xb0}, {0xff, 0x8a, 0x84}, {0x8a, 0xff, 0x8f}, {0xff, 0xfc, 0x8f},
        {0x8f, 0xb6, 0xff}, {0xff, 0x9c, 0xff}, {0x8f, 0xff, 0xff}, {0xff, 0xff, 0xff}};
    if (index < 0 || index > 15)
        return p.color(QPalette::Text);
    return isDark(p) ? dark[index] : light[index];
}

Tone toneOfStatus(const QString& status)
{
    if (status == QLatin1String("tested"))
        return Tone::Good;
    if (status == QLatin1String("community"))
        return Tone::Info;
    if (status == QLatin1String("experimental"))
        return Tone::Caution;
    if (status == QLatin1String("rejected"))
        return Tone::Bad;
    return Tone::Neutral;
}

void makeBadge(QLabel* label, const QString& text, Tone tone)
{
    const QColor c = toneColor(tone, label->palette());
    label->setText(text);
    label->setStyleSheet(QStringLiteral("QLabel { color: %1; border: 1px solid %1; "
                                        "border-radius: 8px; padding: 1px 8px; }")
                             .arg(c.name()));
    label->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Maximum);
}

QFont titleFont(const QFont& base, double scale)
{
    QFont f = base;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * scale);
    else
        f.setPixelSize(int(f.pixelSize() * scale));
    f.setBold(true);
    return f;
}

QFont monoFont()
{
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
}

void makeCard(QWidget* w)
{
    if (auto* f = qobject_cast<QFrame*>(w)) {
        f->setFrameShape(QFrame::StyledPanel);
        f->setFrameShadow(QFrame::Plain);
    }
    w->setAutoFillBackground(true);
    w->setBackgroundRole(QPalette::Base);
}

} // namespace sp::gui::style
