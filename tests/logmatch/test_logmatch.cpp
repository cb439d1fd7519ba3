#include "core/catalog/loader.h"
#include "core/logmatch/causes.h"
#include "core/logmatch/matcher.h"
#include "core/logmatch/signature.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <re2/re2.h>
#include <sstream>
#include <sys/stat.h>

using namespace sp;
using namespace sp::logmatch;
namespace fs = std::filesystem;

namespace {

const fs::path kLogs = fs::path(STACKPILOT_SOURCE_DIR) / "tests/logmatch/logs";

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The real built-in known issues, read through the catalog loader.
std::vector<KnownIssue> builtinIssues()
{
    CatalogLoader loader;
    auto r = loader.addFile(fs::path(STACKPILOT_SOURCE_DIR) / "profiles/catalog/known-issues.json");
    if (!r)
        qFatal("%s", r.error().message.c_str());
    return loader.catalog().knownIssues;
}

const LogMatcher& matcher()
{
    static LogMatcher m = [] {
        auto c = LogMatcher::compile(builtinIssues());
        if (!c)
            qFatal("%s", c.error().message.c_str());
        return std::move(c.value());
    }();
    return m;
}

std::string describe(const std::vector<LogMatch>& ms)
{
    std::string s;
    for (const auto& m : ms)
        s += m.knownIssue + "@" + std::to_string(m.line) + "x" + std::to_string(m.count) + " ";
    return s.empty() ? "(none)" : s;
}

bool sameMatches(const std::vector<LogMatch>& a, const std::vector<LogMatch>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].knownIssue != b[i].knownIssue || a[i].line != b[i].line ||
            a[i].count != b[i].count || a[i].excerpt != b[i].excerpt)
            return false;
    return true;
}

std::vector<LogMatch> scanText(const std::string& text, std::size_t chunk)
{
    LogScan scan(matcher());
    for (std::size_t i = 0; i < text.size(); i += chunk)
        scan.feedBytes(std::string_view(text).substr(i, chunk));
    scan.finish();
    return scan.matches();
}

std::vector<LogMatch> scanLines(const std::string& text)
{
    LogScan scan(matcher());
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) {
            scan.feed(std::string_view(text).substr(pos));
            break;
        }
        scan.feed(std::string_view(text).substr(pos, nl - pos));
        pos = nl + 1;
    }
    return scan.matches();
}

std::vector<fs::path> logs(const std::string& prefix)
{
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(kLogs))
        if (e.path().filename().string().rfind(prefix, 0) == 0 && e.path().extension() == ".log")
            out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

bool validUtf8NoControls(const std::string& s)
{
    // Invalid UTF-8 would not survive the round trip through QString unchanged.
    const QByteArray b(s.data(), static_cast<qsizetype>(s.size()));
    for (const unsigned char c : s)
        if (c < 0x20 || c == 0x7f)
            return false;
    return QString::fromUtf8(b).toUtf8() == b;
}

} // namespace

class TestLogMatch : public QObject
{
    Q_OBJECT
private slots:
    void catalogCompiles()
    {
        const auto& m = matcher();
        QVERIFY(m.issues().size() >= 8);
        for (const char* id :
             {"rocm-zluda-rocblas-access-violation", "hipblas-status-unknown",
              "torch-cuda-lib-missing-on-rocm", "cuda-arch-mismatch", "hsa-aperture-violation",
              "rocm-unsupported-gfx", "gpu-out-of-memory", "no-gpu-visible"}) {
            const bool found = std::any_of(m.issues().begin(), m.issues().end(),
                                           [&](const KnownIssue& k) { return k.id == id; });
            QVERIFY2(found, id);
        }
        // Every signature of the built-in catalog gets a literal prefilter.
        QCOMPARE(m.alwaysRunCount(), std::size_t(0));
        for (const auto& k : m.issues()) {
            QVERIFY2(!k.remedy.text.empty(), k.id.c_str());
            QVERIFY2(!k.signatures.empty() || !k.causes.empty(), k.id.c_str());
            QVERIFY2(!k.references.empty(), k.id.c_str());
        }
    }

