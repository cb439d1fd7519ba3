// The catalog's user texts ("ui", docs/CATALOG.md "User texts"): the loader reads them
// and refuses a bad shape with file:line:col; the check passes the shipped catalog and
// names file and position of an id in a summary, a missing zh_CN, English left in a
// zh_CN text and a warning count that differs; the two word helpers the window's tests
// use find what they should and nothing else.

#include "core/catalog/loader.h"
#include "core/catalog/user_text.h"
#include "user_text_fixtures.h"

#include <QTest>
#include <filesystem>
#include <string>

namespace {

std::string withSummary(const std::string& en, const std::string& zh)
{
    std::string text = kUiCatalog;
    text.replace(text.find("SUMMARY_EN"), 10, en);
    text.replace(text.find("SUMMARY_ZH"), 10, zh);
    return text;
}

// The problems of `text` loaded as "mem.json"; fails the test when it does not load.
std::vector<std::string> problemsOf(const std::string& text)
{
    sp::CatalogLoader loader;
    auto r = loader.addText(text, "mem.json");
    if (!r)
        qFatal("%s", r.error().message.c_str());
    return loader.checkUserTexts();
}

std::string loadError(const std::string& text)
{
    sp::CatalogLoader loader;
    auto r = loader.addText(text, "mem.json");
    return r ? std::string() : r.error().message;
}

sp::Catalog shippedCatalog(std::vector<std::string>* problems = nullptr)
{
    sp::CatalogLoader loader;
    const std::filesystem::path dir = STACKPILOT_SOURCE_DIR "/profiles/catalog";
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".json")
            if (auto r = loader.addFile(e.path()); !r)
                qFatal("%s", r.error().message.c_str());
    if (problems)
        *problems = loader.checkUserTexts();
    return loader.catalog();
}

bool oneLine(const std::string& s)
{
    return !s.empty() && s.find('\n') == std::string::npos;
}

} // namespace

class TestUserText : public QObject
{
    Q_OBJECT
private slots:
    void inPicksTheLanguage()
    {
        const sp::UserText t{"Works", "可以运行"};
        for (const char* zh : {"zh_CN", "zh", "zh_CN.UTF-8", "zh-Hans", "zh-CN", "zh_Hans_CN"})
            QVERIFY2(t.in(zh) == "可以运行", zh);
        for (const char* other : {"en", "en_US", "", "de_DE", "zh_TW", "zh-Hant", "zh_HK", "zhx"})
            QVERIFY2(t.in(other) == "Works", other);
        const sp::UserText untranslated{"Works", ""};
        QCOMPARE(untranslated.in("zh_CN"), std::string("Works"));
        QVERIFY(sp::UserText{}.empty());
    }

    void untranslatedWordsKeepsOnlyEnglish()
    {
        using V = std::vector<std::string>;
        QVERIFY(sp::untranslatedWords("在你的 Radeon RX 6750 XT 上运行 SD.Next").empty());
        QVERIFY(
            sp::untranslatedWords("通过 ZLUDA 和 AMD HIP SDK 5.7 运行 ComfyUI-Zluda。").empty());
        QVERIFY(sp::untranslatedWords("缺少 rocblas.dll、libamdhip64.so 和 zluda.exe").empty());
        QVERIFY(sp::untranslatedWords("设置 HIP_PATH 和 PYTHONUTF8=1").empty());
        QVERIFY(sp::untranslatedWords("需要管理员权限：会写入 C:\\Program Files\\AMD").empty());
        QVERIFY(sp::untranslatedWords("首次启动会下载约 1 GB。").empty());
        QCOMPARE(sp::untranslatedWords("请 restart 程序"), V{"restart"});
        QCOMPARE(sp::untranslatedWords("First run: 首次运行"), (V{"First", "run"}));
        // A gfx target is not a name a user knows: it is reported.
        QCOMPARE(sp::untranslatedWords("gfx1031 没有 rocBLAS 内核。"), V{"gfx1031"});
        QVERIFY(sp::isKnownName("sd.next") && sp::isKnownName("ROCM") && !sp::isKnownName("run"));
    }

