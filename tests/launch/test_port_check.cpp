// The port check with a port this test holds, and the ports a workload's argv names.
#include "core/launch/port_check.h"
#include "held_port.h"

#include <QTest>
#include <fstream>
#include <unistd.h>

using namespace sp;
using sp::test::HeldPort;

namespace {

std::string ownName()
{
    std::ifstream comm("/proc/self/comm");
    std::string name;
    std::getline(comm, name);
    return name;
}

} // namespace

class TestPortCheck : public QObject
{
    Q_OBJECT

private slots:
    void aPortWeHoldIsInUseAndNamesUs()
    {
        HeldPort l;
        const PortStatus s = checkPort(l.port);
        QVERIFY(s.inUse);
        QVERIFY(s.holder);
        QCOMPARE(s.holder->pid, static_cast<long long>(getpid()));
        QCOMPARE(s.holder->name, ownName());
        QCOMPARE(s.describe(), "port " + std::to_string(l.port) + " is in use by " + ownName() +
                                   " (pid " + std::to_string(getpid()) + ")");
    }

    void aClosedPortIsFree()
    {
        int port = 0;
        {
            HeldPort l;
            port = l.port;
        }
        const PortStatus s = checkPort(port);
        QVERIFY(!s.inUse);
        QVERIFY(!s.holder);
        QCOMPARE(s.describe(), "port " + std::to_string(port) + " is free");
    }

    void portsFromArguments()
    {
        QCOMPARE(portFromArgs({"main.py"}, 8188), std::optional<int>(8188));
        QCOMPARE(portFromArgs({"main.py", "--port", "9000"}, 8188), std::optional<int>(9000));
        QCOMPARE(portFromArgs({"webui.sh", "--port=7000", "--listen-port", "7001"}, 7860),
                 std::optional<int>(7001));
        QCOMPARE(portFromArgs({"x", "--port", "70000"}, std::nullopt), std::optional<int>());
        QCOMPARE(portFromArgs({"x", "--port"}, 1), std::optional<int>(1));
        QCOMPARE(portFromArgs({"x", "--portal", "5"}, std::nullopt), std::optional<int>());
    }
};

QTEST_GUILESS_MAIN(TestPortCheck)
#include "test_port_check.moc"
