// Known issues' causes (docs/CATALOG.md, "Causes"): codes and names as evidence in any
// wording, the context that tells causes sharing a code apart, a cause outranking
// another issue on its line, and the loader's checks of all of it.

#include "core/catalog/loader.h"
#include "core/logmatch/context.h"
#include "core/logmatch/matcher.h"

#include <QTest>
#include <string>
#include <vector>

using namespace sp;
using namespace sp::logmatch;

namespace {

// A catalog file with these known issues (a JSON array's inside).
std::string catalogText(const std::string& issues)
{
    return "{\"schema_version\": 1, \"known_issues\": [" + issues + "]}";
}

std::vector<KnownIssue> load(const std::string& issues)
{
    CatalogLoader loader;
    if (auto r = loader.addText(catalogText(issues), "c.json"); !r)
        qFatal("%s", r.error().message.c_str());
    return loader.catalog().knownIssues;
}

// The loader's first complaint: reading the file, then its references.
std::string loadError(const std::string& issues)
{
    CatalogLoader loader;
    if (auto r = loader.addText(catalogText(issues), "c.json"); !r)
        return r.error().message;
    auto refs = loader.checkReferences();
    return refs ? std::string() : refs.error().message;
}

// The ids a scan of these lines gives, in order, "id@line".
std::string scan(const LogMatcher& m, const std::vector<std::string>& lines, LogContext seed = {})
{
    LogScan s(m, seed);
    for (const auto& l : lines)
        s.feed(l);
    s.flush();
    std::string out;
    for (const auto& x : s.matches())
        out += (out.empty() ? "" : " ") + x.knownIssue + "@" + std::to_string(x.line);
    return out;
}

LogMatcher compiled(const std::string& issues)
{
    auto m = LogMatcher::compile(load(issues));
    if (!m)
        qFatal("%s", m.error().message.c_str());
    return std::move(*m);
}

const char* kIllegal = R"({"id": "illegal", "title": "t", "causes": [
    {"code": "hipErrorIllegalAddress", "names": ["an illegal memory access was encountered"]}]})";

} // namespace

class TestCauses : public QObject
{
    Q_OBJECT
private slots:
    // The code as a whole word, the name in any wrapper, its first letter in either case.
    void codesAndNamesInAnyWording()
    {
        const LogMatcher m = compiled(kIllegal);
        QCOMPARE(scan(m, {"torch.AcceleratorError: HIP error: an illegal memory access was "
                          "encountered"}),
                 std::string("illegal@1"));
        QCOMPARE(scan(m, {"  what():  CUDA error: an illegal memory access was encountered"}),
                 std::string("illegal@1"));
        QCOMPARE(scan(m, {"- **Exception Message:** An illegal memory access was encountered"}),
                 std::string("illegal@1"));
        QCOMPARE(scan(m, {"Search for `hipErrorIllegalAddress' in https://rocm.docs.amd.com"}),
                 std::string("illegal@1"));
        QCOMPARE(scan(m, {"hipErrorIllegalAddressX is not the code",
                          "CUDA error: an illegal instruction was encountered",
                          "AN ILLEGAL MEMORY ACCESS WAS ENCOUNTERED"}),
                 std::string());
    }

