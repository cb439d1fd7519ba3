// TLS verification is really on: a real handshake against `openssl s_server` with a
// self-signed certificate fails against the system store, succeeds when that
// certificate is the CA file, and fails again when the host name does not match.

#include "download/recording_sink.h"
#include "installers/downloader.h"

#include <QProcess>
#include <QStandardPaths>
#include <QtTest>
#include <arpa/inet.h>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace sp;
using sp::test::RecordingSink;
namespace fs = std::filesystem;

namespace {

int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

bool canConnect(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

} // namespace

class TestTls : public QObject
{
    Q_OBJECT

    fs::path dir;
    QProcess server;
    int port = 0;
    const std::string body = std::string(200'000, 'x') + "end";

    std::string url(const char* host) const
    {
        return std::string("https://") + host + ":" + std::to_string(port) + "/file.bin";
    }
    Expected<DownloadResult> get(const std::string& u, const fs::path& ca, RecordingSink& sink)
    {
        DownloaderOptions o;
        o.cacheDir = dir / "cache";
        o.caFile = ca;
        o.maxTriesPerUrl = 1;
        DownloadRequest r;
        r.urls = {u};
        return Downloader(o).fetch(r, sink);
    }

private slots:
    void initTestCase()
    {
        const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
        if (openssl.isEmpty())
            QSKIP("openssl is not installed");
        dir = fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "tls";
        fs::remove_all(dir);
        fs::create_directories(dir / "www");
        std::ofstream(dir / "www" / "file.bin", std::ios::binary) << body;
        const QString d = QString::fromStdString(dir.string());
        QProcess req;
        req.start(openssl,
                  {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                   QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"),
                   QStringLiteral("2"), QStringLiteral("-keyout"), d + QStringLiteral("/key.pem"),
                   QStringLiteral("-out"), d + QStringLiteral("/cert.pem"), QStringLiteral("-subj"),
                   QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"),
                   QStringLiteral("subjectAltName=IP:127.0.0.1")});
        QVERIFY(req.waitForFinished(60'000));
        QVERIFY2(req.exitCode() == 0, req.readAllStandardError().constData());

        port = freePort();
        server.setWorkingDirectory(d + QStringLiteral("/www"));
        server.start(openssl, {QStringLiteral("s_server"), QStringLiteral("-quiet"),
                               QStringLiteral("-accept"), QStringLiteral("127.0.0.1:%1").arg(port),
                               QStringLiteral("-cert"), d + QStringLiteral("/cert.pem"),
                               QStringLiteral("-key"), d + QStringLiteral("/key.pem"),
                               QStringLiteral("-WWW")});
        QVERIFY(server.waitForStarted());
        for (int i = 0; i < 100 && !canConnect(port); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QVERIFY2(canConnect(port), "openssl s_server did not start listening");
    }
    void cleanupTestCase()
    {
        server.kill();
        server.waitForFinished();
    }

    void systemStoreRejectsASelfSignedCertificate()
    {
        RecordingSink sink;
        auto r = get(url("127.0.0.1"), {}, sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("TLS verification failed") != std::string::npos,
                 r.error().message.c_str());
        QCOMPARE(sink.bytes, std::uint64_t(0));
    }

    void trustedCertificateDownloads()
    {
        RecordingSink sink;
        auto r = get(url("127.0.0.1"), dir / "cert.pem", sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(sink.data == body);
    }

    void hostNameIsVerified()
    {
        RecordingSink sink;
        auto r = get(url("localhost"), dir / "cert.pem", sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("TLS verification failed") != std::string::npos,
                 r.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestTls)
#include "test_tls.moc"
