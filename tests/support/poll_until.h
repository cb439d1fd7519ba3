#pragma once
// Waiting in a test for what another process or thread does (a file written, a pid gone,
// a request served): polls every 20 ms without running the event loop. The window's
// tests wait with QTest::qWaitFor instead (gui/gui_fixture.h), which runs it.

#include <QElapsedTimer>
#include <QThread>
#include <functional>

namespace sp::test {

// True as soon as `done` holds; false when it still does not after `ms`.
inline bool pollUntil(const std::function<bool()>& done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > ms)
            return false;
        QThread::msleep(20);
    }
    return true;
}

} // namespace sp::test
