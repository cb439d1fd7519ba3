// The output pipeline, launch logs and step receipts, without processes.
#include "core/catalog/loader.h"
#include "core/launch/launch_log.h"
#include "core/launch/output.h"
#include "core/launch/step_receipt.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

using namespace sp;
namespace fs = std::filesystem;

namespace {

const Catalog& shipped()
{
    static const Catalog cat = [] {
        CatalogLoadOptions o;
        o.builtinDir = STACKPILOT_SOURCE_DIR "/profiles/catalog";
        o.userDir = false;
        return loadCatalog(o)->catalog;
    }();
    return cat;
}

std::vector<std::string> lines(std::string_view bytes, std::size_t chunk,
                               std::size_t maxLine = 1 << 20)
{
    LineSplitter s(maxLine);
    std::vector<std::string> out;
    auto take = [&](std::string_view l) { out.emplace_back(l); };
    for (std::size_t i = 0; i < bytes.size(); i += chunk)
        s.feed(bytes.substr(i, chunk), take);
    s.finish(take);
    return out;
}

} // namespace

class TestLaunchOutput : public QObject
{
    Q_OBJECT

private slots:
    void ansiColoursAndTitlesAreStripped()
    {
        // rocminfo's own output on a machine without a GPU, as it prints it.
        QCOMPARE(stripAnsi("\x1b[31mROCk module is NOT loaded, possibly no GPU devices\x1b[0m"),
                 std::string("ROCk module is NOT loaded, possibly no GPU devices"));
        QCOMPARE(stripAnsi("\x1b]0;title\x07ok \x1b[1;32mgreen\x1b[m"), std::string("ok green"));
        QCOMPARE(stripAnsi("plain"), std::string("plain"));
        QCOMPARE(stripAnsi("cut \x1b["), std::string("cut "));
        // An escape before a multi-byte character cut it; DCS strings pass.
        QCOMPARE(stripAnsi("\x1b\xc3\xa9t\xc3\xa9"), std::string("\xc3\xa9t\xc3\xa9"));
        QCOMPARE(stripAnsi("a\x1b[1;\xe6\x98\xbe"), std::string("a\xe6\x98\xbe"));
        QCOMPARE(stripAnsi("\x1bP1$qm\x1b\\ok"), std::string("ok"));
    }

    void linesSurviveAnyChunking()
    {
        const std::string text = "one\r\ntwo\n\nthree without newline";
        const std::vector<std::string> want = {"one", "two", "", "three without newline"};
        for (std::size_t chunk : {1, 2, 3, 5, 64})
            QCOMPARE(lines(text, chunk), want);
        // A progress bar's updates end with a lone '\r' and are lines at once;
        // "\r\n" is still one end, split across chunks or not.
        const std::string progress = "10%\r20%\r30%\ndone\r\n\rnext\n";
        for (std::size_t chunk : {1, 2, 3, 5, 64})
            QCOMPARE(lines(progress, chunk),
                     (std::vector<std::string>{"10%", "20%", "30%", "done", "next"}));
        // Lone '\r's before a '\n' further on in the same chunk, and a '\n' right
        // after a line's '\r' end: each line once, whatever the chunks.
        const std::string mixed = "a\nb\rc\r\rd\n\ne\r\nf\rg";
        for (std::size_t chunk : {1, 2, 3, 4, 5, 7, 64})
            QCOMPARE(lines(mixed, chunk),
                     (std::vector<std::string>{"a", "b", "c", "d", "", "e", "f", "g"}));
        // A runaway line is cut into bounded pieces.
        for (std::size_t chunk : {1, 3, 64}) {
            QCOMPARE(lines(std::string(10, 'x') + "\nnext\n", chunk, 4),
                     (std::vector<std::string>{"xxxx", "xxxx", "xx", "next"}));
            QCOMPARE(lines(std::string(8, 'x') + "\nnext\n", chunk, 4),
                     (std::vector<std::string>{"xxxx", "xxxx", "next"}));
        }
    }

    void urlsAreMadeBrowsableAndReportedOnce()
    {
        UrlFinder f;
        QCOMPARE(*f.find("Running on local URL:  http://0.0.0.0:7860"),
                 std::string("http://127.0.0.1:7860"));
        QVERIFY(!f.find("Running on local URL:  http://0.0.0.0:7860"));
        QVERIFY(!f.find("see https://github.com/vladmandic/sdnext/wiki"));
        QCOMPARE(*f.find("listening on http://[::]:8080/"), std::string("http://[::1]:8080/"));
        // A workload's url_regex (SD.Next) names its URL whatever the host.
        UrlFinder sdnext(shipped().workload("sdnext")->urlRegex);
        QCOMPARE(*sdnext.find("Local URL: http://192.168.1.5:7860/"),
                 std::string("http://192.168.1.5:7860/"));
    }

