#pragma once
// The one crossing between Qt's UTF-16 strings and the core's UTF-8 std::string, for
// both front ends: every conversion at the edge (widgets, the command line) goes
// through these two.

#include <QString>
#include <string>
#include <string_view>

namespace sp {

inline QString qs(std::string_view utf8)
{
    return QString::fromUtf8(utf8.data(), qsizetype(utf8.size()));
}

inline std::string toStd(const QString& s)
{
    return s.toStdString();
}

} // namespace sp
