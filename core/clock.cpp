#include "core/clock.h"

namespace sp {

namespace {
class SystemClock : public Clock
{
public:
    time_point now() const override { return std::chrono::system_clock::now(); }
};
} // namespace

const Clock& Clock::system()
{
    static const SystemClock clock;
    return clock;
}

} // namespace sp
