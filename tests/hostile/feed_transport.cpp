// Hostile findings of issue 35 about how a feed travels, each written as the attack
// through the real stackpilot-cli: a git host that accepts and never answers (item 9),
// a redirect to plain http and a proxy for a loopback feed (item 10), a server that
// stalls mid-file (item 11), and what a killed `catalog update` leaves (item 13).

#include "core/catalog/feed/held_folder.h"
#include "core/catalog/feed/store.h"
#include "feed_support.h"
#include "support/http_test_server.h"
#include "support/poll_until.h"

#include <QElapsedTimer>
#include <QtTest>
#include <atomic>
#include <csignal>
#include <mutex>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace sp;
using namespace sp::test;

namespace {

// A TCP server on 127.0.0.1 that accepts every connection and never sends a byte. Not
// the HTTP test server (it reads a request and answers, a stall included) and not a
// listening socket alone (nothing accepts there): the attack is a git host that accepts
// and stays silent, and the test checks that every connection was closed by the client.
class SilentServer
{
public:
    ~SilentServer()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        for (int fd : m_conns)
            ::close(fd);
        if (m_listener >= 0)
            ::close(m_listener);
    }
    bool start()
    {
        m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (m_listener < 0 || ::bind(m_listener, reinterpret_cast<sockaddr*>(&a), len) != 0 ||
            ::listen(m_listener, 16) != 0 ||
            ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&a), &len) != 0)
            return false;
        m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] {
            while (!m_stop) {
                pollfd p{m_listener, POLLIN, 0};
                if (::poll(&p, 1, 50) == 1) {
                    const int fd = ::accept(m_listener, nullptr, nullptr);
                    std::lock_guard<std::mutex> lock(m_mutex);
                    if (fd >= 0)
                        m_conns.push_back(fd);
                }
            }
        });
        return true;
    }
    int port() const { return m_port; }
    int accepted()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        return static_cast<int>(m_conns.size());
    }
    // Every accepted connection was closed by its client (reads drain what it sent).
    bool allClosedByPeer()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        for (int fd : m_conns) {
            char buf[4096];
            ssize_t n;
            while ((n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
            }
            if (n != 0)
                return false;
        }
        return true;
    }

private:
    int m_listener = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::mutex m_mutex;
    std::vector<int> m_conns;
    std::thread m_thread;
};

QProcess* startCli(const QStringList& a, const QProcessEnvironment& env, QObject* parent)
{
    auto* p = new QProcess(parent);
    p->setProcessEnvironment(env);
    p->start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"), a);
    p->closeWriteChannel();
    return p;
}

// Names in `dir` that start with `prefix`.
std::vector<std::string> entries(const fs::path& dir, const std::string& prefix)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (paths::toUtf8(it->path().filename()).rfind(prefix, 0) == 0)
            out.push_back(paths::toUtf8(it->path().filename()));
    return out;
}

} // namespace

class TestHostileFeedTransport : public QObject
{
    Q_OBJECT

    HostileFeeds feeds;
    KeyPair lab;
    HttpTestServer server; // plain http on loopback, serving feeds.served

    CliRun update(const std::string& url, const QProcessEnvironment& env = cliEnvironment(),
                  const std::vector<std::string>& extra = {})
    {
        QStringList a = args({"catalog", "update", "--feed", url, "--pubkey", lab.line()});
        for (const auto& e : extra)
            a << QString::fromStdString(e);
        return runCli(a, env);
    }

private slots:
    void initTestCase()
    {
        if (!haveMinisign())
            QSKIP("minisign is not installed (.ci/install-deps)");
        QVERIFY(feeds.setUp("hostile-transport"));
        fs::remove_all(feed::FeedStore().root());
        QVERIFY(lab.generate(feeds.dir, "lab"));
        server.serveDirectory(feeds.served);
        QVERIFY2(server.start(), server.error().c_str());
    }

