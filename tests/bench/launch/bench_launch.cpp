// Launch pipeline throughput and start latency, with figures and same-run ratios.
//
//  1. Baseline: the stand-in workload prints 1,000,000 lines straight into a file.
//  2. The same workload through LaunchSession: stackpilot-run, QProcess pipes, line
//     splitting, UTF-8 check, ANSI strip, URL spotting, the known-issue matcher with
//     the shipped catalog, the log file and a subscriber. Every line must arrive, in
//     order, in the stream and in the log (the program fails otherwise).
//  3. Start latency: from LaunchSession::start() to the workload's own first
//     instruction (it prints its CLOCK_REALTIME start), over 20 launches, no steps.
//
// Targets (issue "Launch"): >= 500,000 lines/s through the pipeline; <= 50 ms from
// launch to the workload's start. Printed as met / not met; not asserted.

#include "core/catalog/loader.h"
#include "core/launch/launch_prep.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>

using namespace sp;
namespace fs = std::filesystem;

namespace {

constexpr long kLines = 1'000'000;

long long nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

LaunchRequest requestFor(long lines, const fs::path& root,
                         std::shared_ptr<const logmatch::LogMatcher> matcher)
{
    Plan plan;
    plan.workload = "bench";
    plan.profile = "bench-lines";
    plan.command = {STANDIN_WORKLOAD, "--lines", std::to_string(lines)};
    plan.cwd = root.string();
    LaunchRequest r;
    r.composed = composeLaunch(plan, currentEnvironment(), "linux");
    r.plan = plan;
    r.logsRoot = root / "logs";
    r.dataDir = root / "data";
    r.keepLaunches = 1000;
    r.matcher = std::move(matcher);
    return r;
}

// Lines seen by the subscriber, checked for order as they come.
struct OrderCheck
{
    long next = 1;
    long bad = 0;
    long long startedNs = 0;
    void see(const std::string& text)
    {
        if (text.rfind("started_ns ", 0) == 0) {
            startedNs = std::stoll(text.substr(11));
            return;
        }
        const long n = std::atol(text.c_str() + 5); // "line N: ..."
        bad += n != next;
        next = n + 1;
    }
};

double baselineSeconds(const fs::path& root)
{
    QProcess p;
    p.setStandardOutputFile(QString::fromStdString((root / "baseline.txt").string()));
    QElapsedTimer t;
    t.start();
    p.start(QStringLiteral(STANDIN_WORKLOAD), {QStringLiteral("--lines"), QString::number(kLines)});
    p.waitForFinished(-1);
    return static_cast<double>(t.nsecsElapsed()) / 1e9;
}

struct PipelineRun
{
    double seconds = 0;
    OrderCheck check;
    fs::path log;
    bool ok = false;
};

PipelineRun runPipeline(long lines, const fs::path& root,
                        std::shared_ptr<const logmatch::LogMatcher> matcher,
                        long long* startNs = nullptr)
{
    PipelineRun run;
    LaunchSession s(requestFor(lines, root, std::move(matcher)), [&](const events::FromLaunch& e) {
        if (const auto* line = std::get_if<events::ConsoleLine>(&e))
            run.check.see(line->text);
    });
    QSignalSpy done(&s, &LaunchSession::finished);
    QElapsedTimer t;
    std::string error;
    if (startNs)
        *startNs = nowNs();
    t.start();
    if (!s.start(error)) {
        std::fprintf(stderr, "bench_launch: %s\n", error.c_str());
        return run;
    }
    done.wait(600000);
    run.seconds = static_cast<double>(t.nsecsElapsed()) / 1e9;
    run.log = s.files().log;
    run.ok = s.succeeded();
    return run;
}

// Lines of the log in order: "started_ns", then 1..N.
long logOutOfOrder(const fs::path& log, long& count)
{
    std::ifstream in(log);
    std::string line;
    long next = 1, bad = 0;
    count = 0;
    while (std::getline(in, line)) {
        ++count;
        if (line.rfind("line ", 0) != 0)
            continue;
        const long n = std::atol(line.c_str() + 5);
        bad += n != next;
        next = n + 1;
    }
    return bad;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    qputenv("STACKPILOT_RUN", STACKPILOT_BINARY_DIR "/bin/stackpilot-run");
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    CatalogLoadOptions o;
    o.builtinDir = STACKPILOT_SOURCE_DIR "/profiles/catalog";
    o.userDir = false;
    auto cat = loadCatalog(o);
    auto compiled = logmatch::LogMatcher::compile(cat->catalog.knownIssues);
    auto matcher = std::make_shared<const logmatch::LogMatcher>(std::move(*compiled));

    const double base = baselineSeconds(root);
    const PipelineRun run = runPipeline(kLines, root, matcher);
    long logLines = 0;
    const long logBad = logOutOfOrder(run.log, logLines);
    const double rate = static_cast<double>(kLines) / run.seconds;
    std::printf("baseline: %ld lines straight to a file in %.3f s (%.0f lines/s)\n", kLines, base,
                kLines / base);
    std::printf("pipeline: %ld lines through launch (helper, pipes, decode, matcher with %zu "
                "signatures, log, subscriber) in %.3f s = %.0f lines/s; ratio to baseline %.2fx\n",
                kLines, matcher->signatureCount(), run.seconds, rate, run.seconds / base);
    std::printf("pipeline: stream %ld lines, %ld out of order; log %ld lines, %ld out of order\n",
                run.check.next - 1, run.check.bad, logLines - 1, logBad);
    std::printf("target >= 500000 lines/s: %s\n", rate >= 500000 ? "met" : "NOT met");

    std::vector<double> ms;
    for (int i = 0; i < 20; ++i) {
        long long startNs = 0;
        const PipelineRun r = runPipeline(0, root, matcher, &startNs);
        ms.push_back(static_cast<double>(r.check.startedNs - startNs) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("start latency over %zu launches (launch -> workload start): median %.1f ms, "
                "max %.1f ms\n",
                ms.size(), ms[ms.size() / 2], ms.back());
    std::printf("target <= 50 ms: %s\n", ms[ms.size() / 2] <= 50 ? "met" : "NOT met");
    const bool lost =
        run.check.next - 1 != kLines || run.check.bad || logLines - 1 != kLines || logBad;
    return !run.ok || lost ? 1 : 0;
}