    void gbkFromAChineseWindowsConsoleIsDecoded()
    {
        // "显存不足" (out of video memory) as code page 936 prints it.
        const std::string gbk = "\xCF\xD4\xB4\xE6\xB2\xBB\xD7\xE3";
        const TextDecoder cp936(936);
        QVERIFY(cp936.canConvert());
        QCOMPARE(cp936.decode(gbk),
                 std::string("\xE6\x98\xBE\xE5\xAD\x98\xE4\xB8\x8D\xE8\xB6\xB3"));
        // Valid UTF-8 is never reinterpreted.
        QCOMPARE(cp936.decode("\xE6\x98\xBE ok"), std::string("\xE6\x98\xBE ok"));
        // Without a code page, bad bytes become U+FFFD.
        QCOMPARE(TextDecoder(0).decode("a\xCF"
                                       "b"),
                 std::string("a\xEF\xBF\xBD"
                             "b"));
        QVERIFY(isValidUtf8("plain ascii") && !isValidUtf8("\xC0\xAF"));
    }

    void pipelineLogsMatchesOncePerIssueAndKeepsColoursInTheStream()
    {
        auto matcher = logmatch::LogMatcher::compile(shipped().knownIssues);
        QVERIFY(matcher);
        QTemporaryDir dir;
        const std::string logPath = dir.filePath(QStringLiteral("x.log")).toStdString();
        std::FILE* log = std::fopen(logPath.c_str(), "wb");
        std::vector<events::FromLaunch> events;
        OutputPipeline p(
            &*matcher, {}, 0, [&](const events::FromLaunch& e) { events.push_back(e); }, log);
        p.feed(false, "\x1b[32mRunning on local URL:  http://0.0.0.0:7860\x1b[0m\nstep 1\n");
        p.feed(
            true,
            "RuntimeError: No HIP GPUs are available\nRuntimeError: No HIP GPUs are available\n");
        p.finish();
        std::fclose(log);
        std::map<std::size_t, int> kinds; // by the variant's index
        for (const auto& e : events)
            ++kinds[e.index()];
        QCOMPARE(kinds[events::FromLaunch(events::ConsoleLine{}).index()], 4);
        QCOMPARE(kinds[events::FromLaunch(events::UrlAnnounced{}).index()], 1);
        QCOMPARE(kinds[events::FromLaunch(events::KnownIssueSeen{}).index()], 1);
        // The console keeps colours.
        QVERIFY(std::get<events::ConsoleLine>(events.front()).text.find("\x1b[32m") == 0);
        std::ifstream in(logPath);
        std::string first;
        std::getline(in, first);
        QCOMPARE(first, std::string("Running on local URL:  http://0.0.0.0:7860"));
        QCOMPARE(p.matches().front().knownIssue, std::string("no-gpu-visible"));
        QCOMPARE(p.matches().front().line, std::size_t{3});
        const auto* step = std::get_if<events::ConsoleLine>(&events[2]);
        QVERIFY(step && !step->isStderr);
        QCOMPARE(step->text, std::string("step 1"));
    }

    // The log filter may hold a line back until the next one and hands out what it held
    // at the end of each process's output; the log gets every line once, in order, with
    // control characters escaped and the 8-bit CSI gone (the matcher sees it stripped).
    void logFilterHoldsLinesAndTheLogEscapesControls()
    {
        struct HoldOne final : LogFilter
        {
            std::vector<std::string> held;
            void line(std::string_view text, std::vector<std::string>& out) override
            {
                held.emplace_back(text);
                if (held.size() == 2) {
                    out.insert(out.end(), held.begin(), held.end());
                    held.clear();
                }
            }
            void finish(std::vector<std::string>& out) override
            {
                out.insert(out.end(), held.begin(), held.end());
                held.clear();
            }
        };
        QTemporaryDir dir;
        const std::string logPath = dir.filePath(QStringLiteral("f.log")).toStdString();
        std::FILE* log = std::fopen(logPath.c_str(), "wb");
        std::vector<events::FromLaunch> events;
        OutputPipeline p(
            nullptr, {}, 0, [&](const events::FromLaunch& e) { events.push_back(e); }, log);
        p.setLogFilter(std::make_shared<HoldOne>());
        p.feed(false, "one\ntwo\nbell\a \xc2\x9b"
                      "1;31mred\xc2\x9b"
                      "0m\n");
        p.finish();
        std::fclose(log);
        std::ifstream in(logPath, std::ios::binary);
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        QCOMPARE(text, std::string("one\ntwo\nbell\\x07 red\n"));
        QCOMPARE(events.size(), std::size_t{3});
        QCOMPARE(stripAnsi("a\xc2\x9b"
                           "31mb\xc2\x9b"),
                 std::string("ab")); // a cut sequence ends the line
    }

