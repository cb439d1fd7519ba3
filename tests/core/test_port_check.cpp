// core/launch/port_check: the port a workload listens on, and who holds a port.

#include "core/launch/port_check.h"
#include "support/loopback.h"

#include <QTest>
#include <fstream>
#include <netinet/in.h>
#include <sstream>
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

// Whether /proc/net/tcp lists a connection in TIME_WAIT (state 06) from this local port.
bool timeWaitOn(int port)
{
    std::ifstream in("/proc/net/tcp");
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string slot, local, remote, state;
        fields >> slot >> local >> remote >> state;
        const auto colon = local.rfind(':');
        if (state == "06" && colon != std::string::npos &&
            std::stoi(local.substr(colon + 1), nullptr, 16) == port)
            return true;
    }
    return false;
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
    // Stop with a browser tab open: the server's end of each connection closes first and
    // stays in TIME_WAIT for a minute. The servers bind with SO_REUSEADDR and start again
    // at once; Launch must not refuse them.
    void aConnectionInTimeWaitLeavesThePortFree()
    {
        const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
        const int on = 1; // as the workloads' servers do; their TIME_WAIT keeps the flag
        ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        sockaddr_in sa{};
        sa.sin_family = AF_INET;
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(listener, reinterpret_cast<const sockaddr*>(&sa), sizeof sa), 0);
        QCOMPARE(::listen(listener, 1), 0);
        socklen_t len = sizeof sa;
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&sa), &len);
        const int client = ::socket(AF_INET, SOCK_STREAM, 0);
        QCOMPARE(::connect(client, reinterpret_cast<const sockaddr*>(&sa), sizeof sa), 0);
        const int served = ::accept(listener, nullptr, nullptr);
        QVERIFY(served >= 0);
        ::close(listener);
        ::close(served); // the server closes first: its end goes to TIME_WAIT
        char byte = 0;
        QCOMPARE(::read(client, &byte, 1), ssize_t(0)); // the FIN arrived
        ::close(client);
        const int port = ntohs(sa.sin_port);
        QVERIFY2(timeWaitOn(port), "no TIME_WAIT connection on the port");
        const auto status = sp::checkPort(port);
        QVERIFY2(!status.inUse, status.describe().c_str());
        // And the check does not hide a listener: bound without SO_REUSEADDR, it is in use.
        checkHeld(htonl(INADDR_LOOPBACK));
    }
    void freePortIsFree()
    {
        const auto status = sp::checkPort(sp::test::freePort());
        QVERIFY(!status.inUse);
        QVERIFY(!status.holder.has_value());
    }
};

QTEST_GUILESS_MAIN(TestPortCheck)
#include "test_port_check.moc"
