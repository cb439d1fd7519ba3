#include "app/gui/models/ansi.h"

#include <QStringList>

namespace sp::gui {

namespace {

struct Style
{
    int colour = -1;
    bool bold = false;
    bool plain() const { return colour < 0 && !bold; }
};

// 38;5;n (n < 16 is an ANSI colour, else the xterm cube and grey ramp) and 38;2;r;g;b.
int extendedColour(const QStringList& codes, int& i)
{
    if (i + 2 < codes.size() && codes[i + 1] == QLatin1String("5")) {
        const int n = codes[i + 2].toInt();
        i += 2;
        if (n < 16)
            return n;
        if (n >= 232) {
            const int g = 8 + (n - 232) * 10;
            return 0x1000000 | (g << 16) | (g << 8) | g;
        }
        const int c = n - 16;
        auto level = [](int v) { return v == 0 ? 0 : 55 + v * 40; };
        return 0x1000000 | (level(c / 36) << 16) | (level((c / 6) % 6) << 8) | level(c % 6);
    }
    if (i + 4 < codes.size() && codes[i + 1] == QLatin1String("2")) {
        const int rgb = (codes[i + 2].toInt() & 255) << 16 | (codes[i + 3].toInt() & 255) << 8 |
                        (codes[i + 4].toInt() & 255);
        i += 4;
        return 0x1000000 | rgb;
    }
    return -1;
}

void applySgr(const QString& params, Style& s)
{
    QStringList codes = params.split(QLatin1Char(';'));
    if (codes.isEmpty() || (codes.size() == 1 && codes[0].isEmpty()))
        codes = {QStringLiteral("0")};
    for (int i = 0; i < codes.size(); ++i) {
        const int c = codes[i].toInt();
        if (c == 0)
            s = Style{};
        else if (c == 1)
            s.bold = true;
        else if (c == 22)
            s.bold = false;
        else if (c >= 30 && c <= 37)
            s.colour = c - 30;
        else if (c >= 90 && c <= 97)
            s.colour = c - 90 + 8;
        else if (c == 39)
            s.colour = -1;
        else if (c == 38)
            s.colour = extendedColour(codes, i);
        else if (c == 48)
            extendedColour(codes, i); // backgrounds are not shown; skip their arguments
    }
}

// Length of the escape sequence at line[i] (line[i] is ESC); sets `sgr` (and `isSgr`)
// for ESC [ ... m.
int escapeLength(const QString& line, int i, QString& sgr, bool& isSgr)
{
    const int n = int(line.size());
    if (i + 1 >= n)
        return 1;
    const QChar kind = line[i + 1];
    if (kind == QLatin1Char('[')) {
        int j = i + 2;
        while (j < n && (line[j].unicode() < 0x40 || line[j].unicode() > 0x7e))
            ++j;
        if (j < n && line[j] == QLatin1Char('m')) {
            sgr = line.mid(i + 2, j - i - 2);
            isSgr = true;
        }
        return (j < n ? j + 1 : n) - i;
    }
    if (kind == QLatin1Char(']')) {
        int j = i + 2;
        while (j < n && line[j] != QChar(7) &&
               !(line[j] == QChar(27) && j + 1 < n && line[j + 1] == QLatin1Char('\\')))
            ++j;
        return (j >= n ? n : line[j] == QChar(7) ? j + 1 : j + 2) - i;
    }
    return 2;
}

} // namespace

AnsiLine parseAnsi(const QString& line)
{
    AnsiLine out;
    if (!line.contains(QChar(27))) {
        out.text = line;
        return out;
    }
    out.text.reserve(line.size());
    Style style;
    int runStart = 0;
    Style runStyle;
    auto closeRun = [&] {
        const int len = int(out.text.size()) - runStart;
        if (len > 0 && !runStyle.plain())
            out.spans.push_back({runStart, len, runStyle.colour, runStyle.bold});
        runStart = int(out.text.size());
        runStyle = style;
    };
    for (int i = 0; i < line.size();) {
        if (line[i] != QChar(27)) {
            out.text.append(line[i]);
            ++i;
            continue;
        }
        QString sgr;
        bool isSgr = false;
        const int len = escapeLength(line, i, sgr, isSgr);
        if (isSgr) {
            applySgr(sgr, style);
            closeRun();
        }
        i += len;
    }
    closeRun();
    return out;
}

} // namespace sp::gui