    // Feed files travel over https or stay on this machine: a redirect of an https
    // feed's file to plain http is refused, and a loopback feed never goes to a proxy.
    void item10_feedTransportRulesCannotBeBypassed()
    {
        QVERIFY(feeds.publish("r", "stackpilot", 5, lab));
        HttpTestServer tls;
        QVERIFY(HttpTestServer::writeSelfSignedCertificate(feeds.dir / "cert.pem",
                                                           feeds.dir / "key.pem", "IP:127.0.0.1"));
        QVERIFY(tls.enableTls(feeds.dir / "cert.pem", feeds.dir / "key.pem"));
        tls.serveDirectory(feeds.served);
        tls.addRedirect("/r/runtimes.json", server.url("/r/runtimes.json"));
        QVERIFY(tls.start());
        server.resetStats();
        auto r = update(tls.url("/r"), cliEnvironment(),
                        {"--ca-file", paths::toUtf8(feeds.dir / "cert.pem")});
        QVERIFY2(r.rc != 0 && r.err.find("redirect to plain http refused") != std::string::npos,
                 (r.out + r.err).c_str());
        QCOMPARE(server.stats("/r/runtimes.json").requests, 0);
        QVERIFY(!(*feed::FeedStore().state()).has_value());

        HttpTestServer proxy; // stands for a proxy on another machine
        QVERIFY(proxy.start());
        auto env = cliEnvironment();
        env.remove(QStringLiteral("no_proxy"));
        env.remove(QStringLiteral("NO_PROXY"));
        env.insert(QStringLiteral("http_proxy"), QString::fromStdString(proxy.url("")));
        r = update(server.url("/r"), env);
        QVERIFY2(r.rc == 0 && r.out.find("catalog feed 5 installed") != std::string::npos,
                 r.err.c_str());
        QCOMPARE(proxy.totalRequests(), 0);
    }

    // A server that stalls mid-file: the update stops at its deadline with one line, and
    // while it waits `catalog rollback` is not blocked by feed.lock.
    void item11_stallingServerMeetsTheDeadlineAndHoldsNoLock()
    {
        QVERIFY(feeds.publish("s6", "stackpilot", 6, lab));
        QVERIFY2(update(server.url("/s6")).rc == 0, "feed 6 was not installed");
        QVERIFY(feeds.publish("slow", "stackpilot", 7, lab));
        server.setFault("/slow/runtimes.json", Fault::stallAfter(10, std::chrono::seconds(60), -1));
        QElapsedTimer t;
        t.start();
        QProcess* slow = startCli(args({"catalog", "update", "--feed", server.url("/slow"),
                                        "--pubkey", lab.line(), "--timeout", "4"}),
                                  cliEnvironment(), this);
        QVERIFY(pollUntil([&] { return server.stats("/slow/runtimes.json").requests > 0; }, 10000));
        auto back = runCli(args({"catalog", "rollback"}), cliEnvironment(), 8000);
        QVERIFY2(back.rc == 0 && back.out.find("feed 5 is in use again") != std::string::npos,
                 (back.out + back.err).c_str());
        QVERIFY(slow->waitForFinished(20000));
        const std::string err = slow->readAllStandardError().toStdString();
        QVERIFY2(t.elapsed() < 15000, std::to_string(t.elapsed()).c_str());
        QVERIFY2(slow->exitCode() == 1 &&
                     err.find("the feed did not arrive within 4 s; stopped") != std::string::npos,
                 err.c_str());
        QCOMPARE(lineCount(err), 1L);
        QCOMPARE((*feed::FeedStore().state())->active, std::string("v5"));
        server.clearFaults();
    }

