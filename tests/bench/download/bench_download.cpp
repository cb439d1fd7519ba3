// Loopback throughput of sp::Downloader against curl(1), served by the test server
// with sendfile. Prints MB/s and ratios; asserts nothing about speed.
//   bench_download WORKDIR

#include "installers/downloader.h"
#include "installers/sha256.h"
#include "support/http_test_server.h"

#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

class NullSink : public sp::ByteSink
{
public:
    std::uint64_t bytes = 0;
    sp::Expected<void> begin(std::optional<std::uint64_t>) override { return {}; }
    sp::Expected<void> write(const char*, std::size_t n) override
    {
        bytes += n;
        return {};
    }
    sp::Expected<void> finish() override { return {}; }
    sp::Expected<void> restart() override
    {
        bytes = 0;
        return {};
    }
};

double seconds(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Best of `runs`, in seconds; negative when the command failed.
template <class Fn> double best(int runs, Fn&& fn)
{
    double b = -1;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = Clock::now();
        if (!fn())
            return -1;
        const double s = seconds(t0);
        if (b < 0 || s < b)
            b = s;
    }
    return b;
}

} // namespace

int main(int argc, char** argv)
{
    const fs::path work =
        argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path() / "bench_download";
    const char* mbEnv = std::getenv("STACKPILOT_BENCH_MB");
    const std::uint64_t mb = mbEnv ? std::strtoull(mbEnv, nullptr, 10) : 512;
    const std::uint64_t size = mb << 20;
    fs::remove_all(work);
    fs::create_directories(work);
    const fs::path file = work / "blob.bin";
    {
        std::mt19937_64 rng(42);
        std::vector<std::uint64_t> chunk((1 << 20) / 8);
        std::ofstream out(file, std::ios::binary);
        for (std::uint64_t i = 0; i < mb; ++i) {
            for (auto& v : chunk)
                v = rng();
            out.write(reinterpret_cast<const char*>(chunk.data()), 1 << 20);
        }
    }
    const auto t0 = Clock::now();
    const auto sha = sp::Sha256::ofFile(file);
    const double hashOnly = seconds(t0);
    if (!sha) {
        std::fprintf(stderr, "bench_download: %s\n", sha.error().message.c_str());
        return 1;
    }

    sp::test::HttpTestServer server;
    server.addFile("/blob.bin", file);
    if (!server.start()) {
        std::fprintf(stderr, "bench_download: %s\n", server.error().c_str());
        return 1;
    }
    const std::string url = server.url("/blob.bin");
    const int runs = 3;

    auto runOurs = [&](bool pipelined) {
        sp::DownloaderOptions o;
        o.cacheDir = work / "cache";
        o.pipelined = pipelined;
        const sp::Downloader downloader(o);
        return best(runs, [&] {
            NullSink sink;
            sp::DownloadRequest r;
            r.urls = {url};
            r.sha256 = *sha;
            r.size = size;
            auto res = downloader.fetch(r, sink);
            if (!res) {
                std::fprintf(stderr, "bench_download: %s\n", res.error().message.c_str());
                return false;
            }
            fs::remove(res->file);
            return sink.bytes == size;
        });
    };
    const double ours = runOurs(true);
    const double serial = runOurs(false);

    const QString curl = QStandardPaths::findExecutable(QStringLiteral("curl"));
    auto runCurl = [&](const QString& out) {
        return best(runs, [&] {
            QProcess p;
            p.start(curl, {QStringLiteral("-sSf"), QStringLiteral("-o"), out,
                           QString::fromStdString(url)});
            return p.waitForFinished(600'000) && p.exitCode() == 0;
        });
    };
    const double curlNull = curl.isEmpty() ? -1 : runCurl(QStringLiteral("/dev/null"));
    const double curlFile =
        curl.isEmpty() ? -1 : runCurl(QString::fromStdString((work / "curl.out").string()));
    // The same work with standard tools: receive, keep a copy, hash.
    const double curlTee = curl.isEmpty() ? -1 : best(runs, [&] {
        QProcess p;
        p.start(QStringLiteral("/bin/sh"),
                {QStringLiteral("-c"),
                 QStringLiteral("curl -sSf \"$0\" | tee \"$1\" | "
                                "sha256sum >/dev/null"),
                 QString::fromStdString(url), QString::fromStdString((work / "tee.out").string())});
        return p.waitForFinished(600'000) && p.exitCode() == 0;
    });
    const double mbytes = static_cast<double>(size) / 1e6;

    std::printf("bench_download: %llu MiB over loopback, best of %d\n",
                static_cast<unsigned long long>(mb), runs);
    std::printf("  sha256 of the file alone        %8.0f MB/s\n", mbytes / hashOnly);
    if (ours > 0)
        std::printf("  sp::Downloader (hash+partial)   %8.0f MB/s\n", mbytes / ours);
    if (serial > 0)
        std::printf("  sp::Downloader, one thread      %8.0f MB/s\n", mbytes / serial);
    if (curlNull > 0)
        std::printf("  curl -o /dev/null               %8.0f MB/s\n", mbytes / curlNull);
    if (curlTee > 0)
        std::printf("  curl | tee FILE | sha256sum     %8.0f MB/s\n", mbytes / curlTee);
    if (curlFile > 0)
        std::printf("  curl -o FILE                    %8.0f MB/s\n", mbytes / curlFile);
    if (ours > 0 && curlNull > 0)
        std::printf("  ratio downloader / curl-null    %8.2f\n", curlNull / ours);
    if (ours > 0 && curlFile > 0)
        std::printf("  ratio downloader / curl-file    %8.2f\n", curlFile / ours);
    if (ours > 0 && curlTee > 0)
        std::printf("  ratio downloader / curl|tee|sha %8.2f\n", curlTee / ours);
    if (ours > 0 && serial > 0)
        std::printf("  ratio pipelined / one thread    %8.2f\n", serial / ours);
    server.stop();
    fs::remove_all(work);
    return ours > 0 ? 0 : 1;
}
