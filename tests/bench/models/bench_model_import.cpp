// `models import` over a folder of model files (installers/model_import.h): the first scan
// hashes every file; a second scan of the unchanged folder hashes nothing (the cache keyed
// by device, inode, size and mtime; target: under 1 s). The files are sparse (holes read as
// zeros), so 20 GB take no disk; the first scan's rate is the hashing rate of what the
// kernel hands back. Prints seconds and GB/s; asserts nothing.
//   bench_model_import WORKDIR

#include "installers/model_import.h"

#include <QProcess>
#include <QString>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv)
{
    const fs::path work = argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path() / "bench_import";
    const char* gbEnv = std::getenv("STACKPILOT_BENCH_IMPORT_GB");
    const std::uint64_t gb = gbEnv ? std::strtoull(gbEnv, nullptr, 10) : 20;
    fs::remove_all(work);
    const fs::path folder = work / "lmstudio" / "publisher" / "repo";
    fs::create_directories(folder);
    // Ten files: each differs in its first bytes, the rest is a hole.
    const int files = 10;
    for (int i = 0; i < files; ++i) {
        const fs::path f = folder / ("model-" + std::to_string(i) + ".gguf");
        std::ofstream(f, std::ios::binary) << "GGUF model " << i;
        fs::resize_file(f, (gb << 30) / files);
    }
    sp::ModelVault vault(work / "vault");
    const auto found = sp::findModels(work / "lmstudio");
    auto t0 = Clock::now();
    auto first = sp::importModels(vault, found);
    const double firstS = seconds(t0);
    t0 = Clock::now();
    auto second = sp::importModels(vault, sp::findModels(work / "lmstudio"));
    const double secondS = seconds(t0);
    // The same bytes through sha256sum(1), in the same run: the rate the disk and the
    // kernel give a plain reader.
    t0 = Clock::now();
    QProcess sum;
    sum.start(QStringLiteral("/bin/sh"),
              {QStringLiteral("-c"), QStringLiteral("sha256sum \"$0\"/*.gguf >/dev/null"),
               QString::fromStdString(folder.string())});
    const bool summed = sum.waitForFinished(1'800'000) && sum.exitCode() == 0;
    const double sumS = seconds(t0);
    if (!first || !second) {
        std::fprintf(stderr, "bench_model_import: %s\n",
                     (first ? second.error() : first.error()).message.c_str());
        return 1;
    }
    std::printf("bench_model_import: %llu GB in %d sparse files (%zu found)\n",
                static_cast<unsigned long long>(gb), files, found.size());
    std::printf("  first scan   %8.2f s  %6.2f GB/s  hashed %d, linked %d, referenced %d\n", firstS,
                static_cast<double>(gb) / firstS, first->hashed, first->linked, first->referenced);
    std::printf("  second scan  %8.3f s  hashed %d   (target < 1 s)\n", secondS, second->hashed);
    if (summed)
        std::printf("  sha256sum    %8.2f s  %6.2f GB/s  ratio first scan / sha256sum %.2f\n", sumS,
                    static_cast<double>(gb) / sumS, firstS / sumS);
    fs::remove_all(work);
    return 0;
}
