#pragma once
// Looks up and prints probe results, shared by the probe test suites.

#include "detectors/probe_runner.h"

#include <QByteArray>
#include <string>

namespace sp::test {

inline const ProbeResult* findProbe(const ProbeReport& r, const std::string& name)
{
    for (const auto& p : r.probes) {
        if (p.name == name)
            return &p;
    }
    return nullptr;
}

// One line per report, for QVERIFY2 messages.
inline QByteArray describe(const ProbeReport& r)
{
    std::string s;
    for (const auto& p : r.probes)
        s += p.name + "=" + toString(p.status) + " (" + p.detail + "); ";
    return QByteArray::fromStdString(s);
}

} // namespace sp::test
