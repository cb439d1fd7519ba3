#include "app/gui/widgets/style.h"

#include <QFontDatabase>
#include <QFrame>
#include <algorithm>
#include <cmath>

namespace sp::gui::style {

namespace {

// sRGB channel (0..255) to linear light, as WCAG 2 defines it.
double linearChannel(int v)
{
    const double c = v / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// `fg` laid over the opaque `bg` by its alpha.
QColor over(const QColor& fg, const QColor& bg)
{
    const double a = fg.alphaF();
    auto mix = [a](int f, int b) { return int(std::lround(f * a + b * (1 - a))); };
    return QColor(mix(fg.red(), bg.red()), mix(fg.green(), bg.green()), mix(fg.blue(), bg.blue()));
}

// The colour a tone starts from before it is made readable: a strong hue for a light
// palette, a soft one for a dark palette.
QColor toneSeed(Tone t, bool dark)
{
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
    return {};
}

} // namespace

double relativeLuminance(const QColor& c)
{
    return 0.2126 * linearChannel(c.red()) + 0.7152 * linearChannel(c.green()) +
           0.0722 * linearChannel(c.blue());
}

double contrastRatio(const QColor& fg, const QColor& bg)
{
    const QColor back = bg.alpha() < 255 ? over(bg, Qt::white) : bg;
    const double a = relativeLuminance(fg.alpha() < 255 ? over(fg, back) : fg);
    const double b = relativeLuminance(back);
    return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
}

QColor readable(const QColor& fg, std::initializer_list<QColor> backgrounds, double minimum)
{
    if (backgrounds.size() == 0)
        return fg;
    const QColor first = *backgrounds.begin();
    const QColor start = fg.alpha() < 255 ? over(fg, first) : fg;
    double lum = 0;
    for (const QColor& b : backgrounds)
        lum += relativeLuminance(b);
    // Below this luminance white text contrasts more than black.
    const QColor target = lum / double(backgrounds.size()) < 0.179 ? Qt::white : Qt::black;
    auto worst = [&](const QColor& c) {
        double r = 21;
        for (const QColor& b : backgrounds)
            r = std::min(r, contrastRatio(c, b));
        return r;
    };
    QColor c = start;
    for (int step = 1; step <= 50 && worst(c) < minimum; ++step) {
        const double t = step / 50.0;
        auto mix = [t](int a, int b) { return int(std::lround(a * (1 - t) + b * t)); };
        c = QColor(mix(start.red(), target.red()), mix(start.green(), target.green()),
                   mix(start.blue(), target.blue()));
    }
    return c;
}

bool isDark(const QPalette& p)
{
    return relativeLuminance(p.color(QPalette::Base)) < 0.179;
}

QColor toneColor(Tone t, const QPalette& p)
{
    const QColor base = p.color(QPalette::Base);
    const QColor window = p.color(QPalette::Window);
    const QColor seed =
        t == Tone::Neutral ? p.color(QPalette::PlaceholderText) : toneSeed(t, isDark(p));
    return readable(seed, {base, window});
}

Colors colors(const QPalette& p)
{
    const QColor base = p.color(QPalette::Base);
    const QColor window = p.color(QPalette::Window);
    Colors c;
    c.link = readable(p.color(QPalette::Link), {base, window});
    c.linkVisited = readable(p.color(QPalette::LinkVisited), {base, window});
    c.muted = toneColor(Tone::Neutral, p);
    c.ok = toneColor(Tone::Good, p);
    c.info = toneColor(Tone::Info, p);
    c.warning = toneColor(Tone::Caution, p);
    c.error = toneColor(Tone::Bad, p);
    return c;
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
    return readable(isDark(p) ? dark[index] : light[index], {p.color(QPalette::Base)});
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
