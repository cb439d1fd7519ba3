#pragma once
// Loopback sockets for tests that need a port rather than a server: a port nobody holds,
// whether something accepts connections on a port, and a socket of the test's own on
// 127.0.0.1. A test that needs an HTTP server uses http_test_server.h instead.

#include <cstdint>
#include <string>

namespace sp::test {

// A port on 127.0.0.1 that nobody held a moment ago: bind port 0, read what the kernel
// gave, close. Another process may take it before the caller does; the tests that use
// it start one server on it at once.
std::uint16_t freePort();

// True when a TCP connection to 127.0.0.1:`port` is accepted now (a server started in
// another process is up).
bool acceptsConnections(std::uint16_t port);

// A TCP socket on 127.0.0.1 at an ephemeral port, closed when the object goes. Bound
// only, a connection to it is refused; listening, the kernel takes connections that
// nobody ever accepts or answers, and the port is held (in use) for as long as it lives.
// Close-on-exec, so a child process the test starts does not keep holding it.
class LoopbackSocket
{
public:
    explicit LoopbackSocket(bool listening);
    ~LoopbackSocket();
    LoopbackSocket(const LoopbackSocket&) = delete;
    LoopbackSocket& operator=(const LoopbackSocket&) = delete;

    std::uint16_t port() const { return m_port; }   // 0 when the socket could not be made
    std::string url(const std::string& path) const; // "http://127.0.0.1:<port><path>"

private:
    int m_fd = -1;
    std::uint16_t m_port = 0;
};

} // namespace sp::test
