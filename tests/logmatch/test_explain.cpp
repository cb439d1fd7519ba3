// The unknown-failure explainer (core/logmatch/explain.h) on real logs of causes the
// catalog does not know (tests/logmatch/corpus-2026/unknown): for each log, the line a
// person would choose and the component they would name, as listed here (the manifest's
// decisive_line, at its first occurrence). At least 18 decisive lines must be right.

#include "core/logmatch/explain.h"
#include "core/logmatch/matcher.h"

#include <QTest>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace sp::logmatch;
namespace fs = std::filesystem;

namespace {

const fs::path kUnknown = fs::path(STACKPILOT_SOURCE_DIR) / "tests/logmatch/corpus-2026/unknown";

struct Expected
{
    const char* file;
    std::size_t line;      // the line a person would choose
    const char* component; // the component they would name
};

// From the manifest's decisive_line and component (corpus-2026/MANIFEST.json).
const Expected kExpected[] = {
    {"unknown-rocmlibraries-8647-hipblaslt-no-heuristic-gfx950.log", 5, "hipblaslt"},
    {"unknown-sdnext-4574-zluda-rocblaslt-lazy-gfx1030.log", 3, "hipblaslt"},
    {"unknown-rocmlibraries-9962-hipblaslt-seh-gfx1151.log", 1, "hipblaslt"},
    {"unknown-comfyuirocm-21-windows-access-violation-is-available.log", 2, "hip-runtime"},
    {"unknown-therock-4958-amdhip64-7-access-violation-graph-capture.log", 1, "hip-runtime"},
    {"unknown-ort-509-migraphx-enumtoname.log", 1, "onnxruntime"},
    {"unknown-ort-468-migraphx-wnrvo-unknown-warning.log", 2, "migraphx"},
    {"unknown-pytorch-166101-libtorch-rocm-glibc235.log", 1, "pytorch"},
    {"unknown-zluda-112-torch-cpu-0xc0000005.log", 2, "pytorch"},
    {"unknown-rocm-6017-mes-remove-queue-device-lost.log", 1, "amdgpu-driver"},
    {"unknown-raylight-102-hw-exception-gpu-hang-r9700.log", 2, "hsa-runtime"},
    {"unknown-rocm-5259-gfx942-hw-exception-gpu-hang.log", 2, "hsa-runtime"},
    {"unknown-fasterwhisper-1278-cuda-driver-insufficient.log", 1, "cuda-runtime"},
    {"unknown-comfyuizluda-64-cublaslt-not-supported.log", 6, "zluda"},
    {"unknown-therock-2707-comfyui-hip-invalid-argument.log", 1, "hip-runtime"},
    {"unknown-therock-2324-gfx950-dcgpu-not-found.log", 7, "workload"},
    {"unknown-comfyuizluda-473-cublasltmatmul-not-supported.log", 1, "zluda"},
    {"unknown-maskpls-18-nvrtc-invalid-gpu-architecture.log", 1, "pytorch"},
    {"unknown-rocm-4382-rocminfo-hsa-out-of-resources.log", 4, "hsa-runtime"},
    {"unknown-ollama-11418-msty-ggml-assert-unary.log", 3, "workload"},
    {"unknown-ollama-11447-intel-exit-status-2.log", 1, "workload"},
};

std::vector<std::string> linesOf(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

nlohmann::json manifestEntry(const std::string& file)
{
    std::ifstream in(kUnknown.parent_path() / "MANIFEST.json");
    const auto j = nlohmann::json::parse(in);
    for (const auto& e : j.at("logs"))
        if (e.at("file").get<std::string>() == "unknown/" + file)
            return e;
    return {};
}

} // namespace

class TestExplain : public QObject
{
    Q_OBJECT
private slots:
    // The table agrees with the manifest: each listed line is its decisive_line.
    void tableMatchesTheManifest()
    {
        std::size_t n = 0;
        for (const auto& e : kExpected) {
            const auto m = manifestEntry(e.file);
            QVERIFY2(!m.is_null(), e.file);
            const auto lines = linesOf(kUnknown / e.file);
            QVERIFY2(e.line >= 1 && e.line <= lines.size(), e.file);
            QCOMPARE(lines[e.line - 1], m.at("decisive_line").get<std::string>());
            ++n;
        }
        QVERIFY(n >= 20);
    }

    void decisiveLineAndComponent()
    {
        std::size_t lineRight = 0;
        std::size_t componentRight = 0;
        for (const auto& e : kExpected) {
            const auto m = manifestEntry(e.file);
            LogContext context;
            if (m.contains("machine_runtime"))
                context.runtimes.push_back(m.at("machine_runtime").get<std::string>());
            const auto lines = linesOf(kUnknown / e.file);
            const UnknownFailure f = explainFile(kUnknown / e.file, lines.size(), context);
            QVERIFY2(f.found, e.file);
            // Equal lines are the same choice (8647 repeats its message).
            const bool lineOk = f.line == e.line || (f.line >= 1 && f.line <= lines.size() &&
                                                     lines[f.line - 1] == lines[e.line - 1]);
            lineRight += lineOk ? 1 : 0;
            componentRight += f.component == e.component ? 1 : 0;
            std::printf("%-4s %-66s line %2zu (want %2zu) %-13s %-14s (want %s)\n",
                        lineOk ? "ok" : "MISS", e.file, f.line, e.line, f.why.c_str(),
                        f.component.c_str(), e.component);
            QVERIFY2(!f.searchText.empty() && !f.lines.empty(), e.file);
        }
        const std::size_t total = std::size(kExpected);
        std::printf("decisive line right: %zu/%zu; component right: %zu/%zu\n", lineRight, total,
                    componentRight, total);
        std::fflush(stdout);
        QVERIFY2(lineRight >= 18, "fewer than 18 decisive lines right");
        // Where the log names no library (8647, 9962, 468), only the thread says which it was.
        QVERIFY2(componentRight >= 12, "fewer than 12 components right");
    }

    // A log that only starts up has nothing to explain.
    void cleanLogHasNoFailure()
    {
        FailureExplainer x;
        x.feed("Starting server");
        x.feed("To see the GUI go to: http://127.0.0.1:8188");
        QVERIFY(!x.explain().found);
    }

    // The streaming explainer and the file reader agree, and the report holds the lines.
    void streamingAndReport()
    {
        FailureExplainer x;
        x.feed("loading model");
        x.feed("HIP error: hipErrorNoDevice\r");
        x.feed("Aborted (core dumped)");
        const UnknownFailure f = x.explain();
        QVERIFY(f.found);
        QCOMPARE(f.line, std::size_t{2});
        QCOMPARE(f.component, std::string("hip-runtime"));
        const std::string report = failureReport(f, "launch.log");
        QVERIFY(report.find("HIP error: hipErrorNoDevice") != std::string::npos);
        QVERIFY(report.find("HIP runtime") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestExplain)
#include "test_explain.moc"
