// stackpilot-test-httpd, the server as a process for shell-driven tests: serves a
// folder, applies --fault, writes its port file, exits cleanly on SIGTERM.

#include "download/recording_sink.h"
#include "installers/downloader.h"
#include "installers/sha256.h"

#include <QProcess>
#include <QtTest>
#include <fstream>
#include <thread>

using namespace sp;
using sp::test::RecordingSink;
namespace fs = std::filesystem;

class TestHttpd : public QObject
{
    Q_OBJECT

    const QString exe = QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-test-httpd");

private slots:
    void servesAFolderWithFaults()
    {
        const fs::path dir =
            fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "httpd";
        fs::remove_all(dir);
        fs::create_directories(dir / "root" / "sub");
        const std::string body(500'000, 'q');
        std::ofstream(dir / "root" / "sub" / "f.bin", std::ios::binary) << body;
        const fs::path portFile = dir / "port";

        QProcess httpd;
        httpd.start(exe, {QStringLiteral("--root"), QString::fromStdString((dir / "root").string()),
                          QStringLiteral("--port-file"), QString::fromStdString(portFile.string()),
                          QStringLiteral("--fault"), QStringLiteral("/sub/f.bin:drop:1000")});
        QVERIFY(httpd.waitForStarted());
        for (int i = 0; i < 100 && !fs::exists(portFile); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QVERIFY2(fs::exists(portFile), "no port file");
        int port = 0;
        std::ifstream(portFile) >> port;
        QVERIFY(port > 0);

        DownloaderOptions o;
        o.cacheDir = dir / "cache";
        o.backoffBase = std::chrono::milliseconds(1);
        DownloadRequest r;
        r.urls = {"http://127.0.0.1:" + std::to_string(port) + "/sub/f.bin"};
        r.sha256 = Sha256::ofBytes(body.data(), body.size());
        RecordingSink sink;
        auto res = Downloader(o).fetch(r, sink);
        QVERIFY2(res.ok(), res.ok() ? "" : res.error().message.c_str());
        QVERIFY(sink.data == body);
        QCOMPARE(res->requests, 2); // the --fault dropped the first transfer

        httpd.terminate();
        QVERIFY(httpd.waitForFinished(5000));
        QCOMPARE(httpd.exitStatus(), QProcess::NormalExit);
        QCOMPARE(httpd.exitCode(), 0);
    }

    void badFaultIsAUsageError()
    {
        QProcess httpd;
        httpd.start(exe,
                    {QStringLiteral("--root"), QStringLiteral("."), QStringLiteral("--port-file"),
                     QStringLiteral("p"), QStringLiteral("--fault"), QStringLiteral("/x:explode")});
        QVERIFY(httpd.waitForFinished(5000));
        QCOMPARE(httpd.exitCode(), 2);
        QVERIFY(httpd.readAllStandardError().contains("bad --fault"));
    }
};

QTEST_GUILESS_MAIN(TestHttpd)
#include "test_httpd.moc"