    // `on`: the line names the object too, before or after, in any case.
    void onNeedsTheObjectOnTheLine()
    {
        const LogMatcher m = compiled(R"({"id": "exec", "title": "t", "causes": [
            {"names": ["cannot enable executable stack"], "on": ["libamdhip64", "librccl"]}]})");
        QCOMPARE(scan(m, {"ImportError: libamdhip64.so: cannot enable executable stack as shared "
                          "object requires: Invalid argument"}),
                 std::string("exec@1"));
        QCOMPARE(scan(m, {"cannot enable executable stack (LIBRCCL.so.1)"}), std::string("exec@1"));
        QCOMPARE(scan(m, {"ImportError: libmpi.so.12: cannot enable executable stack as shared "
                          "object requires: Invalid argument"}),
                 std::string());
    }

    // The OS from the log's own lines, or from the caller; a match waits for it.
    void osContextFromTheLogOrTheCaller()
    {
        const LogMatcher m = compiled(R"({"id": "tdr", "title": "t", "causes": [
            {"code": "hipErrorLaunchFailure", "names": ["unspecified launch failure"],
             "when": {"os": ["windows"]}}]})");
        const std::vector<std::string> log = {"HIP error: unspecified launch failure"};
        QCOMPARE(scan(m, log), std::string());
        LogContext windows;
        windows.windows = true;
        QCOMPARE(scan(m, log, windows), std::string("tdr@1"));
        LogContext linux;
        linux.linux = true;
        // The machine's own OS beats a Windows path a Linux log happens to quote.
        QCOMPARE(scan(m, {log[0], R"(  File "C:\Users\me\x.py", line 3)"}, linux), std::string());
        // Reported with the line it was found on, once the context shows after it.
        QCOMPARE(scan(m, {"start", log[0], R"(  File "C:\Users\me\x.py", line 3)"}),
                 std::string("tdr@2"));
    }

    // The iGPU as the failing device outranks the gfx family on the same line; without
    // the device list, the gfx family stands.
    void igpuFailingOutranksOnItsLine()
    {
        const LogMatcher m = compiled(R"({"id": "gfx", "title": "t",
              "signatures": ["(HIP|ROCm) error: invalid device function"]},
            {"id": "igpu", "title": "t", "causes": [
              {"names": ["invalid device function"], "when": {"igpu_failing": true,
               "min_gpus": 2}, "over": ["gfx"]}]})");
        const std::vector<std::string> withList = {
            "ggml_cuda_init: found 2 ROCm devices:",
            "  Device 0: AMD Radeon RX 9070, gfx1201 (0x1201), VMM: no",
            "  Device 1: AMD Radeon 740M Graphics, gfx1103 (0x1103), VMM: no",
            "ROCm error: invalid device function",
            "  current device: 1, in function ggml_cuda_compute_forward"};
        QCOMPARE(scan(m, withList), std::string("igpu@4"));
        QCOMPARE(scan(m, {withList[3], withList[4]}), std::string("gfx@1"));
        // The failing device is the discrete one: the gfx family.
        auto dgpu = withList;
        dgpu[4] = "  current device: 0, in function ggml_cuda_compute_forward";
        QCOMPARE(scan(m, dgpu), std::string("gfx@4"));
    }

    // An MI50 is named "AMD Radeon Graphics": its gfx says it is no iGPU.
    void gfxDecidesWhatIsIntegrated()
    {
        QVERIFY(!integratedGpu("AMD Radeon Graphics", "gfx906"));
        QVERIFY(integratedGpu("AMD Radeon Graphics", "gfx1036"));
        QVERIFY(integratedGpu("AMD Radeon 780M Graphics", ""));
        QVERIFY(integratedGpu("Intel(R) UHD Graphics 620", ""));
        QVERIFY(!integratedGpu("AMD Radeon RX 7900 XTX", ""));
    }

    void runtimeAndRocmVersionContext()
    {
        const LogMatcher m = compiled(R"({"id": "z", "title": "t", "causes": [
              {"code": "miopenStatusNotImplemented", "when": {"runtimes": ["zluda"]}}]},
            {"id": "r7", "title": "t", "causes": [
              {"code": "hipErrorNoDevice", "when": {"rocm_version": ">=7.0"}}]})");
        QCOMPARE(scan(m, {"RuntimeError: miopenStatusNotImplemented"}), std::string());
        QCOMPARE(scan(m, {"CUDA available on AMD Radeon RX 6800 [ZLUDA]",
                          "RuntimeError: miopenStatusNotImplemented"}),
                 std::string("z@2"));
        QCOMPARE(scan(m, {"torch 2.9.0+rocm6.4", "hipErrorNoDevice"}), std::string());
        QCOMPARE(scan(m, {"torch 2.10.0+rocm7.1", "hipErrorNoDevice"}), std::string("r7@2"));
        LogContext plan;
        plan.runtimes = {"zluda"};
        QCOMPARE(scan(m, {"RuntimeError: miopenStatusNotImplemented"}, plan), std::string("z@1"));
    }

    // Fed whole, in chunks or line by line, a scan gives the same matches.
    void chunkedScanAgrees()
    {
        const LogMatcher m = compiled(kIllegal);
        const std::string text = "a\nHIP error: an illegal memory access was encountered\nb\n";
        LogScan whole(m);
        whole.feedBytes(text);
        whole.finish();
        LogScan bytes(m);
        for (char c : text)
            bytes.feedBytes(std::string_view(&c, 1));
        bytes.finish();
        QCOMPARE(whole.matches().size(), std::size_t{1});
        QCOMPARE(bytes.matches().size(), std::size_t{1});
        QCOMPARE(bytes.matches()[0].line, std::size_t{2});
    }

    void loaderChecksCauses()
    {
        QVERIFY(loadError(R"({"id": "k", "title": "t", "causes": [{}]})")
                    .find("a cause needs a 'code' or at least one of 'names'") !=
                std::string::npos);
        QVERIFY(loadError(R"({"id": "k", "title": "t", "causes": [{"code": "x"}]})")
                    .find("at least 3 characters") != std::string::npos);
        QVERIFY(loadError(R"({"id": "k", "title": "t", "causes": [{"code": "abc",
                "when": {}}]})")
                    .find("'when' names no condition") != std::string::npos);
        QVERIFY(loadError(R"({"id": "k", "title": "t", "causes": [{"code": "abc",
                "when": {"igpu_failing": false}}]})")
                    .find("can only be true") != std::string::npos);
        QVERIFY(loadError(R"({"id": "k", "title": "t", "causes": [{"code": "abc",
                "when": {"os": ["macos"]}}]})") != std::string());
        QVERIFY(loadError(R"({"id": "k", "title": "t", "causes": [{"code": "abc",
                "when": {"rocm_version": ">=x"}}]})") != std::string());
        const std::string missing = loadError(
            R"({"id": "k", "title": "t", "causes": [{"code": "abc", "over": ["nope"]}]})");
        QVERIFY2(missing.find("c.json:1:") == 0 &&
                     missing.find("outranks known issue 'nope'") != std::string::npos,
                 missing.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCauses)
#include "test_causes.moc"
