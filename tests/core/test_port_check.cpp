// core/launch/port_check: the port a workload listens on, and who holds a port.

#include "core/launch/port_check.h"
#include "support/loopback.h"

#include <QTest>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

std::string ownComm()
{
    std::ifstream in("/proc/self/comm");
    std::string name;
    std::getline(in, name);
    return name;
}

} // namespace

class TestPortCheck : public QObject
{
    Q_OBJECT

    // A listening socket of this very process: the holder must be us.
    void checkHeld(in_addr_t address)
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in sa{};
        sa.sin_family = AF_INET;
        sa.sin_addr.s_addr = address;
        QCOMPARE(::bind(fd, reinterpret_cast<const sockaddr*>(&sa), sizeof sa), 0);
        QCOMPARE(::listen(fd, 1), 0);
        socklen_t len = sizeof sa;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len);
        const auto status = sp::checkPort(ntohs(sa.sin_port));
        ::close(fd);
        QVERIFY(status.inUse);
        QVERIFY(status.holder.has_value());
        QCOMPARE(status.holder->pid, static_cast<long long>(::getpid()));
        QCOMPARE(status.holder->name, ownComm());
    }

private slots:
    void portFromArgsForms()
    {
        using V = std::vector<std::string>;
        QCOMPARE(sp::portFromArgs(V{"main.py", "--port", "8189"}, std::nullopt), 8189);
        QCOMPARE(sp::portFromArgs(V{"--port=7000"}, std::nullopt), 7000);
        QCOMPARE(sp::portFromArgs(V{"--listen-port", "7001"}, std::nullopt), 7001);
        QCOMPARE(sp::portFromArgs(V{"--listen-port=7002"}, std::nullopt), 7002);
        QCOMPARE(sp::portFromArgs(V{"--port", "1", "--port=2"}, std::nullopt), 2);
    }
    void portFromArgsIgnoresBadValues()
    {
        using V = std::vector<std::string>;
        QCOMPARE(sp::portFromArgs(V{"--port", "0"}, 8188), 8188);
        QCOMPARE(sp::portFromArgs(V{"--port=65536"}, 8188), 8188);
        QCOMPARE(sp::portFromArgs(V{"--port", "80x"}, std::nullopt), std::nullopt);
        QCOMPARE(sp::portFromArgs(V{"--port"}, std::nullopt), std::nullopt);
        QCOMPARE(sp::portFromArgs(V{"--port", "9000", "--port", "bad"}, std::nullopt), 9000);
        QCOMPARE(sp::portFromArgs(V{"--portal=5"}, std::nullopt), std::nullopt);
    }
    void describe()
    {
        sp::PortStatus s;
        s.port = 8188;
        QCOMPARE(s.describe(), std::string("port 8188 is free"));
        s.inUse = true;
        QCOMPARE(s.describe(), std::string("port 8188 is in use"));
        s.holder = sp::PortHolder{4242, "python3"};
        QCOMPARE(s.describe(), std::string("port 8188 is in use by python3 (pid 4242)"));
    }
    void heldOnLoopback() { checkHeld(htonl(INADDR_LOOPBACK)); }
    void heldOnAnyAddress() { checkHeld(htonl(INADDR_ANY)); }
    void freePortIsFree()
    {
        const auto status = sp::checkPort(sp::test::freePort());
        QVERIFY(!status.inUse);
        QVERIFY(!status.holder.has_value());
    }
};

QTEST_GUILESS_MAIN(TestPortCheck)
#include "test_port_check.moc"
