#include "core/format.h"

#include <cmath>
#include <cstdio>

namespace sp::format {

namespace {

constexpr double kKiB = 1024.0;
constexpr double kMiB = kKiB * 1024;
constexpr double kGiB = kMiB * 1024;

// One decimal, or none: "%.1f" / "%.0f" without a format string built at run time.
std::string number(double v, int decimals)
{
    char buf[48];
    if (decimals == 1)
        std::snprintf(buf, sizeof buf, "%.1f", v);
    else
        std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

} // namespace

std::string bytes(std::uint64_t n)
{
    const double v = static_cast<double>(n);
    if (v >= kGiB)
        return number(v / kGiB, 1) + " GiB";
    if (v >= kMiB)
        return number(std::floor(v / kMiB), 0) + " MiB";
    if (n >= 1024)
        return number(std::floor(v / kKiB), 0) + " KiB";
    return std::to_string(n) + " B";
}

std::string rate(double bytesPerSecond)
{
    if (!(bytesPerSecond >= 0))
        return "-";
    return bytes(static_cast<std::uint64_t>(bytesPerSecond)) + "/s";
}

std::string vramMb(const std::optional<std::int64_t>& mb)
{
    if (!mb || *mb < 0)
        return "-";
    return bytes(static_cast<std::uint64_t>(*mb) * 1024 * 1024);
}

std::string duration(double seconds)
{
    if (!(seconds >= 0) || seconds > 1e9)
        return "-";
    const auto s = static_cast<long long>(std::llround(seconds));
    char buf[48];
    if (s < 60)
        std::snprintf(buf, sizeof buf, "%lld s", s);
    else if (s < 3600)
        std::snprintf(buf, sizeof buf, "%lld min %02lld s", s / 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%lld h %02lld min", s / 3600, (s % 3600) / 60);
    return buf;
}

std::string gpuTarget(const GpuInfo& g)
{
    if (g.gfx)
        return *g.gfx;
    if (g.computeCapability)
        return "sm " + *g.computeCapability;
    return "-";
}

} // namespace sp::format
