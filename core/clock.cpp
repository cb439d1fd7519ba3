#include "core/clock.h"

#include <ctime>

namespace sp {

namespace {
class SystemClock : public Clock
{
public:
    time_point now() const override { return std::chrono::system_clock::now(); }
};

std::string formatUtc(const Clock::time_point& t, bool iso)
{
    const std::time_t secs = std::chrono::system_clock::to_time_t(t);
    std::tm tm{};
#ifdef _WIN32
    gmtime_s(&tm, &secs);
#else
    gmtime_r(&secs, &tm);
#endif
    char buf[32];
    // Two literal formats rather than one variable: -Wformat-nonliteral.
    if (iso)
        std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    else
        std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
    return buf;
}
} // namespace

const Clock& Clock::system()
{
    static const SystemClock clock;
    return clock;
}

std::string isoTime(const Clock::time_point& t)
{
    return formatUtc(t, true);
}

std::string compactTime(const Clock::time_point& t)
{
    return formatUtc(t, false);
}

} // namespace sp
