// Benchmark: exporting a diagnostics bundle (collect + write) with three 5 MB launch logs
// and two installed runtimes of 1,000 files each, verify included, against a same-run
// baseline: libarchive zipping the same files plainly (no redaction, no verify, no
// report). Target: the export takes <= 1 s. Printed, not asserted; the
// program fails only when the export is wrong (a planted token survives, logs missing).

#include "app/common/diag/bundle.h"
#include "archive_builder.h"
#include "core/snapshot.h"
#include "diag_fixture.h"
#include "installers/prefix_store.h"

#include <QCoreApplication>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

namespace fs = std::filesystem;
using namespace sp;

namespace {

constexpr int kRuns = 5;
constexpr std::size_t kLogBytes = 5u << 20;
constexpr int kFilesPerRuntime = 1000;

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// A workload's console: progress lines, paths in the user's home, a warning now and then,
// and a token in one line of a thousand (the redactor has real work to do).
std::string consoleLog(const fs::path& home, int seed)
{
    std::string log;
    for (int i = 0; log.size() < kLogBytes; ++i) {
        switch (i % 8) {
        case 0:
            log += "100%|##########| " + std::to_string(i) + "/20000 [00:12<00:00, 7.91it/s]\n";
            break;
        case 1:
            log += "Loading weights from " + home.string() + "/models/sd_xl_base_1.0.safetensors\n";
            break;
        case 2:
            log += "  File \"" + home.string() +
                   "/.stackpilot/data/venvs/sdnext/lib/python3.11/site-packages/torch/nn/"
                   "modules/module.py\", line 1532, in _wrapped_call_impl\n";
            break;
        case 3:
            log += "INFO:     127.0.0.1:5" + std::to_string(seed) +
                   "12 - \"GET /sdapi/v1/progress HTTP/1.1\" 200 OK\n";
            break;
        case 4:
            log += i % 1000 == 4 ? "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 in env\n"
                                 : "rocBLAS info: gfx1031 uses kernels of gfx1030\n";
            break;
        default:
            log += "step " + std::to_string(i) + ": loss=0." + std::to_string(i % 997) +
                   " lr=1e-4 mem=11.2GB\n";
        }
    }
    return log;
}

void installRuntimes(const fs::path& home)
{
    for (int r = 0; r < 2; ++r) {
        std::vector<sp::test::TestEntry> files;
        for (int i = 0; i < kFilesPerRuntime; ++i)
            files.push_back(sp::test::TestEntry::file(
                "lib/pkg" + std::to_string(i % 37) + "/file" + std::to_string(i) + ".py",
                sp::test::mixedBytes(2048 + static_cast<std::size_t>((i * 7919) % 14336),
                                     static_cast<unsigned>(r * 10000 + i))));
        const std::string id = "bench-runtime-" + std::to_string(r);
        auto installed =
            sp::test::installOffline(id, "https://example.invalid/" + id + ".tar.gz",
                                     sp::test::buildArchive(files, "tar.gz"), home / "offline");
        if (!installed) {
            std::fprintf(stderr, "install failed: %s\n", installed.error().message.c_str());
            std::exit(1);
        }
    }
}

// The baseline: the same input files, zipped plainly with libarchive (deflate).
std::string plainZip(const std::vector<fs::path>& inputs)
{
    diag::Bundle plain;
    for (const auto& f : inputs)
        plain.entries.push_back({f.filename().string(), sp::test::readAll(f), {}, {}});
    return diag::zipBytes(plain).value();
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const sp::test::TestUser user("benchuser");
    installRuntimes(user.home());
    std::vector<fs::path> inputs;
    for (int day = 1; day <= 3; ++day) {
        const FixedClock clock(std::chrono::sys_days{std::chrono::year{2026} / 3 / day});
        inputs.push_back(
            sp::test::recordLaunch("sdnext-rocm6.2", "sdnext", consoleLog(user.home(), day), clock)
                .log);
    }
    for (const auto& id : PrefixStore().installedIds())
        inputs.push_back(PrefixStore().receiptFile(id));

    diag::CollectOptions options;
    options.snapshot = *parseSnapshot(sp::test::linuxSnapshotJson(user.home().string()), "bench");
    std::vector<double> exportTimes, baselineTimes;
    std::vector<std::pair<std::string, double>> stepTimes; // of the last run
    std::size_t zipSize = 0;
    for (int run = 0; run < kRuns; ++run) {
        auto t0 = std::chrono::steady_clock::now();
        stepTimes.clear();
        options.progress = [&](const diag::Progress& p) {
            if (p.step != "verify and redact" || p.done == 0)
                stepTimes.emplace_back(p.step, secondsSince(t0));
        };
        auto bundle = diag::collect(options);
        if (!bundle || !diag::write(*bundle, user.home() / "bundle.zip", diag::Overwrite::Allow)) {
            std::fprintf(stderr, "export failed\n");
            return 1;
        }
        exportTimes.push_back(secondsSince(t0));
        stepTimes.emplace_back("written", exportTimes.back());
        t0 = std::chrono::steady_clock::now();
        const std::string baseline = plainZip(inputs);
        baselineTimes.push_back(secondsSince(t0));
        zipSize = fs::file_size(user.home() / "bundle.zip");
        // Correctness: the logs are in, verified runtimes, no token and no user name left.
        const auto entries = sp::test::unzipAll(sp::test::readAll(user.home() / "bundle.zip"));
        std::size_t logs = 0;
        for (const auto& [name, bytes] : entries) {
            logs += name.size() > 4 && name.substr(name.size() - 4) == ".log" &&
                    name.rfind("launches/", 0) == 0;
            if (bytes.find("hf_AbCd") != std::string::npos ||
                bytes.find("benchuser") != std::string::npos) {
                std::fprintf(stderr, "%s: not redacted\n", name.c_str());
                return 1;
            }
        }
        const auto report = nlohmann::json::parse(entries.at("report.json"));
        if (logs != 3 || report.at("runtimes").size() != 2 ||
            report.at("runtimes").at(0).at("verify") != "ok" || baseline.empty()) {
            std::fprintf(stderr, "bundle incomplete\n");
            return 1;
        }
    }
    // Where the time goes: verify alone, redaction alone (one thread each).
    auto t0 = std::chrono::steady_clock::now();
    for (const auto& id : PrefixStore().installedIds())
        verifyTree(PrefixStore().runtimeDir(id), *PrefixStore().receipt(id));
    const double verifyAlone = secondsSince(t0);
    const diag::Redactor redactor(diag::Identity::fromEnvironment());
    t0 = std::chrono::steady_clock::now();
    for (const auto& f : inputs) {
        diag::RedactionCounts counts;
        if (f.extension() == ".json")
            redactor.jsonText(sp::test::readAll(f), counts);
        else
            redactor.text(sp::test::readAll(f), counts);
    }
    const double redactAlone = secondsSince(t0);
    // A hostile text for a regex engine: 5 MB of random letters and digits (hashes,
    // base64) with token prefixes sprinkled in. RE2 keeps it linear; this shows the rate.
    std::string hostile;
    std::mt19937 rng(7);
    const char* alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    while (hostile.size() < kLogBytes)
        hostile +=
            rng() % 97 == 0 ? (rng() % 2 ? "sk-" : "hf_") : std::string(1, alnum[rng() % 62]);
    t0 = std::chrono::steady_clock::now();
    diag::RedactionCounts hostileCounts;
    redactor.text(hostile, hostileCounts);
    const double hostileSeconds = secondsSince(t0);
    const double exportMedian = median(exportTimes), baselineMedian = median(baselineTimes);
    std::printf("diag export: 3 x %zu-byte logs, 2 runtimes x %d files (verified), %d runs\n",
                kLogBytes, kFilesPerRuntime, kRuns);
    std::printf("  export (collect + redact + verify + write):  median %.3f s, best %.3f s, "
                "zip %zu bytes\n",
                exportMedian, *std::min_element(exportTimes.begin(), exportTimes.end()), zipSize);
    std::printf("  steps of the last run (seconds from the start):");
    for (const auto& [step, at] : stepTimes)
        std::printf(" %s %.3f;", step.c_str(), at);
    std::printf("\n");
    std::printf("  baseline (libarchive zip of the same files):  median %.3f s\n", baselineMedian);
    std::printf("  alone, one thread: verify %.3f s, redact the same files %.3f s\n", verifyAlone,
                redactAlone);
    std::printf("  hostile text (random alphanumerics with token prefixes): %.1f MB/s\n",
                static_cast<double>(hostile.size()) / hostileSeconds / 1e6);
    std::printf("  ratio export/baseline: %.2f\n", exportMedian / baselineMedian);
    std::printf("  target <= 1.000 s: %s\n", exportMedian <= 1.0 ? "met" : "NOT MET");
    return 0;
}