    void failureLogsGiveTheirIssues()
    {
        const auto expected = nlohmann::json::parse(readAll(kLogs / "expected.json"))["failures"];
        const auto files = logs("fail-");
        QCOMPARE(files.size(), expected.size());
        for (const auto& f : files) {
            const std::string name = f.filename().string();
            QVERIFY2(expected.contains(name), name.c_str());
            auto got = scanFile(matcher(), f);
            QVERIFY2(got.ok(), name.c_str());
            const auto& want = expected[name];
            std::string wantText;
            for (const auto& w : want)
                wantText += w["known_issue"].get<std::string>() + "@" +
                            std::to_string(w["line"].get<int>()) + "x" +
                            std::to_string(w["count"].get<int>()) + " ";
            const std::string msg = name + ": got " + describe(*got) + " want " + wantText;
            QVERIFY2(describe(*got) == wantText, msg.c_str());
            for (const auto& m : *got) {
                QVERIFY(!m.excerpt.empty());
                QVERIFY(!m.remedy.empty());
                QVERIFY2(validUtf8NoControls(m.excerpt), m.excerpt.c_str());
            }
        }
    }

    // Acceptance: nothing fires on normal startups of SD.Next, ComfyUI, llama.cpp and
    // Ollama, with their harmless warnings, nor when the user chose the CPU.
    void cleanLogsMatchNothing()
    {
        const auto files = logs("clean-");
        QVERIFY(files.size() >= 10);
        for (const auto& f : files) {
            auto got = scanFile(matcher(), f);
            QVERIFY(got.ok());
            const std::string msg = f.filename().string() + ": " + describe(*got);
            QVERIFY2(got->empty(), msg.c_str());
        }
    }

    void lineAtATimeEqualsBatch()
    {
        for (const auto& f : logs("")) {
            const std::string text = readAll(f);
            auto batch = scanFile(matcher(), f);
            QVERIFY(batch.ok());
            const std::string name = f.filename().string();
            QVERIFY2(sameMatches(*batch, scanLines(text)), name.c_str());
            for (const std::size_t chunk : {std::size_t(1), std::size_t(7), std::size_t(4096)})
                QVERIFY2(sameMatches(*batch, scanText(text, chunk)), name.c_str());
        }
    }

    // The prefilter is an optimisation only: on every fixture and corpus line and on
    // lines cut around the signatures, it gives what running every regex would.
    void prefilterAgreesWithPlainRegex()
    {
        std::vector<std::pair<std::size_t, std::shared_ptr<const re2::RE2>>> all;
        for (std::size_t i = 0; i < matcher().issues().size(); ++i) {
            for (const auto& s : matcher().issues()[i].signatures)
                all.emplace_back(i, *sp::logmatch::compileSignature(s));
            for (const auto& c : matcher().issues()[i].causes)
                for (const auto& s : sp::logmatch::causeSignatures(c))
                    all.emplace_back(i, *sp::logmatch::compileSignature(s.pattern));
        }
        std::vector<std::string> lines;
        std::vector<fs::path> files = logs("");
        for (const auto& e : fs::directory_iterator(kLogs.parent_path() / "corpus"))
            if (e.path().extension() == ".log")
                files.push_back(e.path());
        for (const auto& f : files) {
            std::istringstream in(readAll(f));
            for (std::string l; std::getline(in, l);) {
                lines.push_back(l);
                for (std::size_t cut = 1; cut < l.size(); cut += 13)
                    lines.push_back(l.substr(cut));
            }
        }
        std::vector<std::size_t> hits;
        for (const auto& l : lines) {
            std::vector<std::size_t> plain;
            for (const auto& [issue, re] : all)
                if (re2::RE2::PartialMatch(l, *re) &&
                    std::find(plain.begin(), plain.end(), issue) == plain.end())
                    plain.push_back(issue);
            std::sort(plain.begin(), plain.end());
            matcher().matchLine(l, hits);
            QVERIFY2(hits == plain, l.c_str());
        }
    }

