#pragma once
// The operating systems StackPilot knows, and the one it runs on: the single place
// that turns the compiler's platform into the catalog's "windows" / "linux".

#include <optional>
#include <string>
#include <string_view>

namespace sp {

enum class OsFamily
{
    Windows,
    Linux,
};

constexpr OsFamily hostOs()
{
#ifdef _WIN32
    return OsFamily::Windows;
#else
    return OsFamily::Linux;
#endif
}

// "windows" / "linux", the catalog's and the snapshot's spelling.
inline const char* toString(OsFamily os)
{
    return os == OsFamily::Windows ? "windows" : "linux";
}

inline std::optional<OsFamily> osFamilyFromString(std::string_view s)
{
    if (s == "windows")
        return OsFamily::Windows;
    if (s == "linux")
        return OsFamily::Linux;
    return std::nullopt;
}

} // namespace sp