    void logsRotateAtNAndSpareTheUsersFiles()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        FixedClock clock(std::chrono::system_clock::from_time_t(1'795'000'000));
        for (int i = 0; i < 25; ++i) {
            auto f = newLaunchFiles(root, "sdnext-cpu-linux", clock);
            QVERIFY(f);
            std::ofstream(f->log) << i << "\n";
            LaunchRecord r;
            r.profile = "sdnext-cpu-linux";
            r.started = isoTime(clock.now());
            std::ofstream(f->record) << toJson(r).dump();
            if (i % 3 != 0) // two launches in one second get "-2"
                clock.set(clock.now() + std::chrono::seconds(1));
        }
        const fs::path profileDir = root / "sdnext-cpu-linux";
        std::ofstream(profileDir / "my-notes.log") << "mine\n";
        const auto removed = rotateLaunchLogs(profileDir, 20);
        QCOMPARE(removed.size(), std::size_t{10}); // 5 launches, .log and .json each
        QVERIFY(fs::exists(profileDir / "my-notes.log"));
        const auto records = listLaunchRecords(root);
        QCOMPARE(records.size(), std::size_t{20});
        // The oldest kept is launch 5: its log says so.
        std::size_t logs = 0;
        for (const auto& e : fs::directory_iterator(profileDir))
            logs += e.path().extension() == ".log";
        QCOMPARE(logs, std::size_t{21});
    }

    void launchRecordsRoundTripAndBadOnesNameTheFile()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "r.json";
        LaunchRecord r;
        r.profile = "p";
        r.exit = {{"signal", 11}, {"text", "killed by SIGSEGV (11)"}};
        r.knownIssues = {"hsa-aperture-violation"};
        std::ofstream(file) << toJson(r).dump();
        auto back = readLaunchRecord(file);
        QVERIFY(back);
        QCOMPARE(back->knownIssues, r.knownIssues);
        QVERIFY(back->exit == r.exit);
        std::ofstream(file) << "{\"profile\": [";
        auto bad = readLaunchRecord(file);
        QVERIFY(!bad);
        QVERIFY(bad.error().message.find("r.json") != std::string::npos);
    }

    void stepHashFollowsStepsAndRuntimes()
    {
        Plan p;
        p.steps = {{"python", "-m", "venv", "v"}};
        p.runtimes = {{"python-3.11", "python", "3.11.15", "/d/python", false, false, false, {}}};
        const std::string h = stepsHash(p);
        QCOMPARE(stepsHash(p), h);
        Plan steps = p;
        steps.steps[0].back() = "venv2";
        QVERIFY(stepsHash(steps) != h);
        Plan split = p; // ["a b"] differs from ["a", "b"]
        split.steps = {{"python -m", "venv", "v"}};
        QVERIFY(stepsHash(split) != h);
        Plan runtimes = p;
        runtimes.runtimes[0].version = "3.11.16";
        QVERIFY(stepsHash(runtimes) != h);
        QTemporaryDir dir;
        const fs::path receipt = stepReceiptFile(dir.path().toStdString(), "prof");
        QVERIFY(!stepsAlreadyDone(receipt, h));
        QVERIFY(writeStepReceipt(receipt, h, 1, "2026-11-24T00:00:00Z"));
        QVERIFY(stepsAlreadyDone(receipt, h));
        QVERIFY(!stepsAlreadyDone(receipt, stepsHash(runtimes)));
        QVERIFY(clearStepReceipt(receipt));
        QVERIFY(!stepsAlreadyDone(receipt, h));
    }
};

QTEST_GUILESS_MAIN(TestLaunchOutput)
#include "test_launch_output.moc"