    void oddBytes()
    {
        // CRLF, NUL bytes, invalid UTF-8 and no final newline.
        using namespace std::string_literals;
        std::string text = "ok line\r\n";
        text += "garbage \xff\xfe\x00 bytes\r\n"s;
        text += "x \xc3 HIPBLAS_STATUS_UNKNOWN \x00\x01 \xed\xa0\x80 end"s;
        const auto got = scanText(text, 5);
        QCOMPARE(got.size(), std::size_t(1));
        QCOMPARE(got[0].knownIssue, std::string("hipblas-status-unknown"));
        QCOMPARE(got[0].line, std::size_t(3));
        QVERIFY2(validUtf8NoControls(got[0].excerpt), got[0].excerpt.c_str());
        QVERIFY(got[0].excerpt.find("HIPBLAS_STATUS_UNKNOWN") != std::string::npos);
        QVERIFY(sameMatches(got, scanLines(text)));

        LogScan empty(matcher());
        empty.finish();
        QCOMPARE(empty.lineCount(), std::size_t(0));
        LogScan one(matcher());
        one.feedBytes("no newline");
        one.finish();
        QCOMPARE(one.lineCount(), std::size_t(1));
    }

    // A live view learns of each new issue from feed()'s return value.
    void liveFeedReportsNewIssues()
    {
        LogScan scan(matcher());
        QCOMPARE(scan.feed("ggml_cuda_init: found 1 CUDA devices:"), std::size_t(0));
        QCOMPARE(scan.feed("CUDA error 1 at ggml-cuda.cu:6952: HIPBLAS_STATUS_UNKNOWN"),
                 std::size_t(1));
        QCOMPARE(scan.feed("cuBLAS error 1: HIPBLAS_STATUS_UNKNOWN"), std::size_t(0));
        QCOMPARE(scan.feedBytes("RuntimeError: No HIP GPUs are available; HIP out of memory. Tried "
                                "to allocate 2 GiB\npartial"),
                 std::size_t(2));
        QCOMPARE(scan.finish(), std::size_t(0));
        QCOMPARE(
            describe(scan.matches()),
            std::string("hipblas-status-unknown@2x2 gpu-out-of-memory@4x1 no-gpu-visible@4x1 "));
        QCOMPARE(scan.lineCount(), std::size_t(5));
    }

    void veryLongLines()
    {
        const std::string pad(500000, 'a');
        // A signature deep inside a long line is found; the excerpt shows it.
        std::string text =
            "first\n" + pad + " HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION " + pad + "\n";
        // Past kMaxLineBytes a line is no longer looked at (documented limit).
        text += std::string(kMaxLineBytes + 10, 'b') + "HIPBLAS_STATUS_UNKNOWN\n";
        text += "Torch not compiled with CUDA enabled";
        const auto got = scanText(text, 65536);
        QCOMPARE(describe(got), std::string("hsa-aperture-violation@2x1 no-gpu-visible@4x1 "));
        QVERIFY(got[0].excerpt.find("HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION") !=
                std::string::npos);
        QVERIFY(got[0].excerpt.size() <= kExcerptBytes + 8);
        QVERIFY(sameMatches(got, scanLines(text)));
        QVERIFY(sameMatches(got, scanText(text, 1 << 20)));
    }

    void excerpts()
    {
        QCOMPARE(makeExcerpt("  \t hello world \r"), std::string("hello world"));
        QCOMPARE(makeExcerpt(std::string("a\0b", 3)), std::string("a\xEF\xBF\xBD"
                                                                  "b"));
        QCOMPARE(makeExcerpt("\xe4\xbd\xa0\xe5\xa5\xbd"), std::string("\xe4\xbd\xa0\xe5\xa5\xbd"));
        QCOMPARE(makeExcerpt("\xe4\xbd"), std::string("\xEF\xBF\xBD\xEF\xBF\xBD"));
        const std::string longCjk = [] {
            std::string s;
            for (int i = 0; i < 400; ++i)
                s += "\xe4\xbd\xa0";
            return s;
        }();
        const auto e = makeExcerpt(longCjk);
        QVERIFY(e.size() <= kExcerptBytes + 6);
        QVERIFY(validUtf8NoControls(e));
    }