    // A killed `catalog update` leaves its download folder and its staging folder; the
    // next start removes exactly those, not a live run's folder nor one it did not make.
    void item13_killedUpdateLeavesNothingForGood()
    {
        const fs::path tmp = feeds.dir / "tmp";
        fs::create_directories(tmp);
        auto env = cliEnvironment();
        env.insert(QStringLiteral("TMPDIR"), q(tmp));
        QVERIFY(feed::createHeldFolder(tmp / "stackpilot-feed-live", "a live run's").ok());
        fs::create_directories(tmp / "stackpilot-feed-users-own");
        server.setFault("/slow/runtimes.json", Fault::stallAfter(10, std::chrono::seconds(60), -1));
        server.resetStats();
        QProcess* killed = startCli(
            args({"catalog", "update", "--feed", server.url("/slow"), "--pubkey", lab.line()}), env,
            this);
        QVERIFY(pollUntil([&] { return server.stats("/slow/runtimes.json").requests > 0; }, 10000));
        const std::string pid = std::to_string(killed->processId());
        killed->kill();
        QVERIFY(killed->waitForFinished(5000));
        server.clearFaults();
        QCOMPARE(entries(tmp, "stackpilot-feed-" + pid + "-").size(), std::size_t{1});
        QCOMPARE(entries(feed::FeedStore().root(), "staging-" + pid + "-").size(), std::size_t{1});
        auto r = runCli(args({"catalog", "status"}), env);
        QCOMPARE(r.rc, 0);
        QVERIFY(entries(tmp, "stackpilot-feed-" + pid + "-").empty());
        QVERIFY(entries(feed::FeedStore().root(), "staging-").empty());
        QVERIFY(fs::exists(tmp / "stackpilot-feed-live"));
        QVERIFY(fs::exists(tmp / "stackpilot-feed-users-own"));
    }

    // `catalog check` on a git host that accepts and never answers ends at its deadline,
    // and Ctrl-C stops it at once, leaving no process behind on the connection.
    void item9_silentGitHostIsStoppedByDeadlineAndCtrlC()
    {
        SilentServer silent;
        QVERIFY(silent.start());
        const fs::path cat = feeds.dir / "git-catalog";
        fs::create_directories(cat);
        const std::string url = "http://127.0.0.1:" + std::to_string(silent.port()) + "/r.git";
        writeAll(cat / "runtimes.json",
                 "{\"schema_version\": 1, \"runtimes\": [{\"id\": \"rt-git\", \"kind\": "
                 "\"source\", \"version\": \"1\", \"artifacts\": [{\"url\": \"" +
                     url + "\", \"format\": \"git\", \"commit\": \"" + std::string(40, 'a') +
                     "\", \"tag\": \"\"}]}]}");
        QElapsedTimer t;
        t.start();
        auto r = runCli(args({"catalog", "check", paths::toUtf8(cat), "--timeout", "2"}),
                        cliEnvironment(), 30000);
        QVERIFY2(t.elapsed() < 12000, std::to_string(t.elapsed()).c_str());
        QVERIFY2(r.rc == 1 && r.out.find("FAILED    rt-git " + url +
                                         ": no answer within 2 s; stopped") != std::string::npos,
                 (r.out + r.err).c_str());
        QVERIFY(pollUntil([&] { return silent.allClosedByPeer(); }, 3000));

        const int before = silent.accepted();
        QProcess* check =
            startCli(args({"catalog", "check", paths::toUtf8(cat)}), cliEnvironment(), this);
        QVERIFY(pollUntil([&] { return silent.accepted() > before; }, 10000));
        t.restart();
        ::kill(static_cast<pid_t>(check->processId()), SIGINT);
        QVERIFY2(check->waitForFinished(5000), "Ctrl-C did not stop catalog check");
        QVERIFY(t.elapsed() < 3000);
        QCOMPARE(check->exitStatus(), QProcess::CrashExit); // ended by the signal
        QVERIFY2(pollUntil([&] { return silent.allClosedByPeer(); }, 3000),
                 "a git check child still holds the connection");
    }
};

QTEST_GUILESS_MAIN(TestHostileFeedTransport)
#include "feed_transport.moc"
