#pragma once
// ANSI SGR colours (ESC [ ... m) of a workload's console line, turned into spans over
// the line's plain text, so the console can show the colours a workload prints
// (Stability Matrix strips them). Every other escape sequence is dropped, as the
// launch pipeline's stripAnsi drops it.

#include <QString>
#include <QVector>

namespace sp::gui {

struct AnsiSpan
{
    int start = 0; // in the plain text, UTF-16 units
    int length = 0;
    int colour = -1; // -1: the palette's text colour; 0..15 the ANSI colours;
                     // 0x1000000 | 0xRRGGBB a 24-bit colour
    bool bold = false;
};

struct AnsiLine
{
    QString text;            // without escapes
    QVector<AnsiSpan> spans; // only the coloured or bold runs
};

AnsiLine parseAnsi(const QString& line);

} // namespace sp::gui