    void scanFileErrors()
    {
        QTemporaryDir dir;
        const fs::path missing = fs::path(dir.path().toStdString()) / "missing.log";
        auto r = scanFile(matcher(), missing);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code,
                 sp::ErrorCode::InvalidInput); // a missing input file is exit 3 in every verb
        QVERIFY(r.error().message.find("missing.log") != std::string::npos);
        auto d = scanFile(matcher(), fs::path(dir.path().toStdString()));
        QVERIFY(!d.ok());
        QVERIFY(d.error().message.find("is a directory") != std::string::npos);
        // A FIFO is refused at once instead of blocking the read.
        const fs::path fifo = fs::path(dir.path().toStdString()) / "pipe.log";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        auto f = scanFile(matcher(), fifo);
        QVERIFY(!f.ok());
        QVERIFY2(f.error().message.find("FIFO") != std::string::npos, f.error().message.c_str());
    }

    void badRegexIsInvalidInput()
    {
        KnownIssue k;
        k.id = "broken";
        k.signatures = {"(unclosed"};
        auto c = LogMatcher::compile({k});
        QVERIFY(!c.ok());
        QCOMPARE(c.error().code, sp::ErrorCode::InvalidInput);
        QVERIFY(c.error().message.find("broken") != std::string::npos);
    }

    // Catastrophic backtracking for std::regex (hours); linear for RE2.
    void backtrackingSignaturesFinish()
    {
        KnownIssue k;
        k.id = "evil";
        k.signatures = {"(a+)+$", "(a*)*b"};
        auto c = LogMatcher::compile({k});
        QVERIFY(c.ok());
        std::string text;
        for (int i = 0; i < 2000; ++i)
            text += std::string(60, 'a') + "!\n";
        QElapsedTimer timer;
        timer.start();
        LogScan scan(*c);
        scan.feedBytes(text);
        scan.finish();
        const auto ms = timer.elapsed();
        QVERIFY(scan.matches().empty());
        QCOMPARE(scan.lineCount(), std::size_t(2000));
        QVERIFY2(ms < 30000, std::to_string(ms).c_str()); // generous: it takes milliseconds
        // And they still match what they describe.
        std::vector<std::size_t> hits;
        c->matchLine(std::string(60, 'a') + "b", hits);
        QCOMPARE(hits.size(), std::size_t(1));
        c->matchLine(std::string(60, 'a'), hits);
        QCOMPARE(hits.size(), std::size_t(1));
    }

    // A pattern RE2 cannot run in linear time (a backreference) is refused at load,
    // with the file and position of the signature.
    void nonLinearSyntaxIsALoadError()
    {
        sp::CatalogLoader loader;
        auto r = loader.addText("{\"schema_version\": 1, \"known_issues\": [\n"
                                " {\"id\": \"k\", \"title\": \"t\",\n"
                                "  \"signatures\": [\"(a)\\\\1\"]}]}",
                                "evil.json");
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.rfind("evil.json:3:18:", 0) == 0, r.error().message.c_str());
        QVERIFY(r.error().message.find("RE2") != std::string::npos);
    }

    // Anchors keep their meaning when a long line is cut to a window for the regex.
    void anchorsInLongLines()
    {
        KnownIssue k;
        k.id = "anchored";
        k.signatures = {"^Fatal: boom", "boom end$"};
        auto c = LogMatcher::compile({k});
        QVERIFY(c.ok());
        std::vector<std::size_t> hits;
        const std::string pad(5000, 'x');
        c->matchLine(pad + " Fatal: boom " + pad, hits);
        QVERIFY(hits.empty());
        c->matchLine("Fatal: boom " + pad, hits);
        QVERIFY(hits == std::vector<std::size_t>{0});
        c->matchLine(pad + " boom end", hits);
        QVERIFY(hits == std::vector<std::size_t>{0});
        c->matchLine(pad + " boom end " + pad, hits);
        QVERIFY(hits.empty());
    }

    void explicitAndAlwaysRunSignatures()
    {
        KnownIssue a;
        a.id = "digits";
        a.signatures = {"^[0-9]+$"}; // nothing derivable: always run
        KnownIssue b;
        b.id = "gated";
        b.signatures = {"needle [0-9]"};
        b.literals = {"zzz"}; // explicit gate: the line must also contain zzz
        auto c = LogMatcher::compile({a, b});
        QVERIFY(c.ok());
        QCOMPARE(c->alwaysRunCount(), std::size_t(1));
        std::vector<std::size_t> hits;
        c->matchLine("12345", hits);
        QVERIFY(hits == std::vector<std::size_t>{0});
        c->matchLine("needle 5", hits);
        QVERIFY(hits.empty());
        c->matchLine("zzz needle 5", hits);
        QVERIFY(hits == std::vector<std::size_t>{1});
    }

    // A log_requires pattern runs on a line only when one of its required literals is
    // there, or always when it has none (case folding: no literal): either way it is
    // met on exactly the lines it matches, and each issue once, in catalog order.
    void conditionsWithAndWithoutLiterals()
    {
        KnownIssue a;
        a.id = "folded";
        a.signatures = {"boom"};
        a.logRequires = {"(?i)\\bgpu [0-9]"}; // no literal: always run
        KnownIssue b;
        b.id = "literal";
        b.signatures = {"boom"};
        b.logRequires = {"needle [0-9]+ found", "other"};
        KnownIssue c;
        c.id = "none";
        c.signatures = {"bang"};
        auto m = LogMatcher::compile({a, b, c});
        QVERIFY(m.ok());
        QVERIFY(m->hasCondition(0) && m->hasCondition(1) && !m->hasCondition(2));
        std::vector<char> met = {0, 0, 1};
        std::vector<std::size_t> fresh;
        m->conditionsOnLine("needle x found, gpus 1", met, fresh); // literal, no match
        QVERIFY(fresh.empty());
        m->conditionsOnLine("the needle 12 found; GPU 3 too", met, fresh);
        QVERIFY((fresh == std::vector<std::size_t>{0, 1}));
        QVERIFY(met[0] && met[1]);
        fresh.clear();
        met = {0, 0, 1};
        m->conditionsOnLine("an other line", met, fresh); // the issue's second pattern
        QVERIFY((fresh == std::vector<std::size_t>{1}));
        m->conditionsOnLine("Gpu 7", met, fresh);
        QVERIFY((fresh == std::vector<std::size_t>{1, 0}));
    }

    // igpu-selected fires only where the log shows the machine's condition: the
    // integrated GPU in use and a discrete Radeon on some line (before or after).
    // Constructed lines in ComfyUI's format: no public log of the second case was found.
    void igpuSelectedNeedsADiscreteGpuInTheLog()
    {
        auto scan = [](std::initializer_list<const char*> lines) {
            LogScan s(matcher());
            for (const char* l : lines)
                s.feed(l);
            return describe(s.matches());
        };
        // The only GPU (ROCm/legacy-rocm-build#5108's line).
        QCOMPARE(scan({"Device: cuda:0 AMD Radeon(TM) 890M Graphics : native"}),
                 std::string("(none)"));
        // The discrete card is cuda:0; the iGPU is listed second.
        QCOMPARE(scan({"Device: cuda:0 AMD Radeon RX 7900 XTX : native",
                       "Device: cuda:1 AMD Radeon(TM) Graphics : native"}),
                 std::string("(none)"));
        // The iGPU is cuda:0 and a discrete card is listed after it: reported with its
        // own first line once the condition shows.
        LogScan live(matcher());
        QCOMPARE(live.feed("Device: cuda:0 AMD Radeon(TM) Graphics : native"), std::size_t(0));
        QCOMPARE(live.feed("Device: cuda:1 AMD Radeon RX 7900 XTX : native"), std::size_t(1));
        QCOMPARE(describe(live.matches()), std::string("igpu-selected@1x1 "));
        // SD.Next: a discrete gfx among the ROCm agents, before the iGPU line.
        QCOMPARE(scan({"ROCm: agents=['gfx1100', 'gfx1036']",
                       "Torch detected GPU: AMD Radeon(TM) Graphics VRAM 512"}),
                 std::string("igpu-selected@2x1 "));
    }
};

QTEST_APPLESS_MAIN(TestLogMatch)
#include "test_logmatch.moc"
