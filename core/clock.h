#pragma once
// Time as an injectable seam: receipts stamp it and gc ages partial downloads by it,
// so tests can move it without touching file times or sleeping.

#include <chrono>
#include <string>

namespace sp {

class Clock
{
public:
    using time_point = std::chrono::system_clock::time_point;
    virtual ~Clock() = default;
    virtual time_point now() const = 0;
    // The real clock (system_clock).
    static const Clock& system();
};

// A clock that says what a test sets.
class FixedClock : public Clock
{
public:
    explicit FixedClock(time_point t) : m_t(t) {}
    time_point now() const override { return m_t; }
    void set(time_point t) { m_t = t; }

private:
    time_point m_t;
};

// "2026-11-24T03:45:00Z": how receipts, records and settings stamp a time (UTC).
std::string isoTime(const Clock::time_point& t);
// "20261124T034500Z": the same second as a file name part (launch logs).
std::string compactTime(const Clock::time_point& t);

} // namespace sp
