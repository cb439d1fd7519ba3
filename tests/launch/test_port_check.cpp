// The port check with a port this test holds, and the ports a workload's argv names.
#include "core/launch/port_check.h"

#include <QTest>
#include <arpa/inet.h>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace sp;

namespace {

// A listening socket on 127.0.0.1 and an ephemeral port; closed by the destructor.
struct Listener
{
    int fd = -1;
    int port = 0;
    Listener()
    {
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (bind(fd, reinterpret_cast<sockaddr*>(&a), len) != 0 || listen(fd, 1) != 0)
            qFatal("cannot listen");
        getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
    }
    ~Listener() { close(fd); }
};

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
        Listener l;
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
            Listener l;
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
