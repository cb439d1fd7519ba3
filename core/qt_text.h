#pragma once
// The one crossing between Qt's UTF-16 strings and the core's UTF-8 std::string, for
// both front ends, and between a QString and the one path type, std::filesystem::path:
// every conversion at the edge (widgets, the command line, Qt's file APIs) goes through
// these. Paths travel as UTF-16 here because that is what both a QString and a Windows
// path hold: no code page can lose a character on the way.

#include <QString>
#include <filesystem>
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

inline QString qpath(const std::filesystem::path& p)
{
    return QString::fromStdU16String(p.u16string());
}

inline std::filesystem::path toPath(const QString& s)
{
    return std::filesystem::path(s.toStdU16String());
}

} // namespace sp