    void looksInternalFindsWhatOnlyAMaintainerWrites()
    {
        const auto cat = shippedCatalog();
        for (const char* internal :
             {"Seed 000: gfx1031 has no rocBLAS kernels", "the seed-001 fix", "preference 1",
              "see ZLUDA#140", "issue 24", "Issue  7", "run stackpilot-cli verify",
              "StackPilot rejected sdnext-zluda-hip6.1-rocblas-gfx1031",
              "uses sdnext-zluda-hip5.7-rocblas-gfx1031.", "llama-cpp-b10217-win-hip",
              "installs zluda-3.9.5-rocm5 first", "known issue hip-sdk-missing",
              "workload autotrain-advanced", "(sdnext)"})
            QVERIFY2(sp::looksInternal(internal, cat), internal);
        for (const char* plain :
             {"SD.Next on your Radeon RX 6750 XT — works, reported by users (AMD's ZLUDA route)",
              "Runs llamafile 0.8.1 on your NVIDIA card", "the llama.cpp server (llama-server)",
              "PyTorch and ComfyUI", "AMD's HIP SDK 5.7", "在 Radeon 上运行 SD.Next",
              "a sdnext-like name", "C:\\Program Files\\AMD\\ROCm\\5.7"})
            QVERIFY2(!sp::looksInternal(plain, cat), plain);
        QCOMPARE(sp::internalWord("see sdnext-cpu-linux", cat),
                 std::string("profile id 'sdnext-cpu-linux'"));
    }

    void theShippedCatalogIsCompleteAndClean()
    {
        std::vector<std::string> problems;
        const auto cat = shippedCatalog(&problems);
        std::string all;
        for (const auto& p : problems)
            all += p + "\n";
        QVERIFY2(problems.empty(), all.c_str());
        QCOMPARE(cat.profiles.size(), std::size_t(94));
        QCOMPARE(cat.workloads.size(), std::size_t(6));
        QCOMPARE(cat.knownIssues.size(), std::size_t(39));
        const auto* p = cat.profile("sdnext-zluda-hip5.7-rocblas-gfx1031");
        QVERIFY(p && p->ui.route.en == "AMD's ZLUDA route" && !p->ui.route.zhCN.empty());
        QCOMPARE(p->ui.warnings.size(), p->warnings.size());
        QCOMPARE(cat.workload("sdnext")->ui.name.in("zh_CN"), std::string("SD.Next"));
        QVERIFY(!cat.knownIssue("rocm-zluda-rocblas-access-violation")->ui.fix.zhCN.empty());
    }

    void aCleanFixturePasses()
    {
        const auto problems =
            problemsOf(withSummary(R"("Runs the image maker.")", R"("运行图片生成器。")"));
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    }

    void anIdInASummaryIsNamedWithFileAndPosition()
    {
        const auto problems =
            problemsOf(withSummary(R"("Uses imagegen-zluda.")", R"("使用 imagegen-zluda 方案。")"));
        QCOMPARE(problems.size(), std::size_t(3)); // the id in en and zh, English in zh
        QVERIFY2(oneLine(problems[0]), problems[0].c_str());
        QVERIFY2(problems[0].rfind("mem.json:9:17: profile 'imagegen-zluda': 'ui/summary/en' "
                                   "holds profile id 'imagegen-zluda'",
                                   0) == 0,
                 problems[0].c_str());
        QVERIFY2(problems[1].rfind("mem.json:9:", 0) == 0 &&
                     problems[1].find("'ui/summary/zh_CN' holds profile id") != std::string::npos,
                 problems[1].c_str());
    }

