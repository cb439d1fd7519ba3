// The one function of core/paths.cpp (which needs Qt) that the Windows launch and file
// code use, for the MinGW test build: a path as UTF-8.
#include "core/paths.h"

namespace sp::paths {

std::string toUtf8(const std::filesystem::path& p)
{
    const auto u8 = p.u8string();
    return std::string(u8.begin(), u8.end());
}

} // namespace sp::paths
