// The window loads libcurl, libarchive, libcrypto and libgit2 on first use
// (app/gui/lazy_*.cpp): this program is linked as the window is (the same lazy_*.cpp,
// --as-needed), so none of them is loaded when it starts; then a real download from a
// loopback server (stackpilot-test-httpd, a child process), hashed and extracted as
// the window installs a runtime, and a git repository made with libgit2 work through
// them, and only then are they loaded. The window itself, `stackpilot`, needs none of
// them (readelf).

#include "installers/downloader.h"
#include "installers/extract.h"
#include "installers/sha256.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <git2.h>

using namespace sp;
namespace fs = std::filesystem;

namespace {

const char* const kLazy[] = {"libcurl.so.4", "libarchive.so.13", "libcrypto.so.3",
                             "libgit2.so." LIBGIT2_SOVERSION};

bool loaded(const char* soname)
{
    void* h = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (h)
        dlclose(h);
    return h != nullptr;
}

} // namespace

class TestLazyLibs : public QObject
{
    Q_OBJECT
private slots:
    void theWindowNeedsNoneOfThem()
    {
        QProcess readelf;
        readelf.start(
            QStringLiteral("readelf"),
            {QStringLiteral("-d"), QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot")});
        QVERIFY(readelf.waitForFinished(30000));
        const QByteArray dynamic = readelf.readAllStandardOutput();
        QVERIFY2(dynamic.contains("NEEDED"), dynamic.constData());
        for (const char* lib : kLazy)
            QVERIFY2(!dynamic.contains(QByteArray("[").append(lib).append(']')), lib);
    }

    void loadedOnFirstUseAndWorking()
    {
        for (const char* lib : kLazy)
            QVERIFY2(!loaded(lib), lib);

        QTemporaryDir tmp;
        const fs::path root(tmp.path().toStdString());
        fs::create_directories(root / "src" / "rt" / "bin");
        fs::create_directories(root / "www");
        std::ofstream(root / "src" / "rt" / "bin" / "tool.bin") << std::string(256 << 10, 'x');
        QCOMPARE(QProcess::execute(QStringLiteral("tar"),
                                   {QStringLiteral("-czf"),
                                    QString::fromStdString((root / "www" / "rt.tar.gz").string()),
                                    QStringLiteral("-C"),
                                    QString::fromStdString((root / "src").string()),
                                    QStringLiteral("rt")}),
                 0);
        std::ifstream in(root / "www" / "rt.tar.gz", std::ios::binary);
        const std::string archive((std::istreambuf_iterator<char>(in)), {});
        QProcess server;
        server.setProcessChannelMode(QProcess::ForwardedChannels);
        const QString portFile = QString::fromStdString((root / "port").string());
        server.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-test-httpd"),
                     {QStringLiteral("--root"), QString::fromStdString((root / "www").string()),
                      QStringLiteral("--port-file"), portFile});
        QVERIFY(server.waitForStarted());
        QVERIFY(QTest::qWaitFor(
            [&] {
                std::error_code ec;
                const auto n = fs::file_size(root / "port", ec);
                return !ec && n > 0;
            },
            10000));
        std::string port;
        std::ifstream(root / "port") >> port;
        const std::string url = "http://127.0.0.1:" + port + "/rt.tar.gz";
        fs::create_directories(root / "staging");
        ExtractSink::Options extract;
        extract.root = root / "staging";
        extract.format = "tar.gz";
        extract.archiveName = "rt.tar.gz";
        extract.stripComponents = 1;
        auto sink = ExtractSink::create(extract);
        QVERIFY(sink.ok());
        DownloaderOptions options;
        options.cacheDir = root / "cache";
        const std::string sha = Sha256::ofBytes(archive.data(), archive.size());
        DownloadRequest request;
        request.urls = {url};
        request.sha256 = sha;
        request.size = archive.size();
        auto got = Downloader(options).fetch(request, **sink);
        QVERIFY2(got.ok(), got.ok() ? "" : got.error().message.c_str());
        QCOMPARE(got->sha256, sha);
        QVERIFY(fs::file_size(root / "staging" / "bin" / "tool.bin") == (256u << 10));
        for (const char* lib : {"libcurl.so.4", "libarchive.so.13", "libcrypto.so.3"})
            QVERIFY2(loaded(lib), lib);
        server.terminate();
        server.waitForFinished();

        QVERIFY(!loaded(kLazy[3]));
        QVERIFY(git_libgit2_init() > 0);
        git_repository* repo = nullptr;
        const std::string repoDir = (root / "repo").string();
        const int made = git_repository_init(&repo, repoDir.c_str(), 0);
        QVERIFY2(made == 0, made == 0 ? "" : git_error_last()->message);
        git_repository_free(repo);
        QVERIFY(fs::exists(root / "repo" / ".git" / "HEAD"));
        git_libgit2_shutdown();
        QVERIFY(loaded(kLazy[3]));
    }
};

QTEST_GUILESS_MAIN(TestLazyLibs)
#include "test_lazy_libs.moc"