    void aMissingTranslationIsNamed()
    {
        const auto problems = problemsOf(withSummary(R"("Runs the image maker.")", R"("")"));
        QCOMPARE(problems.size(), std::size_t(1));
        QVERIFY2(oneLine(problems[0]) && problems[0].rfind("mem.json:9:", 0) == 0 &&
                     problems[0].find("'ui/summary' has no Simplified Chinese text ('zh_CN')") !=
                         std::string::npos,
                 problems[0].c_str());
    }

    void englishLeftInChineseIsNamed()
    {
        const auto problems =
            problemsOf(withSummary(R"("Runs the image maker.")", R"("运行 image maker。")"));
        QCOMPARE(problems.size(), std::size_t(1));
        QVERIFY2(oneLine(problems[0]) && problems[0].rfind("mem.json:9:", 0) == 0 &&
                     problems[0].find("'ui/summary/zh_CN' keeps English word(s) 'image', "
                                      "'maker'") != std::string::npos,
                 problems[0].c_str());
    }

    void internalWordsAndCountsAreRefused()
    {
        auto problems = problemsOf(
            withSummary(R"("Reported in issue 12 (seed 000).")", R"("运行图片生成器。")"));
        QCOMPARE(problems.size(), std::size_t(1));
        QVERIFY2(problems[0].find("holds the word 'seed'") != std::string::npos,
                 problems[0].c_str());
        std::string noWarnings = withSummary(R"("Runs it.")", R"("运行它。")");
        const auto w = noWarnings.find(R"(,
    "warnings": [)");
        noWarnings.erase(w, noWarnings.find("]}}],", w) + 1 - w); // the list and its "]"
        problems = problemsOf(noWarnings);
        QCOMPARE(problems.size(), std::size_t(1));
        QVERIFY2(problems[0].find("has 1 warning(s) but 0 in ui.warnings") != std::string::npos,
                 problems[0].c_str());
        // An entry without any "ui" is one problem, at the entry.
        problems = problemsOf(R"({"schema_version": 1,
"workloads": [{"id": "w", "name": "W", "command": ["run"]}]})");
        QCOMPARE(problems.size(), std::size_t(1));
        QVERIFY2(problems[0].rfind("mem.json:2:15: workload 'w' has no \"ui\"", 0) == 0,
                 problems[0].c_str());
    }

    void theLoaderRefusesABadShape()
    {
        const std::string head = "{\"schema_version\": 1,\n\"workloads\": [{\"id\": \"w\", "
                                 "\"name\": \"W\", \"command\": [\"run\"],\n";
        auto e = loadError(head + "\"ui\": []}]}");
        QVERIFY2(e.rfind("mem.json:3:1: /workloads/0/ui: expected an object", 0) == 0, e.c_str());
        e = loadError(head + "\"ui\": {\"name\": {\"zh_CN\": \"W\"}}}]}");
        QVERIFY2(e.rfind("mem.json:3:", 0) == 0 &&
                     e.find("missing required field 'en'") != std::string::npos,
                 e.c_str());
        e = loadError(head + "\"ui\": {\"name\": {\"en\": \"W\", \"zh_CN\": 5}}}]}");
        QVERIFY2(e.find("'zh_CN' must be a string") != std::string::npos, e.c_str());
        e = loadError(R"({"schema_version": 1, "profiles": [{"id": "p", "workload": "w",
"status": "community", "ui": {"warnings": {"en": "x"}}}]})");
        QVERIFY2(e.rfind("mem.json:2:", 0) == 0 &&
                     e.find("'warnings' must be an array") != std::string::npos,
                 e.c_str());
        sp::CatalogLoader loader;
        QVERIFY(loader.addText(head + "\"ui\": {\"name\": {\"en\": \"W\", \"fr\": \"W\"}}}]}",
                               "mem.json"));
        QCOMPARE(loader.warnings().size(), std::size_t(1));
        QVERIFY2(loader.warnings()[0].find("unknown field 'fr' in user_text") != std::string::npos,
                 loader.warnings()[0].c_str());
    }
};

QTEST_GUILESS_MAIN(TestUserText)
#include "test_user_text.moc"
