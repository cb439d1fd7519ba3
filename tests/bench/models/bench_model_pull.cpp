// A model pull into the vault (stream, SHA-256 and write at once, installers/model_vault.h)
// against what a user does by hand: `curl -o FILE` and then `sha256sum FILE`, on the same
// loopback server in the same run. Prints seconds, the ratio (target: at most 0.6) and the
// process's peak memory growth during the pulls (target: at most 64 MiB); asserts nothing.
//   bench_model_pull WORKDIR

#include "installers/model_vault.h"
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
#include <sys/resource.h>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

long peakRssKb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

// Best of `runs`, in seconds; negative when a run failed.
template <class Fn> double best(int runs, Fn&& fn)
{
    double b = -1;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = Clock::now();
        if (!fn())
            return -1;
        const double s = seconds(t0);
        b = b < 0 || s < b ? s : b;
    }
    return b;
}

void writeRandom(const fs::path& file, std::uint64_t mb)
{
    std::mt19937_64 rng(7);
    std::vector<std::uint64_t> chunk((1 << 20) / 8);
    std::ofstream out(file, std::ios::binary);
    for (std::uint64_t i = 0; i < mb; ++i) {
        for (auto& v : chunk)
            v = rng();
        out.write(reinterpret_cast<const char*>(chunk.data()), 1 << 20);
    }
}

} // namespace

int main(int argc, char** argv)
{
    const fs::path work = argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path() / "bench_pull";
    const char* mbEnv = std::getenv("STACKPILOT_BENCH_MB");
    const std::uint64_t mb = mbEnv ? std::strtoull(mbEnv, nullptr, 10) : 1024;
    fs::remove_all(work);
    fs::create_directories(work);
    const fs::path file = work / "model.gguf";
    writeRandom(file, mb);
    const auto sha = sp::Sha256::ofFile(file);
    sp::test::HttpTestServer server;
    server.addFile("/model.gguf", file);
    if (!sha || !server.start()) {
        std::fprintf(stderr, "bench_model_pull: cannot set up\n");
        return 1;
    }
    sp::Model model;
    model.id = "bench";
    model.kind = "gguf";
    sp::ModelFile f;
    f.url = server.url("/model.gguf");
    f.sha256 = *sha;
    f.size = mb << 20;
    model.files = {f};
    const int runs = 3;
    const long rssBefore = peakRssKb();
    sp::ModelVault vault(work / "vault");
    const double ours = best(runs, [&] {
        auto r = vault.pull(model, {});
        if (!r) {
            std::fprintf(stderr, "bench_model_pull: %s\n", r.error().message.c_str());
            return false;
        }
        return bool(vault.remove("bench"));
    });
    const long rssGrowthKb = peakRssKb() - rssBefore;
    const QString curl = QStandardPaths::findExecutable(QStringLiteral("curl"));
    const double byHand = curl.isEmpty() ? -1 : best(runs, [&] {
        QProcess p;
        p.start(QStringLiteral("/bin/sh"),
                {QStringLiteral("-c"),
                 QStringLiteral("curl -sSf -o \"$1\" \"$0\" && sha256sum \"$1\" >/dev/null"),
                 QString::fromStdString(f.url),
                 QString::fromStdString((work / "curl.out").string())});
        return p.waitForFinished(900'000) && p.exitCode() == 0;
    });
    std::printf("bench_model_pull: %llu MiB over loopback, best of %d\n",
                static_cast<unsigned long long>(mb), runs);
    if (ours > 0)
        std::printf("  vault pull (fetch + sha256 + write, verified)  %7.2f s\n", ours);
    if (byHand > 0)
        std::printf("  curl -o FILE, then sha256sum FILE             %7.2f s\n", byHand);
    if (ours > 0 && byHand > 0)
        std::printf("  ratio pull / (curl then sha256sum)            %7.2f   (target <= 0.6)\n",
                    ours / byHand);
    std::printf("  peak memory growth during the pulls           %7.1f MiB (target <= 64)\n",
                static_cast<double>(rssGrowthKb) / 1024.0);
    server.stop();
    fs::remove_all(work);
    return ours > 0 ? 0 : 1;
}
